#!/usr/bin/env bash
# Installs what the PDF side (src/pdf) needs from Debian: Ghostscript, which
# converts input PDFs that are not PDF/A into PDF/A-3b, with the URW base-35
# fonts it embeds in place of unembedded standard fonts and the sRGB ICC profile
# it ships (/usr/share/color/icc/ghostscript/srgb.icc), used as OutputIntent; and, for
# the tests only, Poppler's pdfdetach, an independent reader of embedded files.
# Idempotent and quick: nothing happens when everything is installed.
set -euo pipefail

PACKAGES=(ghostscript fonts-urw-base35 poppler-utils)

missing=()
for pkg in "${PACKAGES[@]}"; do
  dpkg-query -W -f='${Status}' "$pkg" 2>/dev/null | grep -q 'install ok installed' || missing+=("$pkg")
done

if [ "${#missing[@]}" -gt 0 ]; then
  echo "setup-pdf: installing ${missing[*]}"
  sudo_cmd=()
  [ "$(id -u)" -eq 0 ] || sudo_cmd=(sudo)
  "${sudo_cmd[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${sudo_cmd[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi

gs --version >/dev/null || { echo "setup-pdf: Ghostscript does not run" >&2; exit 1; }
[ -f /usr/share/color/icc/ghostscript/srgb.icc ] || { echo "setup-pdf: sRGB ICC profile missing" >&2; exit 1; }
