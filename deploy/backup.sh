#!/bin/sh
# One backup of the dicegames database, consistent while the servers run.
#
#   backup.sh [DB [FOLDER]]
#
# DB: postgresql://... (pg_dump, custom format: restore.sh or pg_restore) or a SQLite file
# (a path or sqlite:///path, as dicegames serve --db takes them; SQLite's online backup,
# checked with PRAGMA integrity_check).
# Defaults: $DICEGAMES_DB, and $DICEGAMES_BACKUPS (else /var/lib/dicegames/backups).
# Writes FOLDER/dicegames-<UTC time>.dump or .sqlite3 (never a half-written one: it is
# renamed into place once complete), deletes the backups older than $DICEGAMES_KEEP_DAYS
# days (14), and prints the new file's path. Exit 1 on any failure.
set -eu

db=${1:-${DICEGAMES_DB:-}}
folder=${2:-${DICEGAMES_BACKUPS:-/var/lib/dicegames/backups}}
keep=${DICEGAMES_KEEP_DAYS:-14}
python=${DICEGAMES_PYTHON:-python3}
if [ -z "$db" ]; then
    echo "backup.sh: no database: give one, or set DICEGAMES_DB" >&2
    exit 1
fi
stamp=$(date -u +%Y%m%dT%H%M%SZ)
mkdir -p "$folder"
umask 077

case "$db" in
    postgresql://* | postgres://*)
        out="$folder/dicegames-$stamp.dump"
        pg_dump --format=custom --no-owner --no-privileges --file="$out.part" "$db"
        ;;
    *)
        path=${db#sqlite:///}  # sqlite:///relative or sqlite:////absolute, as --db
        if [ ! -f "$path" ]; then
            echo "backup.sh: no SQLite file at $path" >&2
            exit 1
        fi
        out="$folder/dicegames-$stamp.sqlite3"
        "$python" - "$path" "$out.part" <<'PY'
import sqlite3
import sys

source = sqlite3.connect(f"file:{sys.argv[1]}?mode=ro", uri=True, timeout=30)
target = sqlite3.connect(sys.argv[2])
source.backup(target)  # online: a consistent copy while the servers write
problems = [row[0] for row in target.execute("PRAGMA integrity_check")]
target.close()
source.close()
if problems != ["ok"]:
    sys.exit(f"backup.sh: the copy is damaged: {problems}")
PY
        ;;
esac

mv "$out.part" "$out"
find "$folder" -maxdepth 1 -name 'dicegames-*' -type f -mtime +"$keep" -delete
echo "$out"
