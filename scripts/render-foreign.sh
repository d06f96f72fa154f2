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
#   invoicegenerator-en/
#                 The PyPI package InvoiceGenerator (reportlab; English labels), into a virtualenv
#                 of its own under .tools: a form no German or French tool draws. Only invoices
#                 whose totals it prints as their XML's (scripts/render-invoicegenerator.py).
#   pyinvoice-en/ The PyPI package PyInvoice (reportlab) in the same virtualenv: "Service Provider"
#                 and "Client" as forms of labelled rows ("Name:", "Street:", "Post code:"), one
#                 VAT rate for the whole invoice (scripts/render-pyinvoice.py).
#   microinvoice-en/
#                 The npm package microinvoice (pdfkit), into .tools/render-npm: "Bill From" and
#                 "Bill To", items without a unit price, amounts as "11718.8 EUR"
#                 (scripts/render-microinvoice.cjs).
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

# The XML is handed over as the EN 16931 JSON the benchmarks judge by (dist-tools: npm run build:tools).
VENV="$ROOT/.tools/render-venv"
[ -x "$VENV/bin/python" ] || python3 -m venv "$VENV"
"$VENV/bin/python" -c 'import InvoiceGenerator, pyinvoice' 2>/dev/null || "$VENV/bin/pip" install -q 'InvoiceGenerator==1.2.0' 'PyInvoice==0.1.7'
TRUTH_JS="$ROOT/dist-tools/scripts/lib/corpus-truth.js"
NPM_DIR="$ROOT/.tools/render-npm"
[ -d "$NPM_DIR/node_modules/microinvoice" ] || npm install --prefix "$NPM_DIR" --no-save --silent microinvoice@1.0.6
# `render_with XML DIR COMMAND…` runs COMMAND with the invoice's JSON on stdin and the PDF's path last.
render_with() {
  local xml="$1" dir="$2" name
  shift 2
  name="$(basename "$xml" .xml)"
  [ -s "$dir/$name.pdf" ] && return 0
  if node -e 'process.stdout.write(JSON.stringify(require(process.argv[1]).truthOf(require("fs").readFileSync(process.argv[2], "utf8"))))' "$TRUTH_JS" "$xml" |
    "$@" "$dir/$name.pdf" 2>"$dir/$name.log"; then
    cp "$xml" "$dir/$name.xml"
  else
    echo "not rendered: $xml ($(tail -1 "$dir/$name.log"))" >&2
    rm -f "$dir/$name.pdf"
  fi
  rm -f "$dir/$name.log"
}
export -f render_with
export VENV TRUTH_JS ROOT NPM_DIR
mkdir -p "$OUT/invoicegenerator-en" "$OUT/pyinvoice-en" "$OUT/microinvoice-en"
sources | xargs -P 2 -I{} bash -c 'render_with "$1" "$2" env INVOICE_LANG=en "$VENV/bin/python" "$ROOT/scripts/render-invoicegenerator.py"' _ {} "$OUT/invoicegenerator-en"
sources | xargs -P 2 -I{} bash -c 'render_with "$1" "$2" "$VENV/bin/python" "$ROOT/scripts/render-pyinvoice.py"' _ {} "$OUT/pyinvoice-en"
sources | xargs -P 2 -I{} bash -c 'render_with "$1" "$2" env NODE_PATH="$NPM_DIR/node_modules" node "$ROOT/scripts/render-microinvoice.cjs"' _ {} "$OUT/microinvoice-en"
for r in invoicegenerator-en pyinvoice-en microinvoice-en; do echo "$(ls "$OUT/$r"/*.pdf 2>/dev/null | wc -l) PDFs in $OUT/$r"; done
