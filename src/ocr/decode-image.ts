import { createCanvas, ImageData, loadImage, type Canvas, type Image } from '@napi-rs/canvas';
import UTIF, { type IFD } from 'utif2';
import { rgbaToGray, type GrayBitmap } from './bitmap.js';
import { imageDimensions } from './image-header.js';
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
  if (type === 'tiff') return openTiff(bytes);
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

/** Baseline TIFF tags. */
const TAG = { width: 't256', height: 't257', subfileType: 't254', xResolution: 't282', yResolution: 't283', resolutionUnit: 't296' } as const;
/** NewSubfileType bit 0: a reduced-resolution copy (thumbnail) of another page. */
const REDUCED_RESOLUTION = 1;
const CM_PER_INCH = 2.54;

function openTiff(input: Uint8Array): OpenedImage {
  const bytes = Buffer.from(input.buffer, input.byteOffset, input.byteLength);
  let ifds: IFD[];
  try {
    ifds = UTIF.decode(bytes);
  } catch (err) {
    throw new UnreadableFileError(`The TIFF structure is broken: ${(err as Error).message}`);
  }
  const pages = ifds.filter((ifd) => first(ifd[TAG.width]) !== undefined && ((first(ifd[TAG.subfileType]) ?? 0) & REDUCED_RESOLUTION) === 0);
  if (pages.length === 0) throw new UnreadableFileError('The TIFF file contains no image.');
  return { pageCount: pages.length, decodePage: async (index) => decodeTiffPage(bytes, pages[index]!) };
}

function decodeTiffPage(bytes: Buffer, ifd: IFD): GrayBitmap {
  const width = first(ifd[TAG.width])!;
  const height = first(ifd[TAG.height]) ?? 0;
  checkPixels(width, height);
  let rgba: Uint8Array;
  try {
    UTIF.decodeImage(bytes, ifd);
    rgba = UTIF.toRGBA8(ifd);
  } catch (err) {
    throw new UnreadableFileError(`A TIFF page cannot be decoded: ${(err as Error).message}`);
  }
  if (rgba.length < width * height * 4) throw new UnreadableFileError('A TIFF page has less pixel data than its size claims.');
  const canvas = createCanvas(width, height);
  canvas.getContext('2d').putImageData(new ImageData(new Uint8ClampedArray(rgba.buffer, rgba.byteOffset, width * height * 4), width, height), 0, 0);
  // Scanners and fax software do record resolution in TIFF, and fax pages have non-square pixels (204×98 dpi).
  const { x, y } = tiffDpi(ifd) ?? { x: estimateDpi(width, height), y: estimateDpi(width, height) };
  const scaleX = ocrScale(width, height * (x / y), x);
  return draw(canvas, width, height, scaleX, scaleX * (x / y));
}

function tiffDpi(ifd: IFD): { x: number; y: number } | undefined {
  const unit = first(ifd[TAG.resolutionUnit]) ?? 2;
  const perInch = unit === 3 ? CM_PER_INCH : unit === 2 ? 1 : undefined; // 1 = no absolute unit
  const x = rational(ifd[TAG.xResolution]);
  const y = rational(ifd[TAG.yResolution]) ?? x;
  if (perInch === undefined || x === undefined || y === undefined) return undefined;
  const plausible = (dpi: number) => dpi >= 50 && dpi <= 2400;
  return plausible(x * perInch) && plausible(y * perInch) ? { x: x * perInch, y: y * perInch } : undefined;
}

function first(tag: unknown): number | undefined {
  const value = Array.isArray(tag) ? tag[0] : undefined;
  return typeof value === 'number' ? value : undefined;
}

function rational(tag: unknown): number | undefined {
  const value = Array.isArray(tag) ? tag[0] : undefined;
  if (!Array.isArray(value) || typeof value[0] !== 'number' || typeof value[1] !== 'number' || value[1] === 0) return undefined;
  return value[0] / value[1];
}

function checkPixels(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new UnreadableFileError(`The image claims a size of ${width}×${height} pixels.`);
  if (width * height > MAX_SOURCE_PIXELS) throw new UnreadableFileError(`The image has ${width}×${height} pixels; at most ${MAX_SOURCE_PIXELS / 1e6} million are read.`);
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
