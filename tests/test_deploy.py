"""Every file in ``deploy/`` is checked: the systemd units by ``systemd-analyze verify``, the
nginx configuration parsed (crossplane) and the Caddyfile adapted by ``caddy`` (else read
for its structure), the Prometheus files read against the metrics the app serves, and the
backup and restore scripts run for real on a SQLite store.

A tool that is not installed skips its check with a message saying which (``nginx -t`` and
the proxies started for real are in ``tests/web/test_proxy.py``).
"""

from __future__ import annotations

import asyncio
import os
import re
import shutil
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import crossplane  # type: ignore[import-untyped]
import pytest
import yaml  # type: ignore[import-untyped]

from dicegames.web.metrics import Metrics
from dicegames.web.store import Store, StoredMatch
from pgcluster import PgServer

DEPLOY = Path(__file__).resolve().parent.parent / "deploy"
UNITS = sorted((DEPLOY / "systemd").iterdir())
INSTALLED = {"/opt/dicegames/venv": sys.prefix, "/opt/dicegames/deploy": str(DEPLOY)}
"""Where the units expect the installation (docs/deploy.md), and where it is here."""


def test_every_deploy_file_is_checked() -> None:
    """A new file in deploy/ needs a check here (or in tests/web/test_proxy.py)."""
    checked = {"Caddyfile", "backup.sh", "restore.sh", "dicegames.env.example",
               "nginx/dicegames.conf", "prometheus/alerts.yml", "prometheus/prometheus.yml",
               *(f"systemd/{unit.name}" for unit in UNITS)}
    present = {str(path.relative_to(DEPLOY)) for path in DEPLOY.rglob("*") if path.is_file()}
    assert present == checked


def _run(command: list[str], env: dict[str, str] | None = None
         ) -> subprocess.CompletedProcess[str]:
    """``command``'s exit code and output (a minute at most)."""
    return subprocess.run(command, check=False, capture_output=True, text=True, timeout=60,
                          env=env)


def _installed(text: str) -> str:
    for where, here in INSTALLED.items():
        text = text.replace(where, here)
    return text


@pytest.mark.parametrize("unit", UNITS, ids=[unit.name for unit in UNITS])
def test_systemd_units_verify(unit: Path, tmp_path: Path) -> None:
    tool = shutil.which("systemd-analyze")
    if tool is None:
        pytest.skip("systemd-analyze is not installed: the units are not verified")
    text = _installed(unit.read_text())
    for command in re.findall(r"^Exec\w+=[-+!@:]*(/\S+)", text, re.MULTILINE):
        if not Path(command).exists():
            pytest.skip(f"{command} is not installed here: {unit.name} is not verified")
    for other in UNITS:  # its dependencies beside it, as installed
        (tmp_path / other.name).write_text(_installed(other.read_text()))
    name = unit.name.replace("@.", "@8001.")  # a template is verified as an instance
    if name != unit.name:
        (tmp_path / name).write_text(text)
    done = _run([tool, "verify", str(tmp_path / name)])
    said = [line for line in (done.stdout + done.stderr).splitlines()
            if str(tmp_path) in line or name in line]
    assert done.returncode == 0 and not said, done.stdout + done.stderr


def _directives(block: list[dict[str, Any]], name: str) -> list[dict[str, Any]]:
    """Every directive called ``name`` in ``block`` and the blocks under it."""
    found = []
    for directive in block:
        if directive["directive"] == name:
            found.append(directive)
        found.extend(_directives(directive.get("block", []), name))
    return found


