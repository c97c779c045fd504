#!/usr/bin/env bash
# Installs the project's dependencies exactly as locked: pnpm first if it is missing.
# Used by scripts/test.sh and scripts/run.sh.
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

if ! command -v pnpm >/dev/null 2>&1; then
  echo "install: pnpm is missing; npm i -g pnpm" >&2
  npm i -g pnpm
fi
# confirmModulesPurge=false: never stop to ask (CI has no stdin) when node_modules must be rebuilt.
pnpm install --frozen-lockfile --config.confirmModulesPurge=false
