#!/bin/sh
# Put a backup of backup.sh back, replacing the database's content.
#
#   restore.sh BACKUP [DB]
#
# Stop every server first (systemctl stop dicegames.target): a server holds matches in
# memory, and would carry on from what it held. DB defaults to $DICEGAMES_DB.
# A .dump goes into PostgreSQL with pg_restore --clean (the database must exist; its
# dicegames tables are replaced). A .sqlite3 replaces the SQLite file (the old one is kept
# beside it as <file>.before-restore). Then start the servers: they run the migrations the
# backup's version lacks (docs/deploy.md, "Upgrading").
set -eu

backup=${1:-}
db=${2:-${DICEGAMES_DB:-}}
python=${DICEGAMES_PYTHON:-python3}
if [ -z "$backup" ] || [ -z "$db" ]; then
    echo "usage: restore.sh BACKUP [DB]   (DB defaults to \$DICEGAMES_DB)" >&2
    exit 1
fi
if [ ! -f "$backup" ]; then
    echo "restore.sh: no backup at $backup" >&2
    exit 1
fi

case "$db" in
    postgresql://* | postgres://*)
        pg_restore --clean --if-exists --no-owner --no-privileges --single-transaction \
            --dbname="$db" "$backup"
        ;;
    *)
        path=${db#sqlite:///}  # sqlite:///relative or sqlite:////absolute, as --db
        if [ -f "$path" ]; then
            mv "$path" "$path.before-restore"
            rm -f "$path-wal" "$path-shm"
        fi
        "$python" - "$backup" "$path" <<'PY'
import sqlite3
import sys

source = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True)
target = sqlite3.connect(sys.argv[2])
source.backup(target)
problems = [row[0] for row in target.execute("PRAGMA integrity_check")]
target.close()
source.close()
if problems != ["ok"]:
    sys.exit(f"restore.sh: the restored file is damaged: {problems}")
PY
        ;;
esac
echo "restored $backup into the database"
