import { readFileSync } from 'node:fs';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import UTIF from 'utif2';
import { describe, expect, it } from 'vitest';
import { openTiff, TiffError } from '../../src/files/tiff.js';
import { openImage, UnreadableFileError } from '../../src/reading/decode-image.js';
import { imagesToPdf } from '../../src/pdf/images.js';
import { readPdf } from '../../src/pdf/read.js';
import { PdfInputError } from '../../src/pdf/structure.js';

/**
 * The one TIFF decoder (src/files/tiff.ts) on files libtiff wrote (scripts/make-tiff-fixtures.sh):
 * every compression scanners use, in grey, RGB, YCbCr, palette and 1-bit, each decoded to the
 * picture it holds; and the limits that keep a hostile file from costing more than a page.
 */

const fixture = (name: string) => new Uint8Array(readFileSync(path.resolve(import.meta.dirname, '../fixtures/images', name)));
const LIMITS = { maxPixels: 100_000_000 };

/** The picture of the fixtures: 64×48 white, a black square at 16–31 × 8–23, a red one at 40–55 × 24–39. */
type Rgb = [number, number, number];
const WHITE: Rgb = [255, 255, 255];
const BLACK: Rgb = [0, 0, 0];
const RED: Rgb = [220, 30, 30];
/** The red square in grey (ITU-R 601 weights, as the fixture script converts). */
const RED_AS_GREY: Rgb = [86, 86, 86];
/** Points well inside each area, away from the edges where JPEG blurs. */
const PROBES: Array<{ at: [number, number]; area: 'paper' | 'black' | 'red' }> = [
  { at: [3, 3], area: 'paper' },
  { at: [60, 4], area: 'paper' },
  { at: [5, 44], area: 'paper' },
  { at: [36, 16], area: 'paper' },
  { at: [20, 12], area: 'black' },
  { at: [27, 19], area: 'black' },
  { at: [44, 28], area: 'red' },
  { at: [51, 35], area: 'red' },
];

const CASES: Array<{ file: string; red: Rgb; tolerance: number }> = [
  { file: 'rgb-lzw.tif', red: RED, tolerance: 0 },
  { file: 'rgb-lzw-predictor.tif', red: RED, tolerance: 0 },
  { file: 'rgb-packbits.tif', red: RED, tolerance: 0 },
  { file: 'rgb-deflate.tif', red: RED, tolerance: 0 },
  { file: 'rgb-jpeg-ycbcr.tif', red: RED, tolerance: 12 },
  { file: 'rgb-jpeg-rgb.tif', red: RED, tolerance: 12 },
  { file: 'rgb-jpeg-tiled.tif', red: RED, tolerance: 12 },
  { file: 'grey-jpeg.tif', red: RED_AS_GREY, tolerance: 6 },
  { file: 'grey-lzw.tif', red: RED_AS_GREY, tolerance: 0 },
  { file: 'palette-lzw.tif', red: RED, tolerance: 0 },
  // Bilevel: only the black square is in the picture.
  { file: 'bilevel-g4.tif', red: WHITE, tolerance: 0 },
  { file: 'bilevel-g3.tif', red: WHITE, tolerance: 0 },
  { file: 'bilevel-packbits.tif', red: WHITE, tolerance: 0 },
];

const pixel = (rgba: Uint8Array, width: number, [x, y]: [number, number]) =>
  Array.from(rgba.subarray((y * width + x) * 4, (y * width + x) * 4 + 4));

describe('decoding TIFF', () => {
  it.each(CASES)('$file: 64×48, paper, black and red where the picture has them', async ({ file, red, tolerance }) => {
    const tiff = openTiff(fixture(file), LIMITS);
    expect(tiff.pages).toMatchObject([{ width: 64, height: 48 }]);
    const page = await tiff.decode(0);
    expect({ width: page.width, height: page.height, bytes: page.rgba.length }).toEqual({ width: 64, height: 48, bytes: 64 * 48 * 4 });
    for (const { at, area } of PROBES) {
      const expected = area === 'paper' ? WHITE : area === 'black' ? BLACK : red;
      const [r, g, b, a] = pixel(page.rgba, 64, at);
      const off = Math.max(Math.abs(r! - expected[0]), Math.abs(g! - expected[1]), Math.abs(b! - expected[2]));
      expect({ at, area, off: off <= tolerance ? 'ok' : [r, g, b], a }).toEqual({ at, area, off: 'ok', a: 255 });
    }
  });

  it('reads the resolution a scanner recorded', () => {
    expect(openTiff(fixture('text-grey-jpeg.tif'), LIMITS).pages).toEqual([{ width: 900, height: 170, dpi: { x: 200, y: 200 } }]);
  });

  it('turns every fixture into a PDF page, and OCR opens each one', async () => {
    for (const { file } of CASES) {
      expect((await readPdf(await imagesToPdf(fixture(file), 'tiff'))).pageCount, file).toBe(1);
      const image = await openImage(fixture(file), 'tiff');
      expect((await image.decodePage(0)).width, file).toBeGreaterThan(64);
    }
  });
});

