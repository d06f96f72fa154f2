#!/usr/bin/env bash
# Installs what only the tests use, on top of scripts/setup.sh (the service): Poppler's
# pdfdetach, an independent reader of the files embedded in PDFs (test/pdf); the Mustang
# CLI, a reference validator that judges what the service creates; chromium for the
# browser test of the page; the folder connectors' test servers (sshd, moto).
# Idempotent and quick when everything is there.
set -euo pipefail
cd "$(dirname "$0")/.."

source scripts/lib/debian-packages.sh
install_debian_packages setup-test poppler-utils
bash scripts/setup-validators.sh --judges
bash scripts/setup-browser.sh
bash scripts/setup-connectors.sh
