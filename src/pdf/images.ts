import { concatTransformationMatrix, drawObject, PDFDocument, PDFName, popGraphicsState, pushGraphicsState, type PDFRef } from 'pdf-lib';
import { openTiff, TiffError } from '../files/tiff.js';
import { PdfInputError } from './structure.js';

/**
 * PNG, JPEG or (multi-page) TIFF → a PDF with one page per image, each image filling an A4-wide
 * page at its own aspect ratio. The result is a plain PDF; the ZUGFeRD build converts it to
 * PDF/A-3 like any other input. Used by the one-call conversion of scanned invoices.
 */

export type ImageType = 'png' | 'jpeg' | 'tiff';

const A4_WIDTH = 595.28;
/** A scan larger than this is not an invoice page; refusing it keeps memory bounded. */
const MAX_PIXELS = 60_000_000;

export async function imagesToPdf(bytes: Uint8Array, type: ImageType): Promise<Uint8Array> {
  // No dates: the build converts this PDF and gives it the document's own time.
  const doc = await PDFDocument.create({ updateMetadata: false });
  const images = type === 'tiff' ? await tiffPages(doc, bytes) : [await embedSingle(doc, bytes, type)];
  for (const image of images) {
    const height = (A4_WIDTH * image.height) / image.width;
    const page = doc.addPage([A4_WIDTH, height]);
    const name = page.node.newXObject('Image', image.ref);
    page.pushOperators(pushGraphicsState(), concatTransformationMatrix(A4_WIDTH, 0, 0, height, 0, 0), drawObject(name), popGraphicsState());
  }
  return doc.save();
}

/** An image XObject of the document and its size in pixels. */
interface PlacedImage {
  ref: PDFRef;
  width: number;
  height: number;
}

async function embedSingle(doc: PDFDocument, bytes: Uint8Array, type: 'png' | 'jpeg'): Promise<PlacedImage> {
  try {
    const image = type === 'png' ? await doc.embedPng(bytes) : await doc.embedJpg(bytes);
    checkPixels(image.width, image.height);
    return { ref: image.ref, width: image.width, height: image.height };
  } catch (err) {
    if (err instanceof PdfInputError) throw err;
    throw new PdfInputError(`The ${type.toUpperCase()} image cannot be read: ${(err as Error).message}`);
  }
}

async function tiffPages(doc: PDFDocument, bytes: Uint8Array): Promise<PlacedImage[]> {
  const placed: PlacedImage[] = [];
  try {
    const tiff = openTiff(bytes, { maxPixels: MAX_PIXELS });
    for (let i = 0; i < tiff.pages.length; i++) {
      const { rgba, width, height } = await tiff.decode(i);
      placed.push(rgbImage(doc, rgba, width, height));
    }
  } catch (err) {
    throw err instanceof TiffError ? new PdfInputError(err.message) : err;
  }
  return placed;
}

/**
 * An RGB image XObject straight from pixels (pdf-lib embeds only PNG and JPEG files). Scans are
 * opaque, so the alpha channel is dropped rather than carried as a soft mask.
 */
function rgbImage(doc: PDFDocument, rgba: Uint8Array, width: number, height: number): PlacedImage {
  const rgb = new Uint8Array(width * height * 3);
  for (let src = 0, dst = 0; dst < rgb.length; src += 4, dst += 3) {
    rgb[dst] = rgba[src]!;
    rgb[dst + 1] = rgba[src + 1]!;
    rgb[dst + 2] = rgba[src + 2]!;
  }
  const ref = doc.context.register(
    doc.context.flateStream(rgb, {
      Type: 'XObject',
      Subtype: 'Image',
      Width: width,
      Height: height,
      ColorSpace: PDFName.of('DeviceRGB'),
      BitsPerComponent: 8,
    }),
  );
  return { ref, width, height };
}

function checkPixels(width: number, height: number): void {
  if (!(width > 0 && height > 0)) throw new PdfInputError('The image has no pixels.');
  if (width * height > MAX_PIXELS)
    throw new PdfInputError(`The image has ${width}×${height} pixels, more than an invoice page needs (limit ${MAX_PIXELS}).`);
}
