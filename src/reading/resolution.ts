/**
 * How large a page is when tesseract sees it. Tesseract's LSTM reads best when
 * capitals are 25–35 px high: 10 pt text at 300 dpi. Scans at 150–200 dpi lose
 * decimal commas and thin strokes unless they are scaled up first; 600 dpi
 * scans only cost time, so they are scaled down.
 */
export const OCR_DPI = 300;

/** A3 at 300 dpi; larger pages are scaled down to this many pixels. */
export const MAX_OCR_PIXELS = 18_000_000;

/** Decoded sources above this are refused before any pixel is decoded (decompression bombs). */
export const MAX_SOURCE_PIXELS = 100_000_000;

/** Resampling a page that is already close to the target buys nothing. */
const TOLERANCE = 0.15;

/** Images rarely carry a trustworthy resolution; the long side of A4 is the best guess for an invoice. */
const A4_LONG_SIDE_INCHES = 11.69;

/** A 100 dpi fax upscaled 3x is as much as interpolation can help. */
const MAX_UPSCALE = 3;

/** Resolution of an image that claims none (or a placeholder such as 72 dpi), guessed from its size. */
export function estimateDpi(width: number, height: number): number {
  return Math.max(width, height) / A4_LONG_SIDE_INCHES;
}

/** Factor by which a page of `width`×`height` pixels at `dpi` is resampled for OCR. */
export function ocrScale(width: number, height: number, dpi: number): number {
  const wanted = Math.min(OCR_DPI / dpi, MAX_UPSCALE);
  const fitting = Math.sqrt(MAX_OCR_PIXELS / (width * height));
  const scale = Math.min(wanted, fitting);
  return Math.abs(scale - 1) <= TOLERANCE && fitting >= 1 ? 1 : scale;
}

/** Pixel size after scaling, at least one pixel each way. */
export function scaledSize(width: number, height: number, scale: number): { width: number; height: number } {
  return { width: Math.max(1, Math.round(width * scale)), height: Math.max(1, Math.round(height * scale)) };
}
