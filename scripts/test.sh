#!/usr/bin/env bash
# `npm test`: the five stages of docs/testing.md in order, with every temporary file the tests make
# (stores, data directories, the packed install, browser profiles) in one scratch directory, removed
# when the command ends however it ends. The scratch directory is on /dev/shm when that is a tmpfs
# with room to spare: the tests' stores sync on every commit, and on a shared virtual disk those
# syncs sometimes stall the whole suite (docs/testing.md).
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$#" -gt 0 ]; then
  echo "npm test runs every test and takes no arguments; docs/testing.md ('Running a part') says how to run one file or suite" >&2
  exit 2
fi

base="${TMPDIR:-/tmp}"
# A whole run keeps well under 1 GiB there at its peak; 4 GiB free leaves the host's memory alone.
if [ "$(stat -f -c %T /dev/shm 2>/dev/null)" = tmpfs ] && [ "$(df -Pk /dev/shm | awk 'NR == 2 { print $4 }')" -ge 4194304 ]; then
  base=/dev/shm
fi
scratch="$(mktemp -d "$base/payframe-npm-test-XXXXXX")"
trap 'rm -rf "$scratch"' EXIT
export TMPDIR="$scratch"

npm run build
npm run lint
vitest run --project '!packed'
bash scripts/test-packed-and-types.sh
npm run e2e
