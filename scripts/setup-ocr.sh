#!/usr/bin/env bash
# Installs Debian's Tesseract 5 with the languages the service reads (German and
# English; French, with which a French page is read again: src/reading/native-tesseract.ts). The service reads
# scans with this binary and falls back to tesseract.js from node_modules where it is
# missing. Idempotent and quick: nothing happens when everything is installed.
set -euo pipefail

PACKAGES=(tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng tesseract-ocr-fra)

source "$(dirname "$0")/lib/debian-packages.sh"
install_debian_packages setup-ocr "${PACKAGES[@]}"

tesseract --list-langs 2>/dev/null | grep -qx deu || { echo "setup-ocr: tesseract has no German data" >&2; exit 1; }
