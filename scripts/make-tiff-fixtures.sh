#!/usr/bin/env bash
# Makes the TIFF fixtures in test/fixtures/images/ with libtiff's own tools, so the
# decoder is tested on files as libtiff (and so most scanner software) writes them:
# LZW (with and without predictor), PackBits, Deflate, CCITT G3/G4, JPEG (YCbCr with
# JPEGTables, RGB, tiled, greyscale), palette, and a greyscale JPEG page of printed
# text for the OCR path. The tests only read the committed files; rerun this after
# changing the pictures. Needs Debian's libtiff-tools (tiffcp, ppm2tiff) and the
# project's node_modules.
#
# The pictures (test/files/tiff.test.ts knows them): 64×48, white, a black square at
# x 16–31, y 8–23 and, in colour, a red (220,30,30) square at x 40–55, y 24–39.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v tiffcp >/dev/null || { echo "make-tiff-fixtures: tiffcp missing: apt-get install libtiff-tools" >&2; exit 1; }
out=test/fixtures/images
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$out"

PATH="$PWD/.tools/node/bin:$PATH" node --input-type=module - "$tmp" <<'EOF'
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import UTIF from 'utif2';

const dir = process.argv[2];
const W = 64, H = 48;
const colour = (x, y) => (x >= 16 && x < 32 && y >= 8 && y < 24 ? [0, 0, 0] : x >= 40 && x < 56 && y >= 24 && y < 40 ? [220, 30, 30] : [255, 255, 255]);
const pixels = (fn) => { const out = []; for (let y = 0; y < H; y++) for (let x = 0; x < W; x++) out.push(fn(x, y)); return out; };
const pnm = (magic, w, h, body) => Buffer.concat([Buffer.from(`${magic}\n${w} ${h}\n${magic === 'P4' ? '' : '255\n'}`, 'latin1'), Buffer.from(body)]);

writeFileSync(path.join(dir, 'pattern.ppm'), pnm('P6', W, H, pixels(colour).flat()));
writeFileSync(path.join(dir, 'pattern.pgm'), pnm('P5', W, H, pixels((x, y) => { const [r, g, b] = colour(x, y); return Math.floor(0.299 * r + 0.587 * g + 0.114 * b); })));
// PBM: 1 is black, rows padded to whole bytes; only the black square.
const bits = [];
for (let y = 0; y < H; y++) for (let byte = 0; byte < W / 8; byte++) {
  let v = 0;
  for (let i = 0; i < 8; i++) { const [r] = colour(byte * 8 + i, y); v = (v << 1) | (r === 0 ? 1 : 0); }
  bits.push(v);
}
writeFileSync(path.join(dir, 'pattern.pbm'), pnm('P4', W, H, bits));

// Palette: index 0 white, 1 black, 2 red; libtiff has no tool that writes one exactly.
const map = new Array(768).fill(0);
[[255, 255, 255], [0, 0, 0], [220, 30, 30]].forEach(([r, g, b], i) => { map[i] = r * 257; map[256 + i] = g * 257; map[512 + i] = b * 257; });
const indices = pixels((x, y) => { const [r, g] = colour(x, y); return r === 255 ? 0 : r === 0 ? 1 : g === 30 ? 2 : 0; });
const ifd = { t256: [W], t257: [H], t258: [8], t259: [1], t262: [3], t273: [4000], t277: [1], t278: [H], t279: [W * H], t284: [1], t320: map };
const palette = new Uint8Array(4000 + W * H);
palette.set(new Uint8Array(UTIF.encode([ifd])));
palette.set(indices, 4000);
writeFileSync(path.join(dir, 'palette.tif'), palette);

// A line of invoice text as an office scanner sees it: grey, 200 dpi.
const require = createRequire(path.join(process.cwd(), 'package.json'));
GlobalFonts.registerFromPath(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'), 'DejaVu Sans');
const tw = 900, th = 170;
const canvas = createCanvas(tw, th);
const ctx = canvas.getContext('2d');
ctx.fillStyle = '#fff';
ctx.fillRect(0, 0, tw, th);
ctx.fillStyle = '#000';
ctx.font = '34px "DejaVu Sans"';
ctx.fillText('Rechnung Nr. 2024-0815', 30, 60);
ctx.fillText('Gesamtbetrag 1.234,56 EUR', 30, 125);
const rgba = ctx.getImageData(0, 0, tw, th).data;
const grey = new Uint8Array(tw * th);
for (let i = 0; i < grey.length; i++) grey[i] = rgba[i * 4];
writeFileSync(path.join(dir, 'text.pgm'), pnm('P5', tw, th, grey));
EOF

ppm2tiff -c none "$tmp/pattern.ppm" "$tmp/rgb.tif"
ppm2tiff -c none "$tmp/pattern.pgm" "$tmp/grey.tif"
ppm2tiff -c none "$tmp/pattern.pbm" "$tmp/bilevel.tif"

tiffcp -c lzw -r 16 "$tmp/rgb.tif" "$out/rgb-lzw.tif"
tiffcp -c lzw:2 -r 16 "$tmp/rgb.tif" "$out/rgb-lzw-predictor.tif"
tiffcp -c packbits -r 16 "$tmp/rgb.tif" "$out/rgb-packbits.tif"
tiffcp -c zip -r 16 "$tmp/rgb.tif" "$out/rgb-deflate.tif"
# JPEG as libtiff writes it by default: YCbCr, 2×2 chroma subsampling, tables in JPEGTables.
tiffcp -c jpeg -r 16 "$tmp/rgb.tif" "$out/rgb-jpeg-ycbcr.tif"
tiffcp -c jpeg:r -r 16 "$tmp/rgb.tif" "$out/rgb-jpeg-rgb.tif"
tiffcp -c jpeg -t -w 16 -l 16 "$tmp/rgb.tif" "$out/rgb-jpeg-tiled.tif"
tiffcp -c jpeg -r 16 "$tmp/grey.tif" "$out/grey-jpeg.tif"
tiffcp -c lzw "$tmp/grey.tif" "$out/grey-lzw.tif"
tiffcp -c g4 "$tmp/bilevel.tif" "$out/bilevel-g4.tif"
tiffcp -c g3 "$tmp/bilevel.tif" "$out/bilevel-g3.tif"
tiffcp -c packbits "$tmp/bilevel.tif" "$out/bilevel-packbits.tif"
tiffcp -c lzw "$tmp/palette.tif" "$out/palette-lzw.tif"
ppm2tiff -c jpeg:75 -r 32 -R 200 "$tmp/text.pgm" "$out/text-grey-jpeg.tif"

ls -l "$out"
