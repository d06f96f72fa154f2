#!/usr/bin/env bash
# Installs Debian's chromium for the browser tests of the page at /app (test/api/app-browser.test.ts,
# driven by playwright-core, which downloads no browser of its own). The service itself needs no browser.
# Idempotent and quick: nothing happens when it is installed.
set -euo pipefail

if ! dpkg-query -W -f='${Status}' chromium 2>/dev/null | grep -q 'install ok installed'; then
  echo "setup-browser: installing chromium"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq chromium >/dev/null
fi

# Debian's wrapper script prints a harmless shell warning on some machines; only the exit status matters.
chromium --version >/dev/null 2>&1 || { echo "setup-browser: chromium does not run" >&2; exit 1; }
