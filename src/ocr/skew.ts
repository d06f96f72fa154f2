import type { GrayBitmap } from './bitmap.js';

/**
 * A page fed askew, turned back before OCR. Tesseract copes with a slant in
 * finding lines, but it cuts each line out of the page as an upright box: on a
 * line slanted by 1° across an A4 page at 300 dpi that box is 40 px taller
 * than the text, takes in parts of the lines above and below, and the LSTM
 * reads them as stray marks, lost accents and broken digits.
 *
 * The slant is the angle whose horizontal projection of the ink is sharpest
 * (Postl's projection profile method): along the text lines the profile
 * alternates between full rows and empty gaps, at any other angle the two
 * smear into each other. Searched coarse on a reduced page, then fine.
 */

/** A scanner feeds pages a few degrees askew at most; beyond that is a page turned on purpose, or no text. */
export const MAX_SKEW_DEGREES = 5;

/** Below this the page is left as it is: a quarter of a degree shifts a 20 cm line by under 1 mm, less than a line gap. */
const MIN_SKEW_DEGREES = 0.1;

/** Degrees between the angles tried on the reduced page, then on the finer one around the best. */
const COARSE_STEP = 0.25;
const FINE_STEP = 0.025;

/** Pages with less ink than this (in sample points) have too little text to tell a slant. */
const MIN_INK_POINTS = 200;

interface Points {
  xs: Float64Array;
  ys: Float64Array;
  /** Largest coordinate along x, y: the profile's extent. */
  width: number;
  height: number;
}

/** The page's slant in degrees, positive when the lines fall to the right (clockwise on screen); 0 when it cannot be told. */
export function measureSkew(bitmap: GrayBitmap): number {
  const threshold = inkThreshold(bitmap);
  // A cell a quarter of a text line high: enough to resolve line gaps, cheap to project many times.
  const coarseCell = Math.max(1, Math.round(Math.min(bitmap.width, bitmap.height) / 600));
  const coarse = inkPoints(bitmap, coarseCell, threshold);
  if (coarse.xs.length < MIN_INK_POINTS) return 0;
  const rough = bestAngle(coarse, -MAX_SKEW_DEGREES, MAX_SKEW_DEGREES, COARSE_STEP);
  const fine = inkPoints(bitmap, Math.max(1, Math.floor(coarseCell / 2)), threshold);
  const angle = bestAngle(fine, rough - COARSE_STEP, rough + COARSE_STEP, FINE_STEP);
  return Math.abs(angle) >= MAX_SKEW_DEGREES ? 0 : angle;
}

/** The page turned back by its measured slant (the same bitmap when it is level). */
export function deskewBitmap(bitmap: GrayBitmap): GrayBitmap {
  const degrees = measureSkew(bitmap);
  return Math.abs(degrees) < MIN_SKEW_DEGREES ? bitmap : rotate(bitmap, degrees);
}

/**
 * The angle in [from, to] whose projection is sharpest: the sum of squared
 * differences of neighbouring profile bins, which is largest when ink piles up
 * in text lines and the gaps between them are empty.
 */
function bestAngle(points: Points, from: number, to: number, step: number): number {
  const { xs, ys } = points;
  const margin = Math.ceil(points.width * Math.tan((MAX_SKEW_DEGREES * 2 * Math.PI) / 180)) + 2;
  const bins = new Float64Array(Math.ceil(points.height) + 2 * margin + 2);
  let best = 0;
  let bestScore = -1;
  for (let k = 0; from + k * step <= to + 1e-9; k++) {
    const degrees = from + k * step;
    const slope = Math.tan((degrees * Math.PI) / 180);
    bins.fill(0);
    // A line falling to the right by `slope` is level again after subtracting x·slope.
    for (let i = 0; i < xs.length; i++) bins[Math.round(ys[i]! - xs[i]! * slope) + margin]!++;
    let score = 0;
    for (let b = 1; b < bins.length; b++) score += (bins[b]! - bins[b - 1]!) ** 2;
    if (score > bestScore) {
      bestScore = score;
      best = degrees;
    }
  }
  return best;
}

