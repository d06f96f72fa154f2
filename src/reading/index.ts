import type { PageText } from './page-text.js';
import type { FileType } from '../files/file-type.js';
import type { Invoice } from '../invoice/model.js';
import { isBlank } from './bitmap.js';
import { UnreadableFileError } from './decode-image.js';
import { isReadable } from './readable.js';
import { DEFAULT_SANDBOX_LIMITS, SandboxedDocument, type SandboxLimits } from './sandbox.js';
import type { PageOcr } from './ocr-engine.js';

export { UnreadableFileError } from './decode-image.js';
export { OcrPool, OcrTimeoutError, OcrPoolClosedError } from './tesseract-pool.js';
export { createOcr, ocrEngineName, type PageOcr } from './ocr-engine.js';
export { DEFAULT_SANDBOX_LIMITS, type SandboxLimits } from './sandbox.js';

/**
 * The words of every page of a PDF, PNG, JPEG or TIFF: the PDF's own text
 * layer where it is readable, OCR (German and English) everywhere else.
 */

/** Nothing on any page could be read: an empty scan, or a photo of something else. */
export class NoTextError extends Error {
  override readonly name = 'NoTextError';
}

/** OCR costs seconds per page; a longer scan is refused rather than occupying the workers for many minutes. */
export const MAX_OCR_PAGES = 30;

export interface ReadDocumentOptions {
  pool: PageOcr;
  limits?: SandboxLimits;
  /** After each page that needed OCR (for heartbeats). */
  onPage?: (done: number, total: number) => void;
  /** Stops waiting pages from being queued for OCR. */
  signal?: AbortSignal;
}

export interface DocumentText {
  pageCount: number;
  /** The invoice XML the PDF carries (ZUGFeRD, Factur-X, XRechnung); `pages` is empty then. */
  embedded?: Invoice;
  /** Every page in order. */
  pages: PageText[];
  /** Pages that were read by OCR. */
  ocrPages: number;
}

export async function readDocument(bytes: Uint8Array, type: FileType, opts: ReadDocumentOptions): Promise<DocumentText> {
  const doc = await SandboxedDocument.open(bytes, type, opts.limits ?? DEFAULT_SANDBOX_LIMITS);
  // When one page fails, the pages still queued for OCR are withdrawn.
  const stop = new AbortController();
  const signal = opts.signal ? AbortSignal.any([opts.signal, stop.signal]) : stop.signal;
  try {
    const { pageCount, embedded, textPages, scanPages } = doc.outline;
    if (embedded) return { pageCount, embedded, pages: [], ocrPages: 0 };
    if (scanPages.length > MAX_OCR_PAGES) {
      throw new UnreadableFileError(
        `The document has ${scanPages.length} pages without a text layer; at most ${MAX_OCR_PAGES} are read by OCR.`,
      );
    }
    let done = 0;
    // As many pages in flight as there are workers: the sandbox renders the next page while OCR reads this one.
    const ocrPages = await mapConcurrently(scanPages, opts.pool.size, async (page): Promise<PageText> => {
      signal.throwIfAborted();
      const bitmap = await doc.render(page);
      const words = isBlank(bitmap) ? [] : await opts.pool.recognise(bitmap, signal);
      opts.onPage?.(++done, scanPages.length);
      return { page, width: bitmap.width, height: bitmap.height, words, source: 'ocr' };
    });
    const pages = [...textPages, ...ocrPages].sort((a, b) => a.page - b.page);
    if (!pages.some((p) => isReadable(p.words))) throw new NoTextError(`None of the ${pages.length} page(s) has readable text.`);
    return { pageCount, pages, ocrPages: ocrPages.length };
  } finally {
    stop.abort();
    doc.close();
  }
}

/** Like Promise.all over `items.map(fn)`, with at most `limit` calls running. Results keep the input order. */
async function mapConcurrently<T, R>(items: readonly T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lane = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i]!);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, lane));
  return results;
}
