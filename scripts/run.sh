#!/usr/bin/env bash
# Installs and starts the service for one book on this machine: bash scripts/run.sh ENTITY_UAE
#   (or ENTITY_IND_IFSC). Installs pnpm and the locked dependencies, makes sure PostgreSQL and
#   Redis answer, creates the book's database if it is missing, builds, and runs the book's three
#   processes (api, worker, recon) in the foreground. Ctrl-C or SIGTERM stops all three.
#
# Development settings, each overridable from the environment:
#   LEDGER_MIGRATION_DB_URL
#                   postgres://postgres@127.0.0.1:5432/ledger_<book, lower case> (the schema owner)
#   LEDGER_DB_URL   postgres://ledger_<book, lower case>_runtime@127.0.0.1:5432/ledger_<book, …>
#                   (a login role created here, owning nothing: the processes run as production's do)
#   REDIS_URL       redis://127.0.0.1:6379
#   PORT            8080 for ENTITY_UAE, 8081 for ENTITY_IND_IFSC (both books can run at once)
#   LEDGER_TOKEN, LEDGER_ADMIN_TOKEN
#                   random, generated once per book into ~/.config/ledger-service/<book>.env
#                   (mode 600, outside the repository); the path is printed, the tokens are not.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

book=${1:-${ENTITY_ID:-}}
case "$book" in
  ENTITY_UAE) default_port=8080 ;;
  ENTITY_IND_IFSC) default_port=8081 ;;
  *)
    echo "usage: bash scripts/run.sh ENTITY_UAE|ENTITY_IND_IFSC" >&2
    exit 2
    ;;
esac

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
bash scripts/install.sh
bash scripts/ensure-services.sh

# --- the book's database ---------------------------------------------------------------------
db_name="ledger_$(tr '[:upper:]' '[:lower:]' <<<"$book")"
if [[ -z ${LEDGER_DB_URL:-} ]]; then
  runtime_role="${db_name}_runtime"
  export LEDGER_MIGRATION_DB_URL="postgres://postgres@127.0.0.1:5432/${db_name}"
  export LEDGER_DB_URL="postgres://${runtime_role}@127.0.0.1:5432/${db_name}"
  exists=$(psql -w -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '${db_name}'")
  if [[ $exists != 1 ]]; then
    echo "run: creating database ${db_name}" >&2
    psql -w -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE ${db_name}"
  fi
  role_exists=$(psql -w -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname = '${runtime_role}'")
  if [[ $role_exists != 1 ]]; then
    echo "run: creating login role ${runtime_role} (the processes' runtime role; the owner only migrates)" >&2
    psql -w -h 127.0.0.1 -U postgres -d postgres -qc "CREATE ROLE ${runtime_role} LOGIN"
  fi
fi

# --- development secrets, outside the repository ---------------------------------------------
secrets_dir="${XDG_CONFIG_HOME:-$HOME/.config}/ledger-service"
secrets_file="${secrets_dir}/${book}.env"
if [[ ! -f $secrets_file ]]; then
  mkdir -p "$secrets_dir"
  chmod 700 "$secrets_dir"
  (
    umask 077
    printf 'LEDGER_TOKEN=%s\nLEDGER_ADMIN_TOKEN=%s\n' \
      "$(node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("hex"))')" \
      "$(node -e 'process.stdout.write(require("node:crypto").randomBytes(32).toString("hex"))')" >"$secrets_file"
  )
  echo "run: generated development tokens for ${book} in ${secrets_file}" >&2
fi
# A token already in the environment wins over the file.
while IFS='=' read -r name value; do
  [[ $name =~ ^[A-Z_][A-Z0-9_]*$ ]] || continue
  if [[ -z ${!name:-} ]]; then export "$name=$value"; fi
done <"$secrets_file"
echo "run: tokens for ${book} are in ${secrets_file} (X-Ledger-Token: LEDGER_TOKEN, X-Ledger-Admin-Token: LEDGER_ADMIN_TOKEN)" >&2

export ENTITY_ID="$book"
export PORT="${PORT:-$default_port}"
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export LOG_LEVEL="${LOG_LEVEL:-info}"

pnpm build

echo "run: starting ${book}: api on http://127.0.0.1:${PORT} (docs at /docs), worker, recon" >&2
exec node scripts/start-book.mjs
