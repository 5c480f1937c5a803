#!/usr/bin/env bash
# bench/retrieval/cold-cache.sh: makes the next scale.ts run a cold one without restarting
# PostgreSQL (which would break other benches on the same server): the pages of the named
# databases leave the OS page cache (posix_fadvise DONTNEED on their files, so other databases keep
# theirs) and PostgreSQL's shared buffers (a filler table larger than them is read into them until
# none of those databases' pages is left). Run as root on the database's machine:
#
#   bash bench/retrieval/cold-cache.sh fa_scale_small fa_scale_large
set -euo pipefail
PSQL=(psql -h 127.0.0.1 -U postgres -Atq -v ON_ERROR_STOP=1)
FILLER_DB=fa_cold_cache_filler
names=$(printf "'%s'," "$@")
oids=$("${PSQL[@]}" -c "SELECT string_agg(oid::text, ',') FROM pg_database WHERE datname IN (${names%,})")
[ -n "$oids" ] || { echo "no such database: $*" >&2; exit 1; }

# Dirty pages are not dropped from the OS cache: written first.
"${PSQL[@]}" -c 'CHECKPOINT'
if [ -z "$("${PSQL[@]}" -c "SELECT 1 FROM pg_database WHERE datname = '$FILLER_DB'")" ]; then
  "${PSQL[@]}" -c "CREATE DATABASE $FILLER_DB"
  "${PSQL[@]}" -d "$FILLER_DB" -c "CREATE EXTENSION pg_prewarm; CREATE EXTENSION pg_buffercache;
    CREATE TABLE filler AS SELECT g, repeat('x', 900) AS pad FROM generate_series(1, 1) g WITH NO DATA;
    ALTER TABLE filler SET (autovacuum_enabled = false);"
fi
# A filler of twice shared_buffers (eight ~930-byte rows a page), topped up if they grew; read again
# until the clock sweep has evicted every page of theirs.
"${PSQL[@]}" -d "$FILLER_DB" -c "INSERT INTO filler SELECT g, repeat('x', 900) FROM generate_series(
    (SELECT count(*) FROM filler) + 1, 16 * (SELECT setting::bigint FROM pg_settings WHERE name = 'shared_buffers')) g"
for round in 1 2 3 4 5 6 7 8; do
  left=$("${PSQL[@]}" -d "$FILLER_DB" -c "SELECT pg_prewarm('filler', 'buffer') * 0 + (SELECT count(*) FROM pg_buffercache WHERE reldatabase IN ($oids))")
  [ "$left" = 0 ] && break
done
echo "shared buffers of $*: $left pages left after $round rounds"

data=$("${PSQL[@]}" -c 'SHOW data_directory')
python3 - "$data" ${oids//,/ } <<'EOF'
import os, sys
data, oids = sys.argv[1], sys.argv[2:]
pages = 0
for oid in oids:
    base = os.path.join(data, 'base', oid)
    for name in os.listdir(base):
        fd = os.open(os.path.join(base, name), os.O_RDONLY)
        try:
            pages += os.fstat(fd).st_size // 8192
            os.posix_fadvise(fd, 0, 0, os.POSIX_FADV_DONTNEED)
        finally:
            os.close(fd)
print(f'OS cache: {pages} pages of {len(oids)} databases dropped')
EOF
