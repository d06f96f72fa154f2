import { createCanvas, ImageData } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import type { GrayBitmap } from '../../src/reading/bitmap.js';
import { openPdf, rasterisePage } from '../../src/reading/rasterise-pdf.js';

/**
 * What an office scanner makes of a printed invoice: a low resolution, a page
 * fed slightly askew, sensor noise, grey paper, and lossy JPEG. Used by the OCR
 * tests and the degraded-image benchmark, so both measure the same thing.
 * Deterministic: the same seed gives the same bytes.
 */

export interface ScanProfile {
  dpi: number;
  skewDegrees: number;
  /** Standard deviation of the Gaussian noise, in grey levels. */
  noise: number;
  jpegQuality: number;
}

/** A plausible scan for this seed: 150–200 dpi, 0.3–1.5° skew either way, noise σ 6–14, JPEG quality 55–80. */
export function scanProfile(seed: number): ScanProfile {
  const random = prng(seed);
  const between = (lo: number, hi: number) => lo + (hi - lo) * random();
  return {
    dpi: Math.round(between(150, 200)),
    skewDegrees: (random() < 0.5 ? -1 : 1) * between(0.3, 1.5),
    noise: between(6, 14),
    jpegQuality: Math.round(between(55, 80)),
  };
}

/** Seed from a name (a file name), so every document keeps its own profile across runs. */
export function seedOf(name: string): number {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619);
  return h >>> 0;
}

/** Every page of the PDF (at most `maxPages`) as a scanned JPEG. */
export async function scanPdf(pdf: Uint8Array, profile: ScanProfile, maxPages = Infinity): Promise<Buffer[]> {
  const doc = await openPdf(pdf);
  try {
    const pages: Buffer[] = [];
    for (let n = 1; n <= Math.min(doc.numPages, maxPages); n++)
      pages.push(await scanPage(await rasterisePage(doc, n, profile.dpi), profile, n));
    return pages;
  } finally {
    await doc.loadingTask.destroy();
  }
}

/** One clean page bitmap, degraded and encoded as JPEG. */
export async function scanPage(page: GrayBitmap, profile: ScanProfile, seed = 1): Promise<Buffer> {
  const { width, height } = page;
  const source = createCanvas(width, height);
  source.getContext('2d').putImageData(
    new ImageData(
      grayToRgba(page.data, (v) => 28 + (v * 212) / 255),
      width,
      height,
    ),
    0,
    0,
  );

  // Fed askew: the page turns about its centre on grey-white scanner background.
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = 'rgb(238,238,236)';
  ctx.fillRect(0, 0, width, height);
  ctx.translate(width / 2, height / 2);
  ctx.rotate((profile.skewDegrees * Math.PI) / 180);
  ctx.drawImage(source, -width / 2, -height / 2);

  const image = ctx.getImageData(0, 0, width, height);
  const gauss = gaussian(prng(seed * 7919 + Math.round(profile.noise * 1000)));
  for (let i = 0; i < image.data.length; i += 4) {
    const v = Math.max(0, Math.min(255, Math.round(image.data[i]! + gauss() * profile.noise)));
    image.data[i] = image.data[i + 1] = image.data[i + 2] = v;
  }
  ctx.setTransform(1, 0, 0, 1, 0, 0);
  ctx.putImageData(image, 0, 0);
  return canvas.encode('jpeg', profile.jpegQuality);
}

/** What a scanner that scans to PDF makes: one JPEG per page, A4 wide, no text. */
export async function imageOnlyPdf(jpegs: Uint8Array[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const jpeg of jpegs) {
    const image = await doc.embedJpg(jpeg);
    const page = doc.addPage([A4_WIDTH_POINTS, (A4_WIDTH_POINTS * image.height) / image.width]);
    page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return doc.save();
}

const A4_WIDTH_POINTS = 595.28;

function grayToRgba(gray: Uint8Array, tone: (v: number) => number): Uint8ClampedArray {
  const rgba = new Uint8ClampedArray(gray.length * 4);
  for (let p = 0, i = 0; p < gray.length; p++, i += 4) {
    rgba[i] = rgba[i + 1] = rgba[i + 2] = tone(gray[p]!);
    rgba[i + 3] = 255;
  }
  return rgba;
}

/** mulberry32: small, fast, seeded (a run can be repeated), good enough for noise and for picking. */
export function prng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Box–Muller over a uniform source. */
function gaussian(random: () => number): () => number {
  return () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
}
