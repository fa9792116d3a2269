"""The proxies of ``deploy/`` started for real in front of two ``dicegames serve`` processes
on one database: nginx over HTTPS (a throwaway self-signed certificate) and Caddy.

The configuration shipped is used as it is, with only what must differ on a test machine
replaced: the ports (free loopback ones), the certificate's files, the log and temporary
folders. Through the proxy: the pages and the API answer, both processes get requests, a
websocket opens and plays, ``/metrics`` is refused, and the proxy's access log holds no
seat token. Skipped, with a message, where nginx, openssl or caddy is not installed.
"""

from __future__ import annotations

import http.client
import json
import re
import shutil
import signal
import socket
import ssl
import subprocess
import urllib.error
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from websockets.sync.client import connect

from polling import until
from web.server import Server

pytestmark = pytest.mark.process

DEPLOY = Path(__file__).resolve().parents[2] / "deploy"
SITE = "games.example.org"
TWO_PEOPLE = [{"name": "Ann", "kind": "human"}, {"name": "Ben", "kind": "human"}]


def free_port() -> int:
    """A loopback port free now."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


@pytest.fixture(scope="module")
def backends(tmp_path_factory: pytest.TempPathFactory) -> Iterator[list[Server]]:
    """Two server processes on one database, as the dicegames@ units start them."""
    db = tmp_path_factory.mktemp("proxy") / "games.sqlite3"
    servers = [Server(db, extra=("--allow-origin", f"https://{SITE}")).start()
               for _ in range(2)]
    yield servers
    for server in servers:
        server.stop()


def port_of(server: Server) -> int:
    return int(server.url.rsplit(":", 1)[1])


def requests_seen(server: Server) -> float:
    """How many requests for a match's state ``server`` answered (its own metrics)."""
    with urllib.request.urlopen(server.url + "/metrics", timeout=10) as answer:
        text = answer.read().decode()
    found = re.findall(r'dicegames_http_request_duration_seconds_count\{method="GET",'
                       r'route="/api/matches/\{match_id\}",status="200"\} (\S+)', text)
    return sum(float(count) for count in found)


