"""What several server processes share in PostgreSQL besides the store's tables.

The store (:mod:`dicegames.web.store`) holds matches, seats and moves; this module holds the
SQL that lets several processes serve the same matches (:mod:`dicegames.web.cluster`):

- **A guard on the moves.** A trigger on ``moves`` locks the match's row (``SELECT ... FOR
  UPDATE``) and checks that an inserted move is the next one (the row before it exists, no
  row at or after it does) and that a deleted move is the last one. Two processes appending
  at the same version are serialised by the lock; the second finds the first's row and is
  refused with SQLSTATE :data:`STALE_STATE` (the store answers it as 409 ``stale``). Being a
  trigger, it holds for every writer, whatever code path inserts the row.
- **A notification per move.** The same trigger sends ``pg_notify`` on :data:`CHANNEL`, a
  JSON payload ``{"m": match id, "i": index, "op": "insert"|"delete", "s": seat, "t":
  notation, "v": several, "a": application_name}``; PostgreSQL delivers it when (and only
  if) the transaction commits, so a listener never hears of a move that was not stored.
  ``a`` is the writing process's ``application_name`` (:func:`~dicegames.web.cluster.
  process_name`), so a process skips its own moves.
- **Leases** (``leases``): which process drives a match's automatic steps, until when.
- **Shared limits** (``rate_buckets``, ``open_sockets``, ``processes``): the per-client
  token buckets and open websockets of every process (:mod:`dicegames.web.shared_limits`),
  each taken in one call of a function (``dicegames_take``, ``dicegames_open_socket``)
  under a row lock or an advisory lock, so two processes never both take the last one.

:data:`SCHEMA` is the PostgreSQL side of the store's migration 2 (:mod:`.migrations`);
every statement in it is idempotent.
"""

from __future__ import annotations

CHANNEL = "dicegames_moves"
"""The LISTEN/NOTIFY channel of the moves."""

STALE_STATE = "DG409"
"""The SQLSTATE of a move refused because the match is not at the version it claims."""

SCHEMA = f"""
CREATE TABLE IF NOT EXISTS leases (
    match_id TEXT PRIMARY KEY,
    holder TEXT NOT NULL,
    expires TIMESTAMPTZ NOT NULL
);
CREATE INDEX IF NOT EXISTS leases_expires ON leases(expires);
CREATE TABLE IF NOT EXISTS processes (
    holder TEXT PRIMARY KEY,
    seen TIMESTAMPTZ NOT NULL
);
CREATE TABLE IF NOT EXISTS rate_buckets (
    kind TEXT NOT NULL,
    client TEXT NOT NULL,
    tokens DOUBLE PRECISION NOT NULL,
    at TIMESTAMPTZ NOT NULL,
    PRIMARY KEY (kind, client)
);
CREATE TABLE IF NOT EXISTS open_sockets (
    holder TEXT NOT NULL,
    client TEXT NOT NULL,
    n INTEGER NOT NULL,
    PRIMARY KEY (holder, client)
);
CREATE OR REPLACE FUNCTION dicegames_move_guard() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
    target TEXT;
    row_index INTEGER;
BEGIN
    IF TG_OP = 'DELETE' THEN
        target := OLD.match_id;
        row_index := OLD.idx;
    ELSE
        target := NEW.match_id;
        row_index := NEW.idx;
    END IF;
    PERFORM 1 FROM matches WHERE id = target FOR UPDATE;
    IF TG_OP = 'INSERT' THEN
        IF (row_index > 0 AND NOT EXISTS (SELECT 1 FROM moves
                WHERE match_id = target AND idx = row_index - 1))
           OR EXISTS (SELECT 1 FROM moves WHERE match_id = target AND idx >= row_index) THEN
            RAISE EXCEPTION 'match % is not at version %', target, row_index
                USING ERRCODE = '{STALE_STATE}';
        END IF;
        PERFORM pg_notify('{CHANNEL}', json_build_object(
            'm', target, 'i', row_index, 'op', 'insert', 's', NEW.seat, 't', NEW.text,
            'v', NEW.several::integer <> 0, 'a', current_setting('application_name'))::text);
        RETURN NEW;
    END IF;
    IF EXISTS (SELECT 1 FROM moves WHERE match_id = target AND idx > row_index) THEN
        RAISE EXCEPTION 'move % of match % is not its last', row_index, target
            USING ERRCODE = '{STALE_STATE}';
    END IF;
    PERFORM pg_notify('{CHANNEL}', json_build_object(
        'm', target, 'i', row_index, 'op', 'delete',
        'a', current_setting('application_name'))::text);
    RETURN OLD;
END
$$;
CREATE OR REPLACE FUNCTION dicegames_take(k TEXT, c TEXT, n DOUBLE PRECISION,
                                          per DOUBLE PRECISION) RETURNS DOUBLE PRECISION
LANGUAGE plpgsql AS $$
DECLARE
    level DOUBLE PRECISION;
    last TIMESTAMPTZ;
    now_ TIMESTAMPTZ;
BEGIN
    INSERT INTO rate_buckets (kind, client, tokens, at) VALUES (k, c, n, clock_timestamp())
        ON CONFLICT (kind, client) DO NOTHING;
    SELECT tokens, at INTO level, last FROM rate_buckets
        WHERE kind = k AND client = c FOR UPDATE;
    now_ := clock_timestamp();
    level := least(n, level + greatest(0, extract(epoch FROM now_ - last)) * n / per);
    IF level >= 1 THEN
        UPDATE rate_buckets SET tokens = level - 1, at = now_ WHERE kind = k AND client = c;
        RETURN 0;
    END IF;
    UPDATE rate_buckets SET tokens = level, at = now_ WHERE kind = k AND client = c;
    RETURN (1 - level) * per / n;
END
$$;
CREATE OR REPLACE FUNCTION dicegames_open_socket(h TEXT, c TEXT, most INTEGER,
                                                 alive DOUBLE PRECISION) RETURNS BOOLEAN
LANGUAGE plpgsql AS $$
DECLARE
    held BIGINT;
BEGIN
    PERFORM pg_advisory_xact_lock(hashtext('dicegames socket ' || c));
    SELECT coalesce(sum(s.n), 0) INTO held FROM open_sockets AS s
        LEFT JOIN processes AS p ON p.holder = s.holder
        WHERE s.client = c AND (s.holder = h
                                OR p.seen > clock_timestamp() - alive * interval '1 second');
    IF most > 0 AND held >= most THEN
        RETURN FALSE;
    END IF;
    INSERT INTO open_sockets AS o (holder, client, n) VALUES (h, c, 1)
        ON CONFLICT (holder, client) DO UPDATE SET n = o.n + 1;
    RETURN TRUE;
END
$$;
CREATE OR REPLACE TRIGGER moves_guard BEFORE INSERT OR DELETE ON moves
    FOR EACH ROW EXECUTE FUNCTION dicegames_move_guard();
"""
"""The shared tables and the moves' trigger (PostgreSQL only; idempotent)."""
