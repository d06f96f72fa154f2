#!/usr/bin/env bash
# Installs what the PDF side (src/pdf) needs from Debian: Ghostscript, which
# converts input PDFs that are not PDF/A into PDF/A-3b, with the URW base-35
# fonts it embeds in place of unembedded standard fonts and the sRGB ICC profile
# it ships (/usr/share/color/icc/ghostscript/srgb.icc), used as OutputIntent.
# Idempotent and quick: nothing happens when everything is installed.
set -euo pipefail

PACKAGES=(ghostscript fonts-urw-base35)

source "$(dirname "$0")/lib/debian-packages.sh"
install_debian_packages setup-pdf "${PACKAGES[@]}"

gs --version >/dev/null || { echo "setup-pdf: Ghostscript does not run" >&2; exit 1; }
[ -f /usr/share/color/icc/ghostscript/srgb.icc ] || { echo "setup-pdf: sRGB ICC profile missing" >&2; exit 1; }