class Through:
    """Requests through the proxy at ``base`` (certificates not checked: a test one)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.context = ssl.create_default_context()
        self.context.check_hostname = False
        self.context.verify_mode = ssl.CERT_NONE

    def call(self, method: str, path: str, body: object = None) -> tuple[int, Any]:
        data = None if body is None else json.dumps(body).encode()
        request = urllib.request.Request(self.base + path, data=data, method=method,
                                         headers={"content-type": "application/json"})
        try:
            with urllib.request.urlopen(request, timeout=30, context=self.context) as answer:
                status, raw = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        try:
            return status, json.loads(raw or b"null")
        except ValueError:
            return status, raw.decode(errors="replace")


def exercise(proxy: Through, backends: list[Server], log: Path) -> None:
    """What a deployment must do through its proxy (see the module docstring)."""
    status, match = proxy.call("POST", "/api/matches", {"game": "extra-meters",
                                                        "players": TWO_PEOPLE})
    assert status == 201, match
    token = match["seats"][0]["token"]
    seen = [requests_seen(server) for server in backends]
    for _ in range(6):
        status, state = proxy.call("GET", f"/api/matches/{match['id']}?token={token}")
        assert status == 200, state
    after = [requests_seen(server) for server in backends]
    assert all(now > before for now, before in zip(after, seen, strict=True)), (seen, after)
    status, page = proxy.call("GET", f"/m/{match['id']}?seat={token}")
    assert status == 200 and "<html" in page.lower()
    assert proxy.call("GET", "/metrics")[0] == 404
    assert proxy.call("GET", "/readyz") == (200, {"status": "ready"})
    ws = "ws" + proxy.base.removeprefix("http")
    options: dict[str, Any] = {"ssl": proxy.context} if ws.startswith("wss") else {}
    with connect(f"{ws}/ws/matches/{match['id']}?token={token}", **options) as viewer:
        first = json.loads(viewer.recv(timeout=10))
        assert first["type"] == "state", first
        move = first["state"]["hints"]["0"][0]["move"]
        viewer.send(json.dumps({"type": "act", "move": move, "id": 1}))
        answers = [json.loads(viewer.recv(timeout=10)) for _ in range(2)]
        assert {"ack", "state"} <= {answer["type"] for answer in answers}, answers
    lines: str = until(lambda: log.read_text() if log.exists() and log.read_text().count(
        "/api/matches") >= 7 else None, "the proxy's access log", 10)
    assert token not in lines and match["seats"][1]["token"] not in lines


def test_nginx_in_front_of_two_processes(backends: list[Server], tmp_path: Path) -> None:
    nginx, openssl = shutil.which("nginx"), shutil.which("openssl")
    if nginx is None or openssl is None:
        pytest.skip(f"{'nginx' if nginx is None else 'openssl'} is not installed: the nginx "
                    "configuration was parsed (tests/test_deploy.py) but not started")
    subprocess.run([openssl, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1",
                    "-subj", f"/CN={SITE}", "-keyout", str(tmp_path / "key.pem"),
                    "-out", str(tmp_path / "cert.pem")], check=True, capture_output=True,
                   timeout=60)
    https, insecure = free_port(), free_port()
    conf = (DEPLOY / "nginx" / "dicegames.conf").read_text()
    conf = conf.replace("127.0.0.1:8001", f"127.0.0.1:{port_of(backends[0])}")
    conf = conf.replace("127.0.0.1:8002", f"127.0.0.1:{port_of(backends[1])}")
    conf = conf.replace("listen 443 ssl", f"listen 127.0.0.1:{https} ssl")
    conf = conf.replace("listen 80;", f"listen 127.0.0.1:{insecure};")
    conf = re.sub(r"\n\s*listen \[::\]:\d+[^;]*;", "", conf)
    conf = conf.replace(f"/etc/letsencrypt/live/{SITE}/fullchain.pem", str(tmp_path / "cert.pem"))
    conf = conf.replace(f"/etc/letsencrypt/live/{SITE}/privkey.pem", str(tmp_path / "key.pem"))
    conf = conf.replace("/var/log/nginx/", f"{tmp_path}/")
    (tmp_path / "dicegames.conf").write_text(conf)
    temp = "\n".join(f"    {kind}_temp_path {tmp_path}/{kind};"
                     for kind in ("client_body", "proxy", "fastcgi", "uwsgi", "scgi"))
    (tmp_path / "nginx.conf").write_text(
        f"daemon off;\nworker_processes 1;\npid {tmp_path}/nginx.pid;\n"
        f"error_log {tmp_path}/error.log;\nevents {{}}\n"
        f"http {{\n    access_log off;\n{temp}\n    include {tmp_path}/dicegames.conf;\n}}\n")
    command = [nginx, "-p", str(tmp_path), "-c", str(tmp_path / "nginx.conf")]
    tested = subprocess.run([*command, "-t"], capture_output=True, text=True, timeout=60,
                            check=False)
    assert tested.returncode == 0, tested.stderr
    process = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        proxy = Through(f"https://127.0.0.1:{https}")
        until(lambda: _answers(proxy), "nginx to answer", 15)
        plain = http.client.HTTPConnection("127.0.0.1", insecure, timeout=10)
        plain.request("GET", "/m/x?seat=abc")
        answer = plain.getresponse()
        assert answer.status == 301  # plain HTTP is sent to HTTPS
        assert answer.getheader("location", "").startswith("https://")
        plain.close()
        exercise(proxy, backends, tmp_path / "dicegames.access.log")
    finally:
        process.send_signal(signal.SIGQUIT)  # nginx's graceful stop
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


def test_caddy_in_front_of_two_processes(backends: list[Server], tmp_path: Path) -> None:
    caddy = shutil.which("caddy")
    if caddy is None:
        pytest.skip("caddy is not installed: the Caddyfile was read (tests/test_deploy.py) "
                    "but not started")
    port = free_port()
    text = (DEPLOY / "Caddyfile").read_text()
    text = text.replace(f"{SITE} {{", f"{{\n\tadmin off\n}}\n\nhttp://127.0.0.1:{port} {{")
    text = text.replace("127.0.0.1:8001", f"127.0.0.1:{port_of(backends[0])}")
    text = text.replace("127.0.0.1:8002", f"127.0.0.1:{port_of(backends[1])}")
    text = text.replace("/var/log/caddy/", f"{tmp_path}/")
    (tmp_path / "Caddyfile").write_text(text)
    env = {"HOME": str(tmp_path), "XDG_DATA_HOME": str(tmp_path),
           "XDG_CONFIG_HOME": str(tmp_path), "PATH": "/usr/bin:/bin"}
    process = subprocess.Popen([caddy, "run", "--config", str(tmp_path / "Caddyfile"),
                                "--adapter", "caddyfile"], stdout=subprocess.DEVNULL,
                               stderr=subprocess.DEVNULL, env=env)
    try:
        proxy = Through(f"http://127.0.0.1:{port}")
        until(lambda: _answers(proxy), "caddy to answer", 15)
        exercise(proxy, backends, tmp_path / "dicegames.access.log")
    finally:
        process.terminate()
        try:
            process.wait(15)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(15)


def _answers(proxy: Through) -> bool:
    try:
        return proxy.call("GET", "/healthz")[0] == 200
    except OSError:
        return False
