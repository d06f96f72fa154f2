import { NativeOcr, nativeTesseractAvailable } from './native-tesseract.js';
import { OcrPool, type OcrPoolOptions } from './tesseract-pool.js';

/** What reads a page's pixels into words: Debian's Tesseract binary, or tesseract.js where it is missing. */
export type PageOcr = OcrPool | NativeOcr;

export type OcrEngineName = PageOcr['engine'];

/**
 * `OCR_ENGINE=tesseract-native` or `tesseract.js` forces one; by default the binary is used when
 * it runs and has German and English, since it reads as well in a fraction of the time.
 */
export function ocrEngineName(choice = process.env.OCR_ENGINE): OcrEngineName {
  if (choice === 'tesseract-native' || choice === 'tesseract.js') return choice;
  return nativeTesseractAvailable() ? 'tesseract-native' : 'tesseract.js';
}

export function createOcr(opts: OcrPoolOptions, engine = ocrEngineName()): PageOcr {
  return engine === 'tesseract-native' ? new NativeOcr(opts) : new OcrPool(opts);
}
