"""The store interface the hub uses, and the choice of a store from ``--db``.

Two stores implement :class:`MatchStore`: :class:`~.store.Store` (SQLite, the default: a
file) and :class:`~.store_pg.PgStore` (PostgreSQL, through psycopg 3 and its async pool,
for several server processes on one database). Both run the same migrations
(:mod:`.migrations`), decode the same rows (:mod:`.stored`), commit every change before
their method returns, and raise :class:`~dicegames.web.domain.StoreBusy` (a 503 answer,
nothing changed) when the database can't be used in time.

:func:`open_store` takes what ``dicegames serve --db`` takes: a path or ``sqlite:///path``
(SQLite), or ``postgresql://user@host/db`` (PostgreSQL, the psycopg ``postgres`` extra
needed). A target that can't be used raises :class:`~.database.StoreOpenError` with one
sentence: a bad address, psycopg missing, a server that doesn't answer, a database whose
schema is newer than this code.
"""

from __future__ import annotations

from pathlib import Path
from typing import Protocol
from urllib.parse import urlsplit, urlunsplit

from dicegames.web.database import StoreOpenError
from dicegames.web.stored import StoredMatch, Table

POSTGRES_SCHEMES = ("postgresql", "postgres")
"""The URL schemes of a PostgreSQL store."""


class MatchStore(Protocol):
    """What the hub, the lobby and the rematches need of a store. Every coroutine that
    changes anything has committed when it returns.

    Raises (every coroutine):
        StoreBusy: the database could not be used in time; nothing was changed.
    """

    async def open(self) -> None:
        """Start using the database (the server's start-up, on its event loop)."""

    async def aclose(self) -> None:
        """Finish the calls already made, then close the connections."""

    async def ready(self) -> str | None:
        """None when the database answers and its schema is this code's, else why not."""

    @property
    def errors(self) -> int:
        """Calls that failed with StoreBusy since the store was opened (the metrics)."""

    @property
    def created(self) -> int:
        """Matches stored through this store since it was opened (the metrics count the
        stored matches from it between two counts: :class:`~.metrics.StoredCount`)."""

    async def count_matches(self) -> int:
        """How many matches are stored (the metrics, :mod:`.ops`)."""

    async def create(self, match: StoredMatch) -> None:
        """Store a new match with its seats and first moves (one transaction)."""

    async def add_move(self, match_id: str, index: int, seat: int | None, text: str,
                       several: bool, *, finished: bool = False) -> None:
        """Append move ``index``; ``finished``: the match leaves the lobby."""

    async def remove_move(self, match_id: str, index: int) -> None:
        """Delete move ``index`` (an undo of the last move)."""

    async def load(self, match_id: str) -> StoredMatch | None:
        """The stored match (None: no such match); DamagedMatch for damaged rows."""

    async def set_rematch(self, match_id: str, rematch_id: str) -> str:
        """Record the rematch unless one is recorded; the one recorded."""

    async def claim(self, match_id: str, seats: tuple[int, ...]) -> None:
        """Those seats' tokens were used: the lobby no longer offers them."""

    async def is_open(self, match_id: str) -> bool:
        """True when the match exists and is an open table."""

    async def take_seat(self, match_id: str, name: str) -> tuple[int, str] | None:
        """Hand out the first free invited seat to ``name`` (once, whoever asks)."""

    async def tables(self, limit: int, since: float) -> list[Table]:
        """The open tables with a free seat created since ``since``, newest first."""


def is_postgres(target: str | Path) -> bool:
    """True when ``target`` is a ``postgresql://`` (or ``postgres://``) address."""
    return isinstance(target, str) and urlsplit(target).scheme in POSTGRES_SCHEMES \
        and "://" in target


def sqlite_path(target: str | Path) -> Path:
    """The file of a SQLite target: a path, or ``sqlite:///path`` (``sqlite:////abs``
    too).

    Raises:
        StoreOpenError: an address of another kind (``mysql://...``), or a sqlite URL
            naming a host.
    """
    if isinstance(target, Path):
        return target
    if "://" not in target:
        return Path(target)
    parts = urlsplit(target)
    if parts.scheme != "sqlite":
        raise StoreOpenError(
            f"cannot use the database {redact(target)}: --db takes a file path, "
            "sqlite:///path or postgresql://user@host/database")
    if parts.netloc:
        raise StoreOpenError(f"cannot use the database {target}: a sqlite URL names a file "
                             "(sqlite:///relative/path or sqlite:////absolute/path), not a "
                             "host")
    path = parts.path.removeprefix("/")
    if not path:
        raise StoreOpenError(f"cannot use the database {target}: it names no file")
    return Path(path)


def redact(target: str | Path) -> str:
    """``target`` as it may be printed or logged: a URL's password replaced by ``***``."""
    text = str(target)
    if "://" not in text:
        return text
    parts = urlsplit(text)
    if parts.password is None:
        return text
    host = parts.netloc.rpartition("@")[2]
    user = parts.username or ""
    return urlunsplit((parts.scheme, f"{user}:***@{host}", parts.path, parts.query,
                       parts.fragment))


def open_store(target: str | Path) -> MatchStore:
    """The store ``target`` names, opened and migrated (its connections to PostgreSQL open
    with :meth:`MatchStore.open`, on the server's event loop).

    Raises:
        StoreOpenError: the target can't be used (the message says why, in one sentence).
    """
    if is_postgres(target):
        assert isinstance(target, str)
        try:
            from dicegames.web.store_pg import PgStore
        except ImportError as error:
            raise StoreOpenError(
                f"cannot use the database {redact(target)}: PostgreSQL needs psycopg 3 "
                f"({error}); install it with: pip install 'dicegames[postgres]'") from None
        return PgStore(target)
    from dicegames.web.store import Store
    return Store(sqlite_path(target))
