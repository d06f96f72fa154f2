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
