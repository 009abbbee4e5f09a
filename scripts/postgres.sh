#!/usr/bin/env bash
# PostgreSQL 15 + pgvector for GoodMemory's tests and benchmarks on this Debian machine.
#
#   bash scripts/postgres.sh start   # install if needed, start, create role/db; last line = URL
#   bash scripts/postgres.sh stop    # stop the cluster
#
# Both are idempotent. A second cluster (e.g. a tuned one for benchmarks) is chosen with
#   GOODMEMORY_PG_CLUSTER=bench GOODMEMORY_PG_PORT=5433 \
#   GOODMEMORY_PG_SETTINGS="shared_buffers=4GB effective_cache_size=12GB" bash scripts/postgres.sh start
# (settings apply when the cluster is created). Everything but the URL goes to stderr, so
#   url=$(bash scripts/postgres.sh start | tail -n 1)
# works. pgvector is not packaged for PostgreSQL 15 on this Debian release; its
# source package is fetched from the next release (same mirror as the system's
# own apt sources, through a temporary deb-src entry that is removed afterwards)
# and built here: it is built with -march=native, so the build must happen on
# the machine that runs it. Needs root (apt-get, pg_ctlcluster).
set -euo pipefail

PG_MAJOR=15
CLUSTER="${GOODMEMORY_PG_CLUSTER:-main}"
PORT="${GOODMEMORY_PG_PORT:-5432}"
DB_USER=goodmemory
DB_PASS=goodmemory
DB_NAME=goodmemory
NEWER_SUITE="${GOODMEMORY_PGVECTOR_SUITE:-trixie}"
PG_CONFIG="/usr/lib/postgresql/${PG_MAJOR}/bin/pg_config"
SRC_LIST="/etc/apt/sources.list.d/goodmemory-pgvector-src.list"

log() { echo "postgres.sh: $*" >&2; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"; else sudo "$@"; fi
}

as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else sudo -u postgres "$@"; fi
}

APT_UPDATED=0
apt_update_once() {
  if [ "$APT_UPDATED" -eq 0 ]; then
    as_root apt-get update -q >&2
    APT_UPDATED=1
  fi
}

install_packages() {
  local missing=()
  for p in postgresql "postgresql-${PG_MAJOR}" "postgresql-server-dev-${PG_MAJOR}" build-essential dpkg-dev; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  if [ "${#missing[@]}" -gt 0 ]; then
    log "installing ${missing[*]}"
    apt_update_once
    as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -q \
      postgresql "postgresql-${PG_MAJOR}" "postgresql-server-dev-${PG_MAJOR}" build-essential dpkg-dev >&2
  fi
}

# The Debian mirror the system already uses (never a host name hard-coded here).
system_mirror() {
  local m=""
  if [ -f /etc/apt/sources.list.d/debian.sources ]; then
    m=$(awk '/^URIs:/ { for (i = 2; i <= NF; i++) if ($i !~ /security/) { print $i; exit } }' \
      /etc/apt/sources.list.d/debian.sources)
  fi
  if [ -z "$m" ] && [ -f /etc/apt/sources.list ]; then
    m=$(awk '$1 == "deb" { for (i = 2; i <= NF; i++) if ($i ~ /^[a-z+]+:\/\//) { if ($i !~ /security/) { print $i; exit } else break } }' \
      /etc/apt/sources.list)
  fi
  if [ -z "$m" ]; then
    log "cannot find a Debian mirror in /etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list"
    exit 1
  fi
  echo "$m"
}

cleanup_src_list() {
  if [ -f "$SRC_LIST" ]; then
    as_root rm -f "$SRC_LIST"
    as_root apt-get update -q >&2 || log "warning: apt-get update after removing $SRC_LIST failed"
  fi
}

