#!/usr/bin/env bash
# Installs Debian's Tesseract 5 with the languages invoices come in (German, English,
# French, Italian, Dutch data; the service reads German and English). The service reads
# scans with this binary and falls back to tesseract.js from node_modules where it is
# missing. Idempotent and quick: nothing happens when everything is installed.
set -euo pipefail

PACKAGES=(tesseract-ocr tesseract-ocr-deu tesseract-ocr-eng tesseract-ocr-fra tesseract-ocr-ita tesseract-ocr-nld)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup-ocr: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

tesseract --list-langs 2>/dev/null | grep -qx deu || { echo "setup-ocr: tesseract has no German data" >&2; exit 1; }
