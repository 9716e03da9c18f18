#!/usr/bin/env bash
# Makes sure a PostgreSQL server answers for the PostgreSQL test suite and prints its admin URL as
# the last line. Order: $PAYFRAME_TEST_POSTGRES_URL; the machine's server on 127.0.0.1:5432 (started
# if installed but down); as root, a throwaway cluster installed with apt. Never skips silently.
set -euo pipefail

say() { echo "ensure-postgres: $*" >&2; }
answers() { psql "$1" -tAc 'select 1' >/dev/null 2>&1; }

if [[ -n "${PAYFRAME_TEST_POSTGRES_URL:-}" ]]; then
  answers "$PAYFRAME_TEST_POSTGRES_URL" || { say "PAYFRAME_TEST_POSTGRES_URL does not answer"; exit 1; }
  echo "$PAYFRAME_TEST_POSTGRES_URL"; exit 0
fi

default_url="postgres://postgres@127.0.0.1:5432/postgres"
if command -v psql >/dev/null && answers "$default_url"; then echo "$default_url"; exit 0; fi

if command -v pg_ctlcluster >/dev/null && [[ -d /etc/postgresql ]] && [[ -n "$(ls /etc/postgresql)" ]]; then
  say "PostgreSQL is installed but not answering on 127.0.0.1:5432: starting it"
  pg_ctlcluster --skip-systemctl-redirect "$(ls /etc/postgresql | head -n 1)" main start >&2 || true
  if answers "$default_url"; then echo "$default_url"; exit 0; fi
fi

if [[ "$(id -u)" != 0 ]] || ! command -v apt-get >/dev/null; then
  say "no PostgreSQL answers on 127.0.0.1:5432 (user postgres, trust auth)."
  say "Install and start one (Debian: apt-get install -y postgresql), or set PAYFRAME_TEST_POSTGRES_URL."
  exit 1
fi

say "installing PostgreSQL with apt (needs root) for a throwaway test cluster"
command -v initdb >/dev/null || ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || {
  apt-get update >&2 && DEBIAN_FRONTEND=noninteractive apt-get install -y postgresql >&2
}
bin="$(dirname "$(ls /usr/lib/postgresql/*/bin/initdb | tail -n 1)")"
dir="${TMPDIR:-/tmp}/payframe-test-postgres"
port=55432
if [[ ! -f "$dir/PG_VERSION" ]]; then
  rm -rf "$dir" && mkdir -p "$dir" && chown postgres: "$dir"
  runuser -u postgres -- "$bin/initdb" -D "$dir" -A trust -U postgres >&2
fi
runuser -u postgres -- "$bin/pg_ctl" -D "$dir" -l "$dir/server.log" -o "-p $port -k $dir -c listen_addresses=127.0.0.1" -w start >&2 || true
url="postgres://postgres@127.0.0.1:$port/postgres"
answers "$url" || { say "the throwaway cluster did not start: see $dir/server.log"; exit 1; }
echo "$url"
