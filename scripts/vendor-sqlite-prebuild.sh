#!/usr/bin/env bash
# Rebuilds vendor/prebuilds/ (see its README): better-sqlite3's addon compiled from the source npm
# installed, packed under the name its install script (prebuild-install) looks for first. Run it
# after better-sqlite3's version changes in the lockfile, and commit the result.
set -euo pipefail
cd "$(dirname "$0")/.."
version="$(node -p "require('better-sqlite3/package.json').version")"
name="better-sqlite3-v${version}-node-v$(node -p process.versions.modules)-$(node -p 'process.platform + "-" + process.arch').tar.gz"
# The install script with build-from-source set skips every prebuild and compiles (node-gyp).
npm rebuild better-sqlite3 --build-from-source --foreground-scripts
staging="$(mktemp -d)"
trap 'rm -rf "$staging"' EXIT
mkdir -p "$staging/build/Release"
cp node_modules/better-sqlite3/build/Release/better_sqlite3.node "$staging/build/Release/"
rm -f vendor/prebuilds/better-sqlite3-v*.tar.gz
mkdir -p vendor/prebuilds
# Fixed owners, times and order, so that the same addon packs to the same bytes.
tar --sort=name --owner=0 --group=0 --numeric-owner --mtime=@0 -cf - -C "$staging" build | gzip -n -9 >"vendor/prebuilds/$name"
sha256sum "vendor/prebuilds/$name"
