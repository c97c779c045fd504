#!/usr/bin/env bash
# With no argument (or only --reset / --customers N): everything on this machine, both books with
#   the sandbox and demo data, on an embedded Postgres unless LEDGER_DB_URL is set
#   (packages/quickstart says what and how; README: quick start).
# With a book: installs and starts the service for that one book: bash scripts/run.sh ENTITY_UAE
#   (or ENTITY_IND_IFSC). Installs pnpm and the locked dependencies, makes sure PostgreSQL and
#   Redis answer, creates the book's database if it is missing, builds, and runs the book's three
#   processes (api, worker, recon) in the foreground. Ctrl-C or SIGTERM stops all three.
#
# Each checkout has its own data: <id> below is the checkout id, the first 8 hex digits of the
# sha256 of the checkout's absolute path (`pwd -P`), so two checkouts on one machine never share a
# database, tokens or queue. Development settings, each overridable from the environment:
#   LEDGER_MIGRATION_DB_URL
#                   postgres://postgres@127.0.0.1:5432/ledger_<book, lower case>_<id> (the schema owner)
#   LEDGER_DB_URL   postgres://ledger_<book, lower case>_<id>_runtime@127.0.0.1:5432/ledger_<book, …>_<id>
#                   (a login role created here, owning nothing: the processes run as production's do)
#   REDIS_URL       redis://127.0.0.1:6379
#   QUEUE_PREFIX    bull-<id> (the BullMQ key prefix: checkouts may share one Redis)
#   PORT            8080 for ENTITY_UAE, 8081 for ENTITY_IND_IFSC (both books can run at once); if
#                   it is taken (say, by another checkout), this refuses to start: choose another.
#   LEDGER_TOKEN, LEDGER_ADMIN_TOKEN
#                   random, generated once per book and checkout into
#                   ~/.config/ledger-service/<book>-<id>.env (mode 600, outside the repository);
#                   the path is printed, the tokens are not.
# Earlier versions named the database ledger_<book> and the tokens file <book>.env, shared by
# every checkout; they are no longer used (see README: quick start).
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if [[ ($# -eq 0 && -z ${ENTITY_ID:-}) || ${1:-} == --* ]]; then
  # A taken port is the first line, not an error after minutes of install and build.
  node scripts/check-ports.mjs
  export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
  bash scripts/install.sh
  if [[ -n ${LEDGER_DB_URL:-} ]]; then bash scripts/ensure-services.sh; else bash scripts/ensure-services.sh redis; fi
  echo "run: building (a line per package as its build starts; minutes on a fresh checkout, seconds after)" >&2
  pnpm build --output-logs=hash-only
  # The build takes a while: a port may have been taken meanwhile.
  node scripts/check-ports.mjs
  exec node packages/quickstart/dist/cli.js "$@"
fi

book=${1:-$ENTITY_ID}
case "$book" in
  ENTITY_UAE) default_port=8080 ;;
  ENTITY_IND_IFSC) default_port=8081 ;;
  *)
    echo "usage: bash scripts/run.sh [--reset] [--customers N]   (both books, the sandbox, demo data)
       bash scripts/run.sh ENTITY_UAE|ENTITY_IND_IFSC   (one book, empty)" >&2
    exit 2
    ;;
esac

export PORT="${PORT:-$default_port}"
# The api listens on every interface, as this probe does: 0 free, 1 taken, 2 cannot tell (a bad
# PORT is left to the api's configuration check).
port_state() {
  [[ $PORT =~ ^[0-9]+$ ]] || return 2
  node -e '
    const server = require("node:net").createServer();
    server.once("error", (error) => process.exit(error.code === "EADDRINUSE" ? 1 : 2));
    try { server.listen(Number(process.argv[1]), () => server.close(() => process.exit(0))); } catch { process.exit(2); }
  ' "$PORT"
}
refuse_if_port_taken() {
  local state=0
  port_state || state=$?
  if [[ $state -eq 1 ]]; then
    echo "run: port ${PORT} is already in use (another checkout or copy running?); choose another: PORT=$((10#$PORT + 10)) bash scripts/run.sh ${book}" >&2
    exit 1
  fi
}
refuse_if_port_taken

# --- this checkout's id: its data is its own ----------------------------------------------------
checkout_dir=$(pwd -P)
checkout_id=$(printf '%s' "$checkout_dir" | sha256sum | cut -c1-8)

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1
bash scripts/install.sh
bash scripts/ensure-services.sh

# --- the book's database ---------------------------------------------------------------------
old_db_name="ledger_$(tr '[:upper:]' '[:lower:]' <<<"$book")"
db_name="${old_db_name}_${checkout_id}"
if [[ -z ${LEDGER_DB_URL:-} ]]; then
  runtime_role="${db_name}_runtime"
  export LEDGER_MIGRATION_DB_URL="postgres://postgres@127.0.0.1:5432/${db_name}"
  export LEDGER_DB_URL="postgres://${runtime_role}@127.0.0.1:5432/${db_name}"
  exists=$(psql -w -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '${db_name}'")
  if [[ $exists != 1 ]]; then
    echo "run: creating database ${db_name}" >&2
    # Collation "C", as every book's database is made (BOOK_DATABASE_OPTIONS in ledger-core's store/db.ts).
    psql -w -h 127.0.0.1 -U postgres -d postgres -qc "CREATE DATABASE ${db_name} TEMPLATE template0 LC_COLLATE 'C'"
  fi
  role_exists=$(psql -w -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_roles WHERE rolname = '${runtime_role}'")
  if [[ $role_exists != 1 ]]; then
    echo "run: creating login role ${runtime_role} (the processes' runtime role; the owner only migrates)" >&2
    psql -w -h 127.0.0.1 -U postgres -d postgres -qc "CREATE ROLE ${runtime_role} LOGIN"
  fi
  old_exists=$(psql -w -h 127.0.0.1 -U postgres -d postgres -tAc "SELECT 1 FROM pg_database WHERE datname = '${old_db_name}'")
  if [[ $old_exists == 1 ]]; then
    echo "run: note: database ${old_db_name} (named by earlier versions of this script, shared by every checkout) is no longer used; drop it when you no longer need it: dropdb -h 127.0.0.1 -U postgres ${old_db_name} && dropuser --if-exists -h 127.0.0.1 -U postgres ${old_db_name}_runtime" >&2
  fi
else
  db_name=${LEDGER_DB_URL##*/}
  db_name="${db_name%%\?*} (from LEDGER_DB_URL)"
fi
export QUEUE_PREFIX="${QUEUE_PREFIX:-bull-${checkout_id}}"
echo "run: checkout ${checkout_dir} (id ${checkout_id}): database ${db_name}, queue prefix ${QUEUE_PREFIX}" >&2

# --- development secrets, outside the repository ---------------------------------------------
secrets_dir="${XDG_CONFIG_HOME:-$HOME/.config}/ledger-service"
secrets_file="${secrets_dir}/${book}-${checkout_id}.env"
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
export REDIS_URL="${REDIS_URL:-redis://127.0.0.1:6379}"
export LOG_LEVEL="${LOG_LEVEL:-info}"

pnpm build

# The build takes a while: the port may have been taken meanwhile.
refuse_if_port_taken
echo "run: starting ${book}: api on http://127.0.0.1:${PORT} (docs at /docs, raw OpenAPI document at /docs/openapi.json), worker, recon" >&2
exec node scripts/start-book.mjs
