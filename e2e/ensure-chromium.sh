#!/usr/bin/env bash
# The browser tests drive Debian's Chromium (Playwright cannot download its own browsers here): the
# e2e suite its headless shell (`chromium-headless-shell`, the same build without the browser's
# windowing layer, which costs the suite's two cores far less: docs/testing.md), and the packed
# test, like a merchant's QA project, `/usr/bin/chromium`. Installs what is missing with apt when
# running as root; CHROMIUM_PATH points every test at one browser elsewhere instead.
set -euo pipefail
if [ -n "${CHROMIUM_PATH:-}" ]; then
  if [ -x "$CHROMIUM_PATH" ]; then
    exit 0
  fi
  echo "ensure-chromium: CHROMIUM_PATH=$CHROMIUM_PATH is not an executable; unset it to use (or install) Debian's chromium" >&2
  exit 1
fi
missing=()
[ -x /usr/bin/chromium ] || missing+=(chromium)
[ -x /usr/bin/chromium-headless-shell ] || missing+=(chromium-headless-shell)
if [ "${#missing[@]}" -eq 0 ]; then
  exit 0
fi
if [ "$(id -u)" -ne 0 ]; then
  if [ -x /usr/bin/chromium ]; then
    # The e2e suite falls back to the full browser (e2e/playwright.config.ts): slower, not wrong.
    echo "ensure-chromium: /usr/bin/chromium-headless-shell is missing (installing it needs root: apt-get install -y chromium-headless-shell); the e2e suite uses /usr/bin/chromium" >&2
    exit 0
  fi
  echo "ensure-chromium: /usr/bin/chromium is missing and installing it needs root: run 'apt-get install -y ${missing[*]}' as root, or set CHROMIUM_PATH" >&2
  exit 1
fi
echo "ensure-chromium: installing Debian's ${missing[*]} with apt-get (missing)"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq "${missing[@]}" >/dev/null
echo "ensure-chromium: installed $(/usr/bin/chromium --version 2>/dev/null || echo chromium)"
