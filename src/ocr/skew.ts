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
 * smear into each other. Searched coarse on a reduced page, then fine, with
 * each column's shift an integer number of cells, so that trying an angle is
 * one pass of integer additions over the ink cells.
 *
 * The page is then levelled by two shears of whole pixels rather than a
 * rotation: columns moved up or down so that the lines are level, then rows
 * moved sideways so that the strokes stand upright again. Within a few
 * degrees that is the rotation to a few hundredths of a pixel per pixel, but
 * no pixel is interpolated: the strokes of thin type keep their contrast (a
 * bilinear rotation blurs them once more after the scan's own resampling) and
 * it costs a copy of the page instead of four reads and a blend per pixel.
 */

/** A scanner feeds pages a few degrees askew at most; beyond that is a page turned on purpose, or no text. */
export const MAX_SKEW_DEGREES = 5;

/**
 * Below this the page is left as it is: 0.2° moves the end of a line across
 * an A4 page by under 9 px at 300 dpi, a fifth of a text line, which
 * tesseract's line finding absorbs (and the words' boxes are levelled
 * afterwards, tsv.ts).
 */
export const MIN_SKEW_DEGREES = 0.2;

/** Degrees between the angles tried on the reduced page, then on the finer one around the best. */
const COARSE_STEP = 0.25;
const FINE_STEP = 0.025;

/** Pages with less ink than this (in sample points) have too little text to tell a slant. */
const MIN_INK_POINTS = 200;

/** Grey levels are counted on every this many pixels: thresholds from a sample, not a pass over all of them. */
const HISTOGRAM_STRIDE = 7;

interface Points {
  xs: Int32Array;
  ys: Int32Array;
  /** Extent of the grid along x, y, in cells. */
  width: number;
  height: number;
}

/** The page's slant in degrees, positive when the lines fall to the right (clockwise on screen); 0 when it cannot be told. */
export function measureSkew(bitmap: GrayBitmap): number {
  // A coarse cell a quarter of a text line high: enough to resolve line gaps, cheap to project many times.
  const coarseCell = Math.max(2, Math.round(Math.min(bitmap.width, bitmap.height) / 600));
  const fineCell = Math.floor(coarseCell / 2);
  const sums = cellSums(bitmap, fineCell);
  const threshold = otsuOf(histogramOf(bitmap));
  const coarse = inkPoints(merged(sums), threshold * coarseCell * coarseCell);
  if (coarse.xs.length < MIN_INK_POINTS) return 0;
  const rough = bestAngle(coarse, -MAX_SKEW_DEGREES, MAX_SKEW_DEGREES, COARSE_STEP);
  const fine = inkPoints(sums, threshold * fineCell * fineCell);
  const angle = bestAngle(fine, rough - COARSE_STEP, rough + COARSE_STEP, FINE_STEP);
  return Math.abs(angle) >= MAX_SKEW_DEGREES ? 0 : angle;
}

/** The page levelled by its measured slant (the same bitmap when it is level enough). */
export function deskewBitmap(bitmap: GrayBitmap): GrayBitmap {
  const degrees = measureSkew(bitmap);
  return Math.abs(degrees) < MIN_SKEW_DEGREES ? bitmap : shearLevel(bitmap, degrees);
}

/**
 * The angle in [from, to] whose projection is sharpest: the sum of squared
 * differences of neighbouring profile bins, which is largest when ink piles up
 * in text lines and the gaps between them are empty.
 */
function bestAngle(points: Points, from: number, to: number, step: number): number {
  const { xs, ys } = points;
  const margin = Math.ceil(points.width * Math.tan((MAX_SKEW_DEGREES * 2 * Math.PI) / 180)) + 2;
  const bins = new Int32Array(points.height + 2 * margin + 2);
  const shift = new Int32Array(points.width);
  let best = 0;
  let bestScore = -1;
  for (let k = 0; from + k * step <= to + 1e-9; k++) {
    const degrees = from + k * step;
    const slope = Math.tan((degrees * Math.PI) / 180);
    // A line falling to the right by `slope` is level again after moving column x up by x·slope.
    for (let x = 0; x < shift.length; x++) shift[x] = margin - Math.round(x * slope);
    bins.fill(0);
    for (let i = 0; i < xs.length; i++) bins[ys[i]! + shift[xs[i]!]!]!++;
    let score = 0;
    for (let b = 1; b < bins.length; b++) {
      const d = bins[b]! - bins[b - 1]!;
      score += d * d;
    }
    if (score > bestScore) {
      bestScore = score;
      best = degrees;
    }
  }
  return best;
}

interface CellSums {
  sums: Float64Array;
  /** Cells across and down. */
  width: number;
  height: number;
}

/** The sum of grey levels of each `cell`×`cell` block of the page (whole blocks only). */
function cellSums(bitmap: GrayBitmap, cell: number): CellSums {
  const { width: w, data } = bitmap;
  const cw = Math.floor(w / cell);
  const ch = Math.floor(bitmap.height / cell);
  const sums = new Float64Array(cw * ch);
  for (let y = 0; y < ch * cell; y++) {
    const out = Math.floor(y / cell) * cw;
    for (let cx = 0, x = y * w; cx < cw; cx++) {
      let s = 0;
      for (let i = 0; i < cell; i++, x++) s += data[x]!;
      sums[out + cx]! += s;
    }
  }
  return { sums, width: cw, height: ch };
}

/** Blocks of 2×2 cells summed into one: the same page at half the grid's resolution. */
function merged(grid: CellSums): CellSums {
  const cw = Math.floor(grid.width / 2);
  const ch = Math.floor(grid.height / 2);
  const sums = new Float64Array(cw * ch);
  for (let cy = 0; cy < ch; cy++) {
    for (let cx = 0; cx < cw; cx++) {
      const i = 2 * cy * grid.width + 2 * cx;
      sums[cy * cw + cx] = grid.sums[i]! + grid.sums[i + 1]! + grid.sums[i + grid.width]! + grid.sums[i + grid.width + 1]!;
    }
  }
  return { sums, width: cw, height: ch };
}

/** The cells whose grey sum is at or below `limit` (ink), as cell coordinates. */
function inkPoints(grid: CellSums, limit: number): Points {
  const xs: number[] = [];
  const ys: number[] = [];
  for (let cy = 0, i = 0; cy < grid.height; cy++) {
    for (let cx = 0; cx < grid.width; cx++, i++) {
      if (grid.sums[i]! <= limit) {
        xs.push(cx);
        ys.push(cy);
      }
    }
  }
  return { xs: Int32Array.from(xs), ys: Int32Array.from(ys), width: grid.width, height: grid.height };
}

/** Grey levels of a sample of the page's pixels. */
function histogramOf(bitmap: GrayBitmap): Float64Array {
  const histogram = new Float64Array(256);
  for (let i = 0; i < bitmap.data.length; i += HISTOGRAM_STRIDE) histogram[bitmap.data[i]!]!++;
  return histogram;
}

/** Otsu's threshold over the page's histogram: the grey level that best splits ink (at or below it) from paper. */
export function otsuThreshold(bitmap: GrayBitmap): number {
  return otsuOf(histogramOf(bitmap));
}

function otsuOf(histogram: Float64Array): number {
  let total = 0;
  let sumAll = 0;
  for (let v = 0; v < 256; v++) {
    total += histogram[v]!;
    sumAll += v * histogram[v]!;
  }
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

/**
 * The page levelled by `degrees` (its slant, positive when lines fall to the
 * right) about its centre, same size, by whole pixels: each column moved up
 * by its distance from the centre times the slope, then each row moved
 * sideways by its distance times the slope. What comes in from outside is paper.
 */
export function shearLevel(bitmap: GrayBitmap, degrees: number): GrayBitmap {
  const { width: w, height: h, data } = bitmap;
  const paper = paperLevel(bitmap);
  const slope = Math.tan((degrees * Math.PI) / 180);
  const cx = (w - 1) / 2;
  const cy = (h - 1) / 2;
  // Columns: runs of columns share one vertical shift, so each row is copied run by run.
  const runs: Array<{ from: number; to: number; shift: number }> = [];
  for (let x = 0; x < w; x++) {
    const shift = Math.round((x - cx) * slope);
    const last = runs.at(-1);
    if (last && last.shift === shift) last.to = x + 1;
    else runs.push({ from: x, to: x + 1, shift });
  }
  const levelled = new Uint8Array(w * h).fill(paper);
  for (let y = 0; y < h; y++) {
    for (const run of runs) {
      const source = y + run.shift;
      if (source < 0 || source >= h) continue;
      for (let x = run.from, o = y * w + x, offset = run.shift * w; x < run.to; x++, o++) levelled[o] = data[o + offset]!;
    }
  }
  // Rows: a stroke that leaned with the page stands upright again.
  const out = new Uint8Array(w * h).fill(paper);
  for (let y = 0; y < h; y++) {
    const shift = Math.round((y - cy) * slope);
    const from = Math.max(0, shift);
    const to = Math.min(w, w + shift);
    if (to > from) out.set(levelled.subarray(y * w + from - shift, y * w + to - shift), y * w + from);
  }
  return { width: w, height: h, data: out };
}

/** The paper's grey: the 90th percentile, above nearly all ink and below bright specks. */
function paperLevel(bitmap: GrayBitmap): number {
  const histogram = histogramOf(bitmap);
  const total = histogram.reduce((a, b) => a + b, 0);
  let seen = 0;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= total * 0.9) return v;
  }
  return 255;
}
