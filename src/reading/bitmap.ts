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
    const luma = (rgba[i]! * 299 + rgba[i + 1]! * 587 + rgba[i + 2]! * 114) / 1000;
    const alpha = rgba[i + 3]! / 255;
    data[p] = Math.round(luma * alpha + 255 * (1 - alpha));
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
 */
export function despeckle(bitmap: GrayBitmap): GrayBitmap {
  const { width: w, height: h, data } = bitmap;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < h; y++) {
    const up = (y > 0 ? y - 1 : 0) * w;
    const row = y * w;
    const down = (y < h - 1 ? y + 1 : y) * w;
    for (let x = 0; x < w; x++) {
      const left = x > 0 ? x - 1 : 0;
      const right = x < w - 1 ? x + 1 : x;
      out[row + x] = median9(
        data[up + left]!,
        data[up + x]!,
        data[up + right]!,
        data[row + left]!,
        data[row + x]!,
        data[row + right]!,
        data[down + left]!,
        data[down + x]!,
        data[down + right]!,
      );
    }
  }
  return { width: w, height: h, data: out };
}

/**
 * The median of nine values without allocating or sorting: Paeth's 19-step
 * exchange network, with the exchanges whose loser is never read again reduced
 * to a single assignment.
 */
function median9(p0: number, p1: number, p2: number, p3: number, p4: number, p5: number, p6: number, p7: number, p8: number): number {
  let t: number;
  if (p1 > p2) {
    t = p1;
    p1 = p2;
    p2 = t;
  }
  if (p4 > p5) {
    t = p4;
    p4 = p5;
    p5 = t;
  }
  if (p7 > p8) {
    t = p7;
    p7 = p8;
    p8 = t;
  }
  if (p0 > p1) {
    t = p0;
    p0 = p1;
    p1 = t;
  }
  if (p3 > p4) {
    t = p3;
    p3 = p4;
    p4 = t;
  }
  if (p6 > p7) {
    t = p6;
    p6 = p7;
    p7 = t;
  }
  if (p1 > p2) {
    t = p1;
    p1 = p2;
    p2 = t;
  }
  if (p4 > p5) {
    t = p4;
    p4 = p5;
    p5 = t;
  }
  if (p7 > p8) {
    t = p7;
    p7 = p8;
    p8 = t;
  }
  if (p0 > p3) p3 = p0;
  if (p5 > p8) p5 = p8;
  if (p4 > p7) {
    t = p4;
    p4 = p7;
    p7 = t;
  }
  if (p3 > p6) p6 = p3;
  if (p1 > p4) p4 = p1;
  if (p2 > p5) p2 = p5;
  if (p4 > p7) p4 = p7;
  if (p4 > p2) {
    t = p4;
    p4 = p2;
    p2 = t;
  }
  if (p6 > p4) p4 = p6;
  return p4 > p2 ? p2 : p4;
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
  const histogram = new Uint32Array(256);
  for (const v of bitmap.data) histogram[v]!++;
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
