#!/usr/bin/env bash
# The whole test suite, from a fresh machine: bash scripts/test.sh
#   installs pnpm and the locked dependencies, makes sure PostgreSQL and Redis answer, then runs
#   `pnpm test` (build, lint and typecheck of every package, then every package's tests, two
#   packages at a time in the two lanes of turbo.json). Ends with one line
#   `tests: N passed, N failed, N skipped` and the exit status of `pnpm test`.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

export TURBO_TELEMETRY_DISABLED=1 DO_NOT_TRACK=1

bash scripts/install.sh
bash scripts/ensure-services.sh

log=$(mktemp -t ledger-test.XXXXXX)
trap 'rm -f "$log"' EXIT

set +e
pnpm test 2>&1 | tee "$log"
status=${PIPESTATUS[0]}
set -e

# mocha's closing lines, summed over packages: "  12 passing (3s)", "  1 failing", "  2 pending"
# (after turbo's "@ledger/x:test:" prefix), each alone at the end of its line.
# Colour codes, if a runner printed any, are stripped first.
count() {
  sed 's/\x1b\[[0-9;]*m//g' "$log" |
    { grep -Eo "(^|[[:space:]])[0-9]+ $1( \\([0-9.]+(ms|s|m|h)\\))?\$" || true; } |
    awk '{ n += $1 } END { print n + 0 }'
}
passed=$(count passing)
failed=$(count failing)
skipped=$(count pending)
if [[ $((passed + failed + skipped)) -gt 0 ]]; then
  echo "tests: ${passed} passed, ${failed} failed, ${skipped} skipped"
fi
if [[ $status -ne 0 ]]; then
  echo "test.sh: pnpm test failed (exit ${status})" >&2
fi
exit "$status"
