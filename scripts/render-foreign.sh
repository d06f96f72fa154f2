#!/usr/bin/env bash
# Renders the corpus's invoice XMLs with software we did not write, as folds of their own for
# `bench-analysis --set all --rendered OUT`: layouts our rules were not written on, with the XML
# each was rendered from beside it as its truth. Nothing lands in the repository.
#
#   bash scripts/render-foreign.sh [OUT] [CORPUS]
#
# OUT (default: $TMPDIR/einvoice-rendered) gets one folder per renderer:
#   mustang-de/, mustang-en/
#                 Mustang-CLI's `--action pdf` (the KoSIT XRechnung visualisation through
#                 Apache FOP) with German and with English labels: the XRechnung testsuite,
#                 one syntax per case (UN/CEFACT where both exist), and the CII samples.
#   mustang-html/ Mustang-CLI's `--action visualize` (the KoSIT XRechnung viewer's HTML, German
#                 labels) printed to PDF by headless Chromium: what a reader who opens an
#                 XRechnung in a browser and prints it gets. Skipped where no Chromium is found.
# Mustang-CLI comes from Maven Central (scripts/setup-validators.sh --judges). A PDF already
# rendered is kept, so a second run only renders what is new. Two at a time (a JVM each).
set -euo pipefail

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
OUT="${1:-${TMPDIR:-/tmp}/einvoice-rendered}"
CORPUS="${2:-$ROOT/../shared/corpus}"
JAR="$ROOT/.tools/java/Mustang-CLI.jar"

[ -d "$CORPUS" ] || { echo "No corpus at $CORPUS: nothing to render." >&2; exit 0; }
[ -f "$JAR" ] || bash "$ROOT/scripts/setup-validators.sh" --judges

sources() {
  local suite="$CORPUS/xrechnung-testsuite" f b
  for f in "$suite"/*.xml; do
    b="$(basename "$f" .xml)"
    # The testsuite gives most cases in both syntaxes: the same invoice, one fold entry.
    [[ "$b" == *_ubl && -f "$suite/${b%_ubl}_uncefact.xml" ]] && continue
    echo "$f"
  done
  ls "$CORPUS"/xml-cii/*.xml
}

render() {
  local xml="$1" dir="$2" lang="$3" name
  name="$(basename "$xml" .xml)"
  if [ -s "$dir/$name.pdf" ] ||
    { java -jar "$JAR" --disable-file-logging --action pdf --language "$lang" --source "$xml" --out "$dir/$name.pdf" >"$dir/$name.log" 2>&1 &&
      [ -s "$dir/$name.pdf" ]; }; then
    cp "$xml" "$dir/$name.xml"
    rm -f "$dir/$name.log"
  else
    echo "not rendered: $xml (see $dir/$name.log)" >&2
    rm -f "$dir/$name.pdf"
  fi
}
# The viewer writes its CSS and script beside the working directory, so each page gets its own.
render_html() {
  local xml="$1" dir="$2" name work
  name="$(basename "$xml" .xml)"
  [ -s "$dir/$name.pdf" ] && return 0
  work="$(mktemp -d)"
  if (cd "$work" && java -jar "$JAR" --disable-file-logging --action visualize --language de --source "$xml" --out "$work/page.html" >"$work/log" 2>&1) &&
    timeout 120 "$CHROMIUM" --headless --no-sandbox --disable-gpu --no-pdf-header-footer --print-to-pdf="$dir/$name.pdf" "file://$work/page.html" >>"$work/log" 2>&1 &&
    [ -s "$dir/$name.pdf" ]; then
    cp "$xml" "$dir/$name.xml"
  else
    echo "not rendered: $xml ($(tail -1 "$work/log"))" >&2
    rm -f "$dir/$name.pdf"
  fi
  rm -rf "$work"
}
export -f render render_html
export JAR
CHROMIUM="$(command -v chromium || command -v chromium-browser || true)"
export CHROMIUM

for lang in de en; do
  mkdir -p "$OUT/mustang-$lang"
  sources | xargs -P 2 -I{} bash -c 'render "$1" "$2" "$3"' _ {} "$OUT/mustang-$lang" "$lang"
  echo "$(ls "$OUT/mustang-$lang"/*.pdf 2>/dev/null | wc -l) PDFs in $OUT/mustang-$lang"
done

if [ -n "$CHROMIUM" ]; then
  mkdir -p "$OUT/mustang-html"
  sources | xargs -P 2 -I{} bash -c 'render_html "$1" "$2"' _ {} "$OUT/mustang-html"
  echo "$(ls "$OUT/mustang-html"/*.pdf 2>/dev/null | wc -l) PDFs in $OUT/mustang-html"
else
  echo "No Chromium: the HTML viewer's fold is not rendered." >&2
fi
