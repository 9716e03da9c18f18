#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright cannot download its own browsers here).
# Installs it with apt when it is missing; CHROMIUM_PATH points elsewhere if it lives elsewhere.
set -euo pipefail
chromium="${CHROMIUM_PATH:-/usr/bin/chromium}"
if [ -x "$chromium" ]; then
  exit 0
fi
if [ -n "${CHROMIUM_PATH:-}" ]; then
  echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; unset it to use (or install) /usr/bin/chromium" >&2
  exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
  echo "ensure-chromium: $chromium is missing and installing it needs root: run 'apt-get install -y chromium' as root, or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "ensure-chromium: $chromium is missing; installing Debian's chromium with apt-get"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq chromium >/dev/null
echo "ensure-chromium: installed $("$chromium" --version 2>/dev/null || echo chromium)"