build_pgvector() {
  local sharedir
  sharedir=$("$PG_CONFIG" --sharedir)
  if [ -f "$sharedir/extension/vector.control" ]; then
    return 0
  fi
  local mirror work keyring=""
  mirror=$(system_mirror)
  [ -f /usr/share/keyrings/debian-archive-keyring.gpg ] && keyring="[signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] "
  work=$(mktemp -d /tmp/goodmemory-pgvector.XXXXXX)
  # let apt's sandbox user write the download (otherwise apt warns and downloads as root)
  if [ "$(id -u)" -eq 0 ] && id _apt >/dev/null 2>&1; then chown _apt "$work"; fi
  log "building pgvector from Debian ${NEWER_SUITE} sources (mirror from the system's apt sources) in $work"
  trap 'cleanup_src_list' EXIT
  echo "deb-src ${keyring}${mirror} ${NEWER_SUITE} main" | as_root tee "$SRC_LIST" >/dev/null
  as_root apt-get update -q >&2
  (cd "$work" && as_root apt-get source -q "pgvector/${NEWER_SUITE}" >&2)
  cleanup_src_list
  trap - EXIT
  local src
  src=$(find "$work" -mindepth 1 -maxdepth 1 -type d -name 'pgvector-*' | head -n 1)
  if [ -z "$src" ]; then
    log "apt-get source pgvector produced no source directory in $work"
    exit 1
  fi
  # Debian's packaging patches -march=native out (packages must run anywhere); this build only has
  # to run here, and native SIMD makes the HNSW distance loops markedly faster.
  (cd "$src" && make -s PG_CONFIG="$PG_CONFIG" OPTFLAGS="${PGVECTOR_OPTFLAGS:--march=native}" -j"$(nproc)" >&2 \
    && as_root make -s PG_CONFIG="$PG_CONFIG" OPTFLAGS="${PGVECTOR_OPTFLAGS:--march=native}" install >&2)
  rm -rf "$work"
  [ -f "$sharedir/extension/vector.control" ] || { log "pgvector install did not produce vector.control"; exit 1; }
  log "pgvector installed"
}

psql_admin() {
  as_postgres psql -X -q -v ON_ERROR_STOP=1 -p "$PORT" "$@"
}

start() {
  install_packages
  build_pgvector
  if ! pg_lsclusters -h | awk -v v="$PG_MAJOR" -v c="$CLUSTER" '$1 == v && $2 == c { found = 1 } END { exit !found }'; then
    log "creating cluster ${PG_MAJOR}/${CLUSTER}"
    local opts=()
    for kv in ${GOODMEMORY_PG_SETTINGS:-}; do opts+=(-o "$kv"); done
    as_root pg_createcluster "$PG_MAJOR" "$CLUSTER" -p "$PORT" "${opts[@]}" >&2
  fi
  if ! pg_lsclusters -h | awk -v v="$PG_MAJOR" -v c="$CLUSTER" '$1 == v && $2 == c && $4 == "online" { found = 1 } END { exit !found }'; then
    log "starting cluster ${PG_MAJOR}/${CLUSTER}"
    as_root pg_ctlcluster "$PG_MAJOR" "$CLUSTER" start >&2
  fi
  for _ in $(seq 1 30); do
    as_postgres pg_isready -q -h 127.0.0.1 -p "$PORT" && break
    sleep 1
  done
  as_postgres pg_isready -q -h 127.0.0.1 -p "$PORT" || { log "server not ready on 127.0.0.1:$PORT"; exit 1; }
  psql_admin -d postgres <<SQL >&2
DO \$\$
BEGIN
  IF NOT EXISTS (SELECT 1 FROM pg_roles WHERE rolname = '${DB_USER}') THEN
    CREATE ROLE ${DB_USER} LOGIN PASSWORD '${DB_PASS}';
  ELSE
    ALTER ROLE ${DB_USER} LOGIN PASSWORD '${DB_PASS}';
  END IF;
END
\$\$;
SQL
  if ! psql_admin -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '${DB_NAME}'" | grep -q 1; then
    psql_admin -d postgres -c "CREATE DATABASE ${DB_NAME} OWNER ${DB_USER}" >&2
  fi
  psql_admin -d "$DB_NAME" -c "SET client_min_messages = warning; CREATE EXTENSION IF NOT EXISTS vector" >&2
  # password auth over TCP on localhost (Debian's default pg_hba uses scram-sha-256 for 127.0.0.1)
  PGPASSWORD="$DB_PASS" psql -X -q -h 127.0.0.1 -p "$PORT" -U "$DB_USER" -d "$DB_NAME" -tAc "SELECT 1" >/dev/null \
    || { log "cannot log in as ${DB_USER} with a password on 127.0.0.1:$PORT: check pg_hba.conf"; exit 1; }
  log "PostgreSQL ${PG_MAJOR} with pgvector $(psql_admin -d "$DB_NAME" -tAc "SELECT extversion FROM pg_extension WHERE extname = 'vector'") is running"
  echo "postgresql+psycopg://${DB_USER}:${DB_PASS}@127.0.0.1:${PORT}/${DB_NAME}"
}

stop() {
  if pg_lsclusters -h 2>/dev/null | awk -v v="$PG_MAJOR" -v c="$CLUSTER" '$1 == v && $2 == c && $4 == "online" { found = 1 } END { exit !found }'; then
    as_root pg_ctlcluster "$PG_MAJOR" "$CLUSTER" stop >&2
    log "stopped cluster ${PG_MAJOR}/${CLUSTER}"
  else
    log "cluster ${PG_MAJOR}/${CLUSTER} is not running"
  fi
}

case "${1:-}" in
  start) start ;;
  stop) stop ;;
  *) echo "usage: $0 start|stop" >&2; exit 2 ;;
esac
