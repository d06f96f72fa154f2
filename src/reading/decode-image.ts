import { createCanvas, ImageData, loadImage, type Canvas, type Image } from '@napi-rs/canvas';
import { rgbaToGray, type GrayBitmap } from './bitmap.js';
import { imageDimensions } from '../files/image-header.js';
import { openTiff, TiffError, type DecodedPage, type TiffFile } from '../files/tiff.js';
import { estimateDpi, MAX_SOURCE_PIXELS, ocrScale, scaledSize } from './resolution.js';

/** The file cannot be read as what its magic bytes say, or is too large to read safely. */
export class UnreadableFileError extends Error {
  override readonly name = 'UnreadableFileError';
}

/** A PNG, JPEG or (multi-page) TIFF whose pages decode one at a time, as grayscale at the resolution OCR wants. */
export interface OpenedImage {
  pageCount: number;
  /** 0-based. */
  decodePage(index: number): Promise<GrayBitmap>;
}

export async function openImage(bytes: Uint8Array, type: 'png' | 'jpeg' | 'tiff'): Promise<OpenedImage> {
  if (type === 'tiff') return openTiffImage(bytes);
  return { pageCount: 1, decodePage: () => decodeSingle(bytes, type) };
}

async function decodeSingle(bytes: Uint8Array, type: 'png' | 'jpeg'): Promise<GrayBitmap> {
  const size = imageDimensions(bytes, type);
  if (!size) throw new UnreadableFileError(`The ${type.toUpperCase()} header is broken.`);
  checkPixels(size.width, size.height);
  let image: Image;
  try {
    image = await loadImage(bytes);
  } catch (err) {
    throw new UnreadableFileError(`The ${type.toUpperCase()} image cannot be decoded: ${(err as Error).message}`);
  }
  // PNG and JPEG resolution fields are mostly placeholders (72 dpi); the size is a better guess.
  const scale = ocrScale(image.width, image.height, estimateDpi(image.width, image.height));
  return draw(image, image.width, image.height, scale, scale);
}

async function openTiffImage(bytes: Uint8Array): Promise<OpenedImage> {
  let tiff: TiffFile;
  try {
    tiff = openTiff(bytes, { maxPixels: MAX_SOURCE_PIXELS });
  } catch (err) {
    throw asUnreadable(err);
  }
  return { pageCount: tiff.pages.length, decodePage: (index) => decodeTiffPage(tiff, index) };
}

async function decodeTiffPage(tiff: TiffFile, index: number): Promise<GrayBitmap> {
  let page: DecodedPage;
  try {
    page = await tiff.decode(index);
  } catch (err) {
    throw asUnreadable(err);
  }
  const { width, height, rgba } = page;
  const canvas = createCanvas(width, height);
  canvas
    .getContext('2d')
    .putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, width * height * 4), width, height), 0, 0);
  // Scanners and fax software do record resolution in TIFF, and fax pages have non-square pixels (204×98 dpi).
  const { x, y } = tiff.pages[index]!.dpi ?? { x: estimateDpi(width, height), y: estimateDpi(width, height) };
  const scaleX = ocrScale(width, height * (x / y), x);
  return draw(canvas, width, height, scaleX, scaleX * (x / y));
}

const asUnreadable = (err: unknown) => (err instanceof TiffError ? new UnreadableFileError(err.message) : err);

function checkPixels(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new UnreadableFileError(`The image claims a size of ${width}×${height} pixels.`);
  if (width * height > MAX_SOURCE_PIXELS)
    throw new UnreadableFileError(`The image has ${width}×${height} pixels; at most ${MAX_SOURCE_PIXELS / 1e6} million are read.`);
}

/** Resamples onto white paper (transparent PNGs are drawn on white, as printed). */
function draw(source: Image | Canvas, width: number, height: number, scaleX: number, scaleY: number): GrayBitmap {
  const target = { width: scaledSize(width, 1, scaleX).width, height: scaledSize(1, height, scaleY).height };
  const canvas = createCanvas(target.width, target.height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, target.width, target.height);
  ctx.imageSmoothingEnabled = true;
  ctx.imageSmoothingQuality = 'high';
  ctx.drawImage(source, 0, 0, target.width, target.height);
  return rgbaToGray(ctx.getImageData(0, 0, target.width, target.height).data, target.width, target.height);
}
