import { createRequire } from 'node:module';
import path from 'node:path';
import type { PDFDocumentLoadingTask, PDFPageProxy } from 'pdfjs-dist/types/src/display/api.js';

export type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');

let pdfjs: Promise<PdfJs> | undefined;

/** Loaded lazily: pdfjs-dist is large and not every process reads PDFs with it. */
export function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/**
 * Loads pdfjs and the parsing half it runs in this thread under Node (its "fake worker", which it
 * would import with the first document), for a process about to read a PDF. That module registers
 * itself as `globalThis.pdfjsWorker`, where pdfjs looks before importing it.
 */
export async function preloadPdfJs(): Promise<void> {
  await Promise.all([loadPdfJs(), import('pdfjs-dist/legacy/build/pdf.worker.mjs')]);
}

/**
 * pdfjs reads its standard fonts, CMaps, image decoders and colour profiles from its own package
 * folder: local files, never the network. Plain paths, because its Node loader hands them to
 * fs.readFile, which takes no `file:` URL strings (the font metrics were silently not found).
 */
const DIR = path.dirname(createRequire(import.meta.url).resolve('pdfjs-dist/package.json'));
const RESOURCES = {
  standardFontDataUrl: `${DIR}/standard_fonts/`,
  cMapUrl: `${DIR}/cmaps/`,
  wasmUrl: `${DIR}/wasm/`,
  iccUrl: `${DIR}/iccs/`,
};

/**
 * Starts reading untrusted PDF bytes; the caller destroys the task when done. `maxImageSize`
 * (pixels) skips larger embedded images instead of decoding them (decompression bombs); 0 skips
 * every image, for reading text only.
 */
export async function openPdfTask(bytes: Uint8Array, options: { maxImageSize: number }): Promise<PDFDocumentLoadingTask> {
  const { getDocument } = await loadPdfJs();
  // pdfjs takes ownership of (detaches) the buffer it is given: hand it a copy.
  return getDocument({ data: new Uint8Array(bytes), ...RESOURCES, maxImageSize: options.maxImageSize, verbosity: 0 });
}

/**
 * Reads every page of untrusted PDF bytes for its text, in order, through `read`; each page's
 * resources are released after it and the document at the end.
 */
export async function readPageTexts<T>(bytes: Uint8Array, read: (page: PDFPageProxy, pdfjs: PdfJs) => Promise<T>): Promise<T[]> {
  const pdfjs = await loadPdfJs();
  // Images are of no use for text: without this pdfjs decodes every one for the operator list.
  const task = await openPdfTask(bytes, { maxImageSize: 0 });
  try {
    const doc = await task.promise;
    const pages: T[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      try {
        pages.push(await read(page, pdfjs));
      } finally {
        page.cleanup();
      }
    }
    return pages;
  } finally {
    await task.destroy();
  }
}
