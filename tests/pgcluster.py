"""A throwaway PostgreSQL server for the tests, and fresh databases on it.

:func:`pg_server` gives the session's server (one per test process, so one per pytest-xdist
worker): either a cluster of our own, made by ``initdb`` in a temporary folder and started by
``pg_ctl`` on a free loopback port (its unix socket in that folder too, trust authentication,
no fsync: nothing in it outlives the session), or, when ``DICEGAMES_TEST_PG`` holds a
``postgresql://`` address, that existing server (its user needs CREATEDB; the tests make
and drop their own databases on it and touch nothing else).

``initdb`` refuses to run as root, so as root the cluster runs as the ``postgres`` user
(``runuser -u postgres --``, the folder given to it); otherwise as ourselves. The programs
come from PATH or from Debian's ``/usr/lib/postgresql/<version>/bin`` (the newest).

Where PostgreSQL can't be had (no programs, no ``postgres`` user as root, ``initdb`` or the
server failing, psycopg not installed) the tests that need it skip with a message saying
why; under ``CI=true`` they fail instead (:func:`unavailable`).

Each test (``pg_dsn``) or module (``pg_module_dsn``) gets its own database: ``CREATE
DATABASE ... TEMPLATE`` copies a template in a few milliseconds, so a template with the
store's schema already migrated (:meth:`PgServer.template`) makes a fresh, ready database
cheap. The fixtures themselves are in ``tests/conftest.py``.

Used by: the store tests on both backends, ``tests/web/conftest.py`` (the ``backend``
parametrisation), the cluster tests (several server processes on one database: they take
``pg_dsn`` or ``pg_module_dsn`` and start their processes on it).
"""

from __future__ import annotations

import contextlib
import itertools
import os
import pwd
import re
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn
from urllib.parse import urlsplit, urlunsplit

import pytest

if TYPE_CHECKING:
    import psycopg

ENV = "DICEGAMES_TEST_PG"
"""The environment variable naming an existing server to use instead of a throwaway one."""

USER = "postgres"
"""The superuser of a throwaway cluster (and, as root, the system user that runs it)."""

START_TIMEOUT = 60
"""Seconds ``pg_ctl`` waits for the server to accept connections."""

SETTINGS = {
    # Loopback TCP only; the unix socket lives in the cluster's own folder.
    "listen_addresses": "'127.0.0.1'",
    # Nothing in a test cluster outlives the session: skip the disk flushes.
    "fsync": "off",
    "synchronous_commit": "off",
    "full_page_writes": "off",
    # Several server processes, each with its pool and a listening connection.
    "max_connections": "300",
    "shared_buffers": "32MB",
    "max_wal_size": "256MB",
    "log_min_messages": "warning",
    "log_min_error_statement": "panic",
    "lc_messages": "'C'",
}
"""``postgresql.conf`` lines of a throwaway cluster."""


class Unavailable(Exception):
    """PostgreSQL can't be had here; the message says why."""


def in_ci(environ: dict[str, str] | None = None) -> bool:
    """True in continuous integration (``CI`` set to anything but empty, 0, false or no),
    where the PostgreSQL tests must run."""
    value = (os.environ if environ is None else environ).get("CI", "")
    return value.strip().lower() not in ("", "0", "false", "no")


def unavailable(reason: str) -> NoReturn:
    """Skip the test with ``reason``, or fail it under ``CI=true``."""
    if in_ci():
        pytest.fail(f"PostgreSQL tests cannot run in CI: {reason}", pytrace=False)
    pytest.skip(f"PostgreSQL tests skipped: {reason} (with CI=true this fails instead)")


def find_programs(path: str | None = None,
                  debian: Path = Path("/usr/lib/postgresql")) -> Path | None:
    """The folder holding ``initdb`` and ``pg_ctl``: PATH's first, else the newest of
    Debian's ``/usr/lib/postgresql/<version>/bin``; None when neither has them."""
    found = shutil.which("pg_ctl", path=path)
    if found is not None:
        folder = Path(found).resolve().parent
        if (folder / "initdb").exists():
            return folder
    versions = []
    if debian.is_dir():
        for child in debian.iterdir():
            if child.name.isdigit() and (child / "bin" / "pg_ctl").exists() \
                    and (child / "bin" / "initdb").exists():
                versions.append((int(child.name), child / "bin"))
    return max(versions)[1] if versions else None


