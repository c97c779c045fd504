#!/usr/bin/env bash
# Makes sure PostgreSQL (127.0.0.1:5432, user `postgres` without a password over TCP) and
# Redis (127.0.0.1:6379) answer. Starts them if they are installed but down; installs them from
# Debian's packages first if they are missing (needs root). Idempotent: on a machine where both
# already answer it changes nothing. Used by scripts/test.sh, scripts/run.sh and .ci/run.
# With the argument `redis`, Redis alone.
set -euo pipefail

PG_HOST=127.0.0.1
PG_PORT=5432
REDIS_PORT=6379
WAIT_SECONDS=${ENSURE_SERVICES_WAIT_SECONDS:-30}

log() { printf 'ensure-services: %s\n' "$*" >&2; }
die() { log "$*"; exit 1; }

have() { command -v "$1" >/dev/null 2>&1; }

# --- probes ----------------------------------------------------------------------------------

pg_answers() {
  have psql || return 1
  PGCONNECT_TIMEOUT=3 psql -w -h "$PG_HOST" -p "$PG_PORT" -U postgres -d postgres -tAc 'SELECT 1' >/dev/null 2>&1
}

pg_listening() {
  if have pg_isready; then pg_isready -q -h "$PG_HOST" -p "$PG_PORT"; else (exec 3<>"/dev/tcp/$PG_HOST/$PG_PORT") 2>/dev/null; fi
}

redis_answers() {
  if have redis-cli; then
    [[ "$(redis-cli -h 127.0.0.1 -p "$REDIS_PORT" ping 2>/dev/null)" == PONG ]]
  else
    # RESP by hand: PING answers +PONG. A subshell, so its descriptors die with it.
    local reply
    reply=$( { exec 3<>"/dev/tcp/127.0.0.1/$REDIS_PORT" || exit 1; printf 'PING\r\n' >&3; IFS= read -r -t 3 line <&3; printf '%s' "$line"; } 2>/dev/null ) || return 1
    [[ "$reply" == +PONG* ]]
  fi
}

wait_for() {
  local what=$1 probe=$2 i
  for ((i = 0; i < WAIT_SECONDS * 2; i++)); do
    "$probe" && return 0
    sleep 0.5
  done
  die "$what did not answer within ${WAIT_SECONDS}s"
}

# --- installing ------------------------------------------------------------------------------

APT_UPDATED=0
apt_install() {
  [[ $(id -u) -eq 0 ]] || die "installing $* needs root (or install it yourself: apt-get install -y $*)"
  have apt-get || die "no apt-get here: install $* yourself"
  if [[ $APT_UPDATED -eq 0 ]]; then
    log "apt-get update"
    DEBIAN_FRONTEND=noninteractive apt-get update -qq
    APT_UPDATED=1
  fi
  log "apt-get install -y $*"
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "$@" >/dev/null
}

pg_version() {
  # The newest cluster directory under /etc/postgresql (Debian 12: 15).
  find /etc/postgresql -mindepth 1 -maxdepth 1 -type d -printf "%f\n" 2>/dev/null | sort -V | tail -n 1
}

# A fresh install: let `postgres` in without a password from this machine only, over the socket
# and loopback TCP. The tests and the dev run script log in as that user.
trust_local_connections() {
  local version=$1 hba
  hba=/etc/postgresql/$version/main/pg_hba.conf
  [[ -f $hba ]] || die "no $hba"
  cp "$hba" "$hba.orig"
  cat >"$hba" <<HBA
# Written by scripts/ensure-services.sh on a fresh install: local development only.
local   all   all                  trust
host    all   all   127.0.0.1/32   trust
host    all   all   ::1/128        trust
HBA
  log "pg_hba.conf: trust for local connections (original kept as $hba.orig)"
}

pg_start() {
  local version
  version=$(pg_version)
  [[ -n $version ]] || die "PostgreSQL is installed but has no cluster under /etc/postgresql"
  log "starting PostgreSQL $version"
  # --skip-systemctl-redirect: start it directly, whether or not systemd runs this machine.
  pg_ctlcluster --skip-systemctl-redirect "$version" main start || pg_ctlcluster "$version" main start
}

ensure_postgres() {
  if pg_answers; then
    log "PostgreSQL answers on $PG_HOST:$PG_PORT"
    return
  fi
  local fresh=0
  if ! have pg_ctlcluster || [[ -z $(pg_version) ]]; then
    apt_install postgresql
    fresh=1
  fi
  if [[ $fresh -eq 1 ]]; then
    trust_local_connections "$(pg_version)"
    # The package may have started the cluster with its own pg_hba.conf: reload it.
    if pg_listening; then pg_ctlcluster --skip-systemctl-redirect "$(pg_version)" main reload || true; fi
  fi
  pg_listening || pg_start
  wait_for "PostgreSQL" pg_listening
  pg_answers || die "PostgreSQL runs on $PG_HOST:$PG_PORT but refuses user postgres without a password:
  add 'host all all 127.0.0.1/32 trust' to pg_hba.conf (local development only) or set LEDGER_TEST_PG_URL"
  log "PostgreSQL answers on $PG_HOST:$PG_PORT"
}

ensure_redis() {
  if redis_answers; then
    log "Redis answers on 127.0.0.1:$REDIS_PORT"
    return
  fi
  have redis-server || apt_install redis-server
  # The package's own start (where the machine runs services) may already have brought it up.
  if ! redis_answers; then
    log "starting Redis"
    # Nothing kept on disk: jobs are re-enqueued from the ledger's state, and tests start empty.
    redis-server --daemonize yes --bind 127.0.0.1 --port "$REDIS_PORT" --save "" --appendonly no >/dev/null
  fi
  wait_for "Redis" redis_answers
  log "Redis answers on 127.0.0.1:$REDIS_PORT"
}

# `ensure-services.sh redis`: Redis alone (the quickstart's Postgres is embedded).
if [[ ${1:-} == redis ]]; then
  ensure_redis
  exit 0
fi
# Both may need installing: one apt-get update, one install.
if ! pg_answers && ! redis_answers && ! have redis-server && { ! have pg_ctlcluster || [[ -z $(pg_version) ]]; }; then
  apt_install postgresql redis-server
  trust_local_connections "$(pg_version)"
  if pg_listening; then pg_ctlcluster --skip-systemctl-redirect "$(pg_version)" main reload || true; fi
fi
ensure_postgres
ensure_redis

# hledger checks the journal export (apps/api/test/journal-export.test.ts). Best effort: where it
# cannot be installed (no root, no apt-get, no network) that one test is pending, never failing.
ensure_hledger() {
  if have hledger; then return; fi
  if [[ $(id -u) -ne 0 ]] || ! have apt-get; then
    log "hledger is not installed and cannot be here (needs root and apt-get): the hledger check of the journal export will be pending"
    return
  fi
  (apt_install hledger) || log "hledger could not be installed: the hledger check of the journal export will be pending"
}
ensure_hledger

# Debian's Chromium runs the console's browser tests (apps/console/test). Best effort, as hledger:
# where it cannot be installed those tests are pending, never failing.
ensure_chromium() {
  if have chromium; then return; fi
  if [[ $(id -u) -ne 0 ]] || ! have apt-get; then
    log "chromium is not installed and cannot be here (needs root and apt-get): the console's browser tests will be pending"
    return
  fi
  (apt_install chromium) || log "chromium could not be installed: the console's browser tests will be pending"
}
ensure_chromium