/** Centres of the cells (`cell`×`cell` px) whose mean is ink, in cell units. */
function inkPoints(bitmap: GrayBitmap, cell: number, threshold: number): Points {
  const { width: w, height: h, data } = bitmap;
  const cw = Math.floor(w / cell);
  const ch = Math.floor(h / cell);
  const xs: number[] = [];
  const ys: number[] = [];
  const limit = threshold * cell * cell;
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      let sum = 0;
      for (let y = cy * cell; y < (cy + 1) * cell; y++) for (let x = cx * cell, row = y * w; x < (cx + 1) * cell; x++) sum += data[row + x]!;
      if (sum <= limit) {
        xs.push(cx);
        ys.push(cy);
      }
    }
  }
  return { xs: Float64Array.from(xs), ys: Float64Array.from(ys), width: cw, height: ch };
}

/** Otsu's threshold over the page's histogram: the grey level that best splits ink (at or below it) from paper. */
export function otsuThreshold(bitmap: GrayBitmap): number {
  const histogram = new Float64Array(256);
  for (const v of bitmap.data) histogram[v]!++;
  const total = bitmap.data.length;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) sumAll += v * histogram[v]!;
  let below = 0;
  let sumBelow = 0;
  let best = 128;
  let bestVariance = -1;
  for (let t = 0; t < 256; t++) {
    below += histogram[t]!;
    if (below === 0) continue;
    const above = total - below;
    if (above === 0) break;
    sumBelow += t * histogram[t]!;
    const meanBelow = sumBelow / below;
    const meanAbove = (sumAll - sumBelow) / above;
    const variance = below * above * (meanBelow - meanAbove) ** 2;
    if (variance > bestVariance) {
      bestVariance = variance;
      best = t;
    }
  }
  return best;
}

function inkThreshold(bitmap: GrayBitmap): number {
  return otsuThreshold(bitmap);
}

/**
 * The bitmap turned by `degrees` (positive: counter-clockwise on screen, which
 * undoes a page falling to the right) about its centre, same size, with
 * bilinear interpolation; what comes in from outside is paper.
 */
export function rotate(bitmap: GrayBitmap, degrees: number): GrayBitmap {
  const { width: w, height: h, data } = bitmap;
  const paper = paperLevel(bitmap);
  const out = new Uint8Array(w * h);
  const rad = (degrees * Math.PI) / 180;
  const cos = Math.cos(rad);
  const sin = Math.sin(rad);
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  for (let y = 0; y < h; y++) {
    const dy = y - cy;
    // Source of (x, y): the target point turned by the opposite angle (y grows downwards).
    let sx = cx - cx * cos - dy * sin;
    let sy = cy - cx * sin + dy * cos;
    for (let x = 0, o = y * w; x < w; x++, o++, sx += cos, sy += sin) {
      // Coordinates are non-negative here, so `| 0` floors them.
      if (sx < 0 || sy < 0 || sx >= w - 1 || sy >= h - 1) {
        out[o] = paper;
        continue;
      }
      const x0 = sx | 0;
      const y0 = sy | 0;
      const fx = sx - x0;
      const fy = sy - y0;
      const i = y0 * w + x0;
      const a = data[i]!;
      const b = data[i + 1]!;
      const c = data[i + w]!;
      const top = a + (b - a) * fx;
      const bottom = c + (data[i + w + 1]! - c) * fx;
      out[o] = (top + (bottom - top) * fy + 0.5) | 0;
    }
  }
  return { width: w, height: h, data: out };
}

/** The paper's grey: the 90th percentile, above nearly all ink and below bright specks. */
function paperLevel(bitmap: GrayBitmap): number {
  const histogram = new Uint32Array(256);
  for (const v of bitmap.data) histogram[v]!++;
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= bitmap.data.length * 0.9) return v;
  }
  return 255;
}