def test_nginx_conf_parses_and_says_what_the_app_needs() -> None:
    parsed = crossplane.parse(str(DEPLOY / "nginx" / "dicegames.conf"), single=True,
                              check_ctx=False)
    assert parsed["status"] == "ok", parsed["errors"]
    config: list[dict[str, Any]] = parsed["config"][0]["parsed"]
    upstream = _directives(config, "upstream")[0]
    assert len(_directives(upstream["block"], "server")) >= 2
    listens = [" ".join(d["args"]) for d in _directives(config, "listen")]
    assert any("443 ssl" in listen for listen in listens)
    locations = {" ".join(d["args"]): d for d in _directives(config, "location")}
    assert _directives(locations["= /metrics"]["block"], "return")[0]["args"] == ["404"]
    headers = {tuple(d["args"]) for d in _directives(locations["/ws/"]["block"],
                                                     "proxy_set_header")}
    assert ("Upgrade", "$http_upgrade") in headers
    assert ("Host", "$host") in headers  # a location setting headers inherits none
    forwarded = {tuple(d["args"]) for d in _directives(config, "proxy_set_header")}
    assert ("X-Forwarded-For", "$remote_addr") in forwarded  # no client-chosen address
    (log_format,) = _directives(config, "log_format")
    line = " ".join(log_format["args"][1:])
    for leaky in ("$request ", "$request_uri", "$args", "$query_string", "$http_referer"):
        assert leaky not in line + " ", f"the access log would hold seat tokens: {leaky}"
    assert all(d["args"][-1] == "dicegames" for d in _directives(config, "access_log"))


def test_caddyfile_adapts_and_says_what_the_app_needs(tmp_path: Path) -> None:
    caddyfile = DEPLOY / "Caddyfile"
    text = caddyfile.read_text()
    assert re.search(r"reverse_proxy 127\.0\.0\.1:\d+ 127\.0\.0\.1:\d+", text)
    assert "respond /metrics 404" in text
    assert "replace token REDACTED" in text and "replace seat REDACTED" in text
    assert "request>headers>Referer delete" in text
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed: the Caddyfile was only read, not adapted")
    env = {**os.environ, "HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path)}
    for verb in ("adapt", "validate"):
        done = _run([caddy, verb, "--config", str(caddyfile), "--adapter", "caddyfile"],
                    env=env)
        assert done.returncode == 0, done.stdout + done.stderr
        assert '"level":"warn"' not in done.stderr, done.stderr


def test_prometheus_files_name_only_metrics_the_app_serves() -> None:
    metrics = Metrics()
    metrics.observe_request("GET", "/", 200, 0.01)
    served = {line.split("{")[0].split(" ")[0] for line in metrics.render().decode().splitlines()
              if line and not line.startswith("#")}
    rules = yaml.safe_load((DEPLOY / "prometheus" / "alerts.yml").read_text())
    exprs = [rule["expr"] for group in rules["groups"] for rule in group["rules"]]
    assert exprs and all(rule.get("annotations", {}).get("summary")
                         for group in rules["groups"] for rule in group["rules"])
    named = {name for expr in exprs for name in re.findall(r"\bdicegames_\w+", expr)}
    assert named and named <= served, named - served
    scrape = yaml.safe_load((DEPLOY / "prometheus" / "prometheus.yml").read_text())
    assert scrape["rule_files"] == ["alerts.yml"]
    targets = scrape["scrape_configs"][0]["static_configs"][0]["targets"]
    assert len(targets) >= 2 and all(t.startswith("127.0.0.1:") for t in targets)
    promtool = shutil.which("promtool")
    if promtool is not None:
        done = _run([promtool, "check", "config", str(DEPLOY / "prometheus" / "prometheus.yml")])
        assert done.returncode == 0, done.stdout + done.stderr


def test_the_env_example_sets_what_the_units_read() -> None:
    settings = dict(line.split("=", 1) for line in
                    (DEPLOY / "dicegames.env.example").read_text().splitlines()
                    if line and not line.startswith("#"))
    read = {name for unit in UNITS for name in re.findall(r"\$\{(DICEGAMES_\w+)\}",
                                                          unit.read_text())}
    assert read and read <= set(settings)
    assert settings["DICEGAMES_ORIGIN"].startswith("https://")


def _rows(path: Path) -> dict[str, list[tuple[object, ...]]]:
    with sqlite3.connect(path) as db:
        return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(),
                              key=repr) for table in ("matches", "seats", "moves")}


