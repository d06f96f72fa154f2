/**
 * 8-bit grayscale raster, row-major, one byte per pixel: what tesseract reads
 * (it binarises anyway) and a quarter of RGBA when moved between processes.
 */
export interface GrayBitmap {
  width: number;
  height: number;
  data: Uint8Array;
}

/** ITU-R BT.601 luma in integer arithmetic; alpha is composed onto white, as paper is. */
export function rgbaToGray(rgba: Uint8Array | Uint8ClampedArray, width: number, height: number): GrayBitmap {
  const pixels = width * height;
  if (rgba.length < pixels * 4) throw new RangeError(`RGBA buffer of ${rgba.length} bytes is too small for ${width}x${height}`);
  const data = new Uint8Array(pixels);
  for (let p = 0, i = 0; p < pixels; p++, i += 4) {
    const weighted = rgba[i]! * 299 + rgba[i + 1]! * 587 + rgba[i + 2]! * 114;
    // Opaque pixels, nearly all of a page, round in integers: the same value, without the float work.
    if (rgba[i + 3] === 255) data[p] = ((weighted + 500) / 1000) | 0;
    else {
      const alpha = rgba[i + 3]! / 255;
      data[p] = Math.round((weighted / 1000) * alpha + 255 * (1 - alpha));
    }
  }
  return { width, height, data };
}

/**
 * Binary PGM (P5): a header and the raw bytes. Leptonica reads it without any
 * decoding work, where a PNG would cost an encode here and a decode there.
 */
export function toPgm(bitmap: GrayBitmap): Uint8Array {
  const header = Buffer.from(`P5\n${bitmap.width} ${bitmap.height}\n255\n`, 'latin1');
  const out = new Uint8Array(header.length + bitmap.data.length);
  out.set(header, 0);
  out.set(bitmap.data, header.length);
  return out;
}

/**
 * 3×3 median filter. Scanner noise and JPEG speckle become thousands of tiny
 * connected components that tesseract's layout analysis examines one by one;
 * removing them halves OCR time on noisy scans and does not cost accuracy, as
 * strokes at OCR resolution are wider than one pixel. Edges repeat the border.
 *
 * Each column's three pixels are sorted once and shared by the three windows
 * that contain them; the median of the window is then the median of the
 * largest low, the middle middle and the smallest high (exact, and a third of
 * the comparisons of sorting every window).
 */
export function despeckle(bitmap: GrayBitmap): GrayBitmap {
  const { width: w, height: h, data } = bitmap;
  const out = new Uint8Array(data.length);
  const lo = new Uint8Array(w);
  const mid = new Uint8Array(w);
  const hi = new Uint8Array(w);
  for (let y = 0; y < h; y++) {
    const up = (y > 0 ? y - 1 : 0) * w;
    const row = y * w;
    const down = (y < h - 1 ? y + 1 : y) * w;
    sortColumns(data, up, row, down, lo, mid, hi);
    out[row] = windowMedian(lo, mid, hi, 0, 0, Math.min(1, w - 1));
    for (let x = 1; x < w - 1; x++) out[row + x] = windowMedian(lo, mid, hi, x - 1, x, x + 1);
    if (w > 1) out[row + w - 1] = windowMedian(lo, mid, hi, w - 2, w - 1, w - 1);
  }
  return { width: w, height: h, data: out };
}

/** The median of the window over the sorted columns l, x and r. */
function windowMedian(lo: Uint8Array, mid: Uint8Array, hi: Uint8Array, l: number, x: number, r: number): number {
  return median3(max3(lo[l]!, lo[x]!, lo[r]!), median3(mid[l]!, mid[x]!, mid[r]!), min3(hi[l]!, hi[x]!, hi[r]!));
}

/** Sorts the three pixels of every column of a window row: `lo` ≤ `mid` ≤ `hi`. */
function sortColumns(data: Uint8Array, up: number, row: number, down: number, lo: Uint8Array, mid: Uint8Array, hi: Uint8Array): void {
  for (let x = 0; x < lo.length; x++) {
    let a = data[up + x]!;
    let b = data[row + x]!;
    let c = data[down + x]!;
    let t: number;
    if (a > b) {
      t = a;
      a = b;
      b = t;
    }
    if (b > c) {
      t = b;
      b = c;
      c = t;
    }
    if (a > b) {
      t = a;
      a = b;
      b = t;
    }
    lo[x] = a;
    mid[x] = b;
    hi[x] = c;
  }
}

const max3 = (a: number, b: number, c: number) => (a > b ? (a > c ? a : c) : b > c ? b : c);
const min3 = (a: number, b: number, c: number) => (a < b ? (a < c ? a : c) : b < c ? b : c);
const median3 = (a: number, b: number, c: number) => (a > b ? (b > c ? b : a > c ? c : a) : a > c ? a : b > c ? c : b);

/** Darker than this is ink where a scan is cut or cleaned (rules, bands); the paper of a despeckled scan is far lighter. */
export const INK = 180;

/** How many pixels have each gray level. */
export function grayHistogram(bitmap: GrayBitmap): Uint32Array {
  const histogram = new Uint32Array(256);
  for (const v of bitmap.data) histogram[v]!++;
  return histogram;
}

/** Below this share of ink a page is empty paper (a single short line is about 0.02 %). */
const MIN_INK_SHARE = 0.0001;

/**
 * Whether a page is empty paper. Tesseract binarises with Otsu's threshold,
 * which on a page without ink splits the paper's own noise in half and then
 * spends minutes reading the resulting pepper; such pages are skipped instead.
 * Ink is anything darker than half the paper's brightness (the median pixel).
 */
export function isBlank(bitmap: GrayBitmap): boolean {
  const histogram = grayHistogram(bitmap);
  let seen = 0;
  let paper = 255;
  for (let v = 0; v < 256; v++) {
    seen += histogram[v]!;
    if (seen >= bitmap.data.length / 2) {
      paper = v;
      break;
    }
  }
  let ink = 0;
  for (let v = 0; v < paper / 2; v++) ink += histogram[v]!;
  return ink < bitmap.data.length * MIN_INK_SHARE;
}