def free_port() -> int:
    """A TCP port on 127.0.0.1 that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
        return port


def _connect(dsn: str) -> psycopg.Connection[Any]:
    """An autocommit psycopg connection (psycopg imported here: a missing psycopg is one
    of the reasons to skip, not an import error of the test modules)."""
    import psycopg

    return psycopg.connect(dsn, autocommit=True, connect_timeout=10)


def with_database(dsn: str, name: str) -> str:
    """``dsn`` with its database replaced by ``name``."""
    parts = urlsplit(dsn)
    return urlunsplit((parts.scheme, parts.netloc, "/" + name, parts.query, parts.fragment))


class PgServer:
    """A PostgreSQL server the tests may create and drop databases on.

    ``admin_dsn`` is a ``postgresql://`` address of a database to run ``CREATE DATABASE``
    from. :meth:`create_database` answers the address of a new, empty (or templated)
    database; :meth:`drop_database` removes one, closing what is still connected to it.
    """

    def __init__(self, admin_dsn: str) -> None:
        self.admin_dsn = admin_dsn
        self.prefix = "dgt_" + uuid.uuid4().hex[:8] + "_"
        self._numbers = itertools.count(1)
        self._templates: dict[str, str] = {}
        self._made: list[str] = []

    def dsn(self, database: str) -> str:
        """The address of ``database`` on this server."""
        return with_database(self.admin_dsn, database)

    def _admin(self, sql: str) -> None:
        """Run one statement on the maintenance database (outside a transaction, as
        CREATE/DROP DATABASE need)."""
        connection = _connect(self.admin_dsn)
        try:
            connection.execute(sql)
        finally:
            connection.close()

    def create_database(self, template: str | None = None) -> str:
        """A new database (a copy of ``template``, a name from :meth:`template`, or empty);
        its address."""
        name = f"{self.prefix}{next(self._numbers)}"
        source = template if template is not None else "template0"
        self._admin(f'CREATE DATABASE "{name}" TEMPLATE "{source}" ENCODING \'UTF8\'')
        self._made.append(name)
        return self.dsn(name)

    def drop_database(self, dsn: str) -> None:
        """Drop the database ``dsn`` names (it must be one of ours), forcing off whatever
        is still connected (a server process a test left behind)."""
        name = urlsplit(dsn).path.lstrip("/")
        if name not in self._made:
            raise ValueError(f"not a database of this session: {name!r}")
        self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._made.remove(name)

    def template(self, key: str, prepare: Callable[[str], None]) -> str:
        """The name of a template database made once per session for ``key``: created
        empty, then ``prepare(dsn)`` runs on it (e.g. the store's migrations), then it is
        marked as a template. Pass the name to :meth:`create_database`."""
        if key not in self._templates:
            dsn = self.create_database()
            name = urlsplit(dsn).path.lstrip("/")
            prepare(dsn)
            # No connection may stay open on a template being copied.
            self._admin(
                f"SELECT pg_terminate_backend(pid) FROM pg_stat_activity "
                f"WHERE datname = '{name}' AND pid <> pg_backend_pid()")
            self._admin(f'ALTER DATABASE "{name}" WITH IS_TEMPLATE true')
            self._templates[key] = name
        return self._templates[key]

    def close(self) -> None:
        """Drop every database this session made (templates too)."""
        for name in reversed(self._made):
            if name in self._templates.values():
                self._admin(f'ALTER DATABASE "{name}" WITH IS_TEMPLATE false')
            self._admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        self._made.clear()
        self._templates.clear()


class Cluster(PgServer):
    """A throwaway cluster in a temporary folder (see the module's docstring)."""

    def __init__(self, programs: Path, root: Path, port: int, run_as: str | None) -> None:
        self.programs = programs
        self.root = root
        self.data = root / "data"
        self.port = port
        self.run_as = run_as
        super().__init__(f"postgresql://{USER}@127.0.0.1:{port}/postgres")

    def _run(self, *command: str, timeout: float = START_TIMEOUT) -> None:
        """Run a PostgreSQL program (as ``run_as`` when set); its output in the error."""
        argv = [str(self.programs / command[0]), *command[1:]]
        if self.run_as is not None:
            argv = ["runuser", "-u", self.run_as, "--", *argv]
        done = subprocess.run(argv, capture_output=True, text=True, timeout=timeout,
                              cwd=self.root, check=False)
        if done.returncode != 0:
            output = (done.stderr or done.stdout).strip()
            log = self.root / "server.log"
            if log.exists():
                output += "\n" + log.read_text(errors="replace")[-2000:]
            raise Unavailable(f"{command[0]} failed (exit {done.returncode}): {output}")

    def start(self) -> Cluster:
        """initdb, write the settings, pg_ctl start (waiting until it accepts)."""
        self._run("initdb", "--pgdata", str(self.data), "--username", USER, "--auth", "trust",
                  "--encoding", "UTF8", "--locale", "C", "--no-sync")
        lines = [f"{key} = {value}" for key, value in SETTINGS.items()]
        lines += [f"port = {self.port}", f"unix_socket_directories = '{self.root}'"]
        with (self.data / "postgresql.conf").open("a") as conf:
            conf.write("\n# dicegames test cluster\n" + "\n".join(lines) + "\n")
        self._run("pg_ctl", "--pgdata", str(self.data), "--log", str(self.root / "server.log"),
                  "--wait", "--timeout", str(START_TIMEOUT), "start")
        return self

    def stop(self) -> None:
        """Stop the server at once (nothing in it is kept) and remove the folder."""
        with contextlib.suppress(Unavailable, subprocess.TimeoutExpired):
            self._run("pg_ctl", "--pgdata", str(self.data), "--mode", "immediate",
                      "--wait", "stop", timeout=30)
        shutil.rmtree(self.root, ignore_errors=True)

    def close(self) -> None:
        """Stop and remove everything (the databases go with the folder)."""
        self.stop()


def _run_as() -> str | None:
    """The user to run the cluster as: ``postgres`` when we are root, else ourselves."""
    if os.geteuid() != 0:
        return None
    try:
        pwd.getpwnam(USER)
    except KeyError:
        raise Unavailable(f"running as root and there is no {USER!r} user to run initdb as "
                          "(initdb refuses root)") from None
    if shutil.which("runuser") is None:
        raise Unavailable("running as root and runuser is missing (initdb refuses root)")
    return USER


def start_cluster(programs: Path) -> Cluster:
    """A started throwaway cluster (a second try on another port if the first port was
    taken in between)."""
    run_as = _run_as()
    last: Unavailable | None = None
    for _ in range(3):
        root = Path(tempfile.mkdtemp(prefix="dicegames-pg-"))
        if run_as is not None:
            entry = pwd.getpwnam(run_as)
            os.chown(root, entry.pw_uid, entry.pw_gid)
        cluster = Cluster(programs, root, free_port(), run_as)
        try:
            return cluster.start()
        except Unavailable as error:
            cluster.stop()
            last = error
            if "could not bind" not in str(error) and "in use" not in str(error):
                break
    assert last is not None
    raise last


def open_server(environ: Mapping[str, str] | None = None) -> PgServer:
    """The session's server: ``DICEGAMES_TEST_PG``'s, or a started throwaway cluster.

    Raises :class:`Unavailable` with the reason when there is none.
    """
    given = (os.environ if environ is None else environ).get(ENV, "").strip()
    try:
        import psycopg  # noqa: F401
    except ImportError:
        raise Unavailable("psycopg is not installed (pip install -e '.[postgres]')") from None
    if given:
        if not re.match(r"postgres(ql)?://", given):
            raise Unavailable(f"{ENV} must be a postgresql:// address, not {given!r}")
        server = PgServer(given)
        try:
            _connect(given).close()
        except Exception as error:
            raise Unavailable(f"{ENV}={given} is unreachable: {error}") from error
        return server
    programs = find_programs()
    if programs is None:
        raise Unavailable("initdb and pg_ctl were not found on PATH nor in "
                          "/usr/lib/postgresql/*/bin (apt-get install postgresql)")
    return start_cluster(programs)


@contextlib.contextmanager
def session_server() -> Iterator[PgServer | Unavailable]:
    """The session's server, or the reason there is none; closed (and a throwaway cluster
    removed) at the end."""
    try:
        server = open_server()
    except Unavailable as error:
        yield error
        return
    try:
        yield server
    finally:
        server.close()