def test_backup_and_restore_of_a_sqlite_store(tmp_path: Path) -> None:
    db = tmp_path / "games.sqlite3"

    async def fill() -> None:
        store = Store(db)
        try:
            await store.create(StoredMatch("m1", "extra-meters", {}, [
                {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}], 7,
                "auto", {0: "t0", 1: "t1"}, [(None, "3", False)]))
            await store.add_move("m1", 1, 0, "go", False)
        finally:
            store.close()

    asyncio.run(fill())
    env = {**os.environ, "DICEGAMES_PYTHON": sys.executable}
    done = _run(["sh", str(DEPLOY / "backup.sh"), f"sqlite:///{db}", str(tmp_path / "backups")],
                env=env)
    assert done.returncode == 0, done.stderr
    backup = Path(done.stdout.strip())
    assert backup.parent == tmp_path / "backups" and backup.suffix == ".sqlite3"
    assert not list(backup.parent.glob("*.part"))
    before = _rows(db)
    with sqlite3.connect(db) as changed:  # a mishap after the backup
        changed.execute("DELETE FROM moves")
    done = _run(["sh", str(DEPLOY / "restore.sh"), str(backup), str(db)], env=env)
    assert done.returncode == 0, done.stderr
    assert _rows(db) == before
    assert (tmp_path / "games.sqlite3.before-restore").exists()
    missing = _run(["sh", str(DEPLOY / "backup.sh"), str(tmp_path / "nothing")], env=env)
    assert missing.returncode == 1 and "no SQLite file" in missing.stderr


def _pg_rows(dsn: str) -> dict[str, list[tuple[object, ...]]]:
    import psycopg
    with psycopg.connect(dsn) as db:
        return {table: sorted(db.execute(f"SELECT * FROM {table}").fetchall(), key=repr)
                for table in ("matches", "seats", "moves", "schema_version")}


def test_backup_and_restore_of_a_postgresql_store(pg_server: PgServer, pg_dsn: str,
                                                  tmp_path: Path) -> None:
    if shutil.which("pg_dump") is None or shutil.which("pg_restore") is None:
        pytest.skip("pg_dump or pg_restore is not installed: the PostgreSQL backup is not run")
    from dicegames.web.store_pg import PgStore

    async def fill() -> None:
        store = PgStore(pg_dsn)
        await store.open()
        try:
            await store.create(StoredMatch("m1", "extra-meters", {}, [
                {"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}], 7,
                "auto", {0: "t0", 1: "t1"}, [(None, "3", False)]))
            await store.add_move("m1", 1, 0, "go", False)
        finally:
            await store.aclose()

    asyncio.run(fill())
    done = _run(["sh", str(DEPLOY / "backup.sh"), pg_dsn, str(tmp_path)])
    assert done.returncode == 0, done.stderr
    backup = Path(done.stdout.strip())
    assert backup.suffix == ".dump" and backup.stat().st_size > 0
    before = _pg_rows(pg_dsn)
    other = pg_server.create_database()  # restored on another server's database
    try:
        done = _run(["sh", str(DEPLOY / "restore.sh"), str(backup), other])
        assert done.returncode == 0, done.stderr
        assert _pg_rows(other) == before
        # and over a database that changed since: the backup's content again
        import psycopg
        with psycopg.connect(pg_dsn, autocommit=True) as db:  # a mishap after the backup
            db.execute("UPDATE matches SET players = '[]', finished = 1")
        done = _run(["sh", str(DEPLOY / "restore.sh"), str(backup), pg_dsn])
        assert done.returncode == 0, done.stderr
        assert _pg_rows(pg_dsn) == before
    finally:
        pg_server.drop_database(other)