describe('hostile TIFF files', () => {
  it('refuses a page above the pixel limit before decoding it, in both callers', async () => {
    await expect(openTiff(fixture('rgb-jpeg-ycbcr.tif'), { maxPixels: 1000 }).decode(0)).rejects.toThrow(
      /64×48 pixels; at most 0.001 million/,
    );
    const huge = uncompressedGrey(10_001, 10_001, new Uint8Array(16));
    await expect((await openImage(huge, 'tiff')).decodePage(0)).rejects.toThrow(UnreadableFileError);
    await expect(imagesToPdf(huge, 'tiff')).rejects.toThrow(PdfInputError);
  });

  it('refuses a JPEG strip that claims more pixels than its place on the page', async () => {
    const bytes = fixture('grey-jpeg.tif');
    // The first strip's frame header (SOF0): height at +5, width at +7.
    const firstStrip = (UTIF.decode(Buffer.from(bytes))[0]!.t273 as number[])[0]!;
    const sof = Buffer.from(bytes).indexOf(Buffer.from([0xff, 0xc0]), firstStrip);
    expect(sof).toBeGreaterThan(0);
    bytes[sof + 5] = 0xea; // 60000 rows
    bytes[sof + 6] = 0x60;
    await expect(openTiff(bytes, LIMITS).decode(0)).rejects.toThrow(/claims 64×60000 pixels, more than its place of 64×16/);
  });

  it('refuses a Deflate strip that inflates beyond its size (a decompression bomb)', async () => {
    const bomb = deflateSync(new Uint8Array(20 * 1024 * 1024));
    const tiff = withStrip({ t256: [100], t257: [100], t258: [8], t259: [8], t262: [1], t277: [1], t278: [100] }, bomb);
    await expect(openTiff(tiff, LIMITS).decode(0)).rejects.toThrow(/inflates to more than the 10000 bytes/);
  });

  it('names a compression it does not decode instead of reading a blank page', async () => {
    const tiff = withStrip({ t256: [8], t257: [8], t258: [8], t259: [34712], t262: [1], t277: [1], t278: [8] }, new Uint8Array(64));
    await expect(openTiff(tiff, LIMITS).decode(0)).rejects.toThrow(/compression JPEG 2000 is not supported/);
    await expect((await openImage(tiff, 'tiff')).decodePage(0)).rejects.toThrow(UnreadableFileError);
  });

  it('refuses a field that claims more values than the file holds, without reading them', () => {
    const bytes = fixture('grey-lzw.tif');
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const stripOffsets = field(view, 273);
    view.writeUInt32LE(0xffff_fff0, stripOffsets + 4); // about four billion strips
    const started = performance.now();
    expect(() => openTiff(bytes, LIMITS)).toThrow(/field 273 claims 4294967280 values, more than the file holds/);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('refuses a chain of directories that comes back to itself', () => {
    const bytes = fixture('grey-lzw.tif');
    const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const first = view.readUInt32LE(4);
    view.writeUInt32LE(first, first + 2 + view.readUInt16LE(first) * 12); // the next directory is this one
    expect(() => openTiff(bytes, LIMITS)).toThrow(/the directory at byte \d+ is reached twice/);
  });

  it('reports a file without an image', () => {
    expect(() => openTiff(Buffer.from('II*\0\0\0\0\0', 'latin1'), LIMITS)).toThrow(TiffError);
  });
});

/** Where a field of the first directory of a little-endian TIFF starts. */
function field(view: Buffer, tag: number): number {
  const first = view.readUInt32LE(4);
  for (let entry = first + 2; entry < first + 2 + view.readUInt16LE(first) * 12; entry += 12)
    if (view.readUInt16LE(entry) === tag) return entry;
  throw new Error(`no field ${tag}`);
}

/** A one-strip TIFF: UTIF writes the directory, the strip follows it. */
function withStrip(ifd: Record<string, number[]>, strip: Uint8Array): Uint8Array {
  const at = 2000;
  const out = new Uint8Array(at + strip.length);
  out.set(new Uint8Array(UTIF.encode([{ ...ifd, t273: [at], t279: [strip.length] }] as never)));
  out.set(strip, at);
  return out;
}

function uncompressedGrey(width: number, height: number, data: Uint8Array): Uint8Array {
  return withStrip({ t256: [width], t257: [height], t258: [8], t259: [1], t262: [1], t277: [1], t278: [height] }, data);
}
