"""An installable app (issue 25): the web app manifest, its icons (real PNGs, drawn by
``scripts/make_icons.py``), the service worker at ``/sw.js`` caching the static files, and a
real Chromium that finds the app installable and loads the static files without a network.
"""

from __future__ import annotations

import importlib.util
import io
import shutil
from pathlib import Path
from types import ModuleType

from PIL import Image
from playwright.sync_api import Page

from dicegames.web.app import STATIC
from dicegames.web.pwa import service_worker, static_files
from web.client import AppClient
from web.server import Server

ROOT = Path(__file__).resolve().parents[2]
PAGES = ("/", "/m/x", "/replay/x")


def icon_script() -> ModuleType:
    """scripts/make_icons.py as a module."""
    spec = importlib.util.spec_from_file_location("make_icons", ROOT / "scripts/make_icons.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_manifest_opens_full_screen_with_real_icons(client: AppClient) -> None:
    answer = client.http.get("/static/manifest.webmanifest")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("application/manifest+json")
    manifest = answer.json()
    assert manifest["display"] == "fullscreen" and manifest["start_url"] == "/"
    assert manifest["name"] and manifest["short_name"] and manifest["theme_color"]
    sizes: dict[str, set[str]] = {}
    for icon in manifest["icons"]:
        picture = client.http.get(icon["src"])
        assert picture.status_code == 200 and picture.headers["content-type"] == "image/png"
        image = Image.open(io.BytesIO(picture.content))
        assert image.format == "PNG" and f"{image.width}x{image.height}" == icon["sizes"]
        sizes.setdefault(icon["purpose"], set()).add(icon["sizes"])
    assert sizes == {"any": {"192x192", "512x512"}, "maskable": {"192x192", "512x512"}}
    for page in PAGES:
        html = client.http.get(page).text
        assert '<link rel="manifest" href="/static/manifest.webmanifest">' in html, page
        assert 'src="/static/pwa.js"' in html and 'name="theme-color"' in html, page


def test_the_icons_are_the_scripts_drawing() -> None:
    assert icon_script().main(["--check"]) == 0
    touch = Image.open(STATIC / "icons/apple-touch-icon.png")
    assert touch.size == (180, 180)


def test_the_worker_lists_every_static_file_and_changes_with_them(client: AppClient,
                                                                   tmp_path: Path) -> None:
    answer = client.http.get("/sw.js")
    assert answer.status_code == 200 and "javascript" in answer.headers["content-type"]
    assert answer.headers["cache-control"] == "no-cache"
    worker = answer.text
    assert "__VERSION__" not in worker and "__FILES__" not in worker
    for path in static_files(STATIC):
        assert f'"/static/{path.relative_to(STATIC).as_posix()}"' in worker
    assert '"/static/sw.js"' not in worker
    copy = tmp_path / "static"
    shutil.copytree(STATIC, copy)
    before = service_worker(copy)
    assert service_worker(copy) == before
    (copy / "style.css").write_text("body { color: red; }", encoding="utf-8")
    assert service_worker(copy) != before


def test_chromium_installs_the_app_and_keeps_the_static_files(server: Server,
                                                              page: Page) -> None:
    page.goto(server.url + "/")
    page.wait_for_function("async () => (await navigator.serviceWorker.ready).active !== null")
    cdp = page.context.new_cdp_session(page)
    errors = [error["errorId"] for error in
              cdp.send("Page.getInstallabilityErrors")["installabilityErrors"]]
    # A Playwright context is a private window, where Chromium installs nothing: the only
    # error allowed is that one, about the test's browser, none about the app.
    assert set(errors) <= {"in-incognito"}, errors
    manifest = cdp.send("Page.getAppManifest")
    assert manifest["url"].endswith("/static/manifest.webmanifest") and not manifest["errors"]
    page.wait_for_function("""async () => {
        const names = await caches.keys();
        if (names.length !== 1) return false;
        const kept = await (await caches.open(names[0])).keys();
        return kept.some((r) => r.url.endsWith('/static/style.css'));
    }""")
    page.context.set_offline(True)
    try:
        loaded = page.evaluate("""async () => {
            const answer = await fetch('/static/home.js');
            return [answer.status, (await answer.text()).includes('showPhoneAccess')];
        }""")
        api = page.evaluate("() => fetch('/api/games').then(() => 'online', () => 'offline')")
    finally:
        page.context.set_offline(False)
    assert loaded == [200, True]  # from the worker's cache: the network is off
    assert api == "offline"  # the API is never cached
