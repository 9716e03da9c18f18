#!/usr/bin/env bash
# Step 4 of `npm test` (docs/testing.md): the packed install and the type check side by side. The
# install waits on npm and the disk, and the consumer's type check and browser use one core, so
# `tsc` over the repository takes the other core's idle time instead of a stretch of its own.
set -uo pipefail
cd "$(dirname "$0")/.."
types_log="$(mktemp)"
npm run -s typecheck >"$types_log" 2>&1 &
types=$!
vitest run --project packed
packed_status=$?
wait "$types"
types_status=$?
if [ "$types_status" -ne 0 ]; then
  echo "npm run typecheck failed:" >&2
  cat "$types_log" >&2
fi
rm -f "$types_log"
[ "$packed_status" -eq 0 ] && [ "$types_status" -eq 0 ]
