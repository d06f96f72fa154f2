import type { PageText } from './page-text.js';
import { extractTextLayer } from './text-layer.js';
import type { FileType } from '../files/file-type.js';
import type { Invoice } from '../invoice/model.js';
import { embeddedInvoice } from '../pdf/extract.js';
import { inspectPdf } from '../pdf/inspect.js';
import { despeckle, type GrayBitmap } from './bitmap.js';
import { openImage } from './decode-image.js';
import { openPdf, rasterisePage } from './rasterise-pdf.js';
import { isReadable } from './readable.js';
import { removeRules } from './rules.js';

/**
 * Everything that parses the untrusted file. It runs inside the sandbox child
 * (sandbox-child.ts), never in the service process: pdf-lib, pdfjs, the XML
 * parser and the PNG/JPEG/TIFF decoders see the bytes only there.
 */

export interface DocumentOutline {
  pageCount: number;
  /** The EN 16931 invoice a ZUGFeRD / Factur-X / XRechnung PDF carries as XML: exact, no page needs reading. */
  embedded?: Invoice;
  /** Pages whose own text layer is readable, ready for the analysis. */
  textPages: PageText[];
  /** Pages that need OCR, 1-based. */
  scanPages: number[];
}

export interface DocumentReader {
  outline: DocumentOutline;
  /** A page listed in `outline.scanPages`, rendered at OCR resolution. */
  render(page: number): Promise<GrayBitmap>;
}

export async function openDocument(bytes: Uint8Array, type: FileType): Promise<DocumentReader> {
  if (type !== 'pdf') {
    const image = await openImage(bytes, type);
    const scanPages = Array.from({ length: image.pageCount }, (_, i) => i + 1);
    return {
      outline: { pageCount: image.pageCount, textPages: [], scanPages },
      render: async (page) => forOcr(await image.decodePage(page - 1)),
    };
  }
  const embedded = await carriedInvoice(bytes);
  if (embedded) return { outline: { ...embedded, textPages: [], scanPages: [] }, render: notToRender };

  const layer = await extractTextLayer(bytes);
  const textPages = layer.filter((p) => isReadable(p.words));
  const scanPages = layer.filter((p) => !textPages.includes(p)).map((p) => p.page);
  const doc = scanPages.length > 0 ? await openPdf(bytes) : undefined;
  return {
    outline: { pageCount: layer.length, textPages, scanPages },
    render: async (page) => (doc && scanPages.includes(page) ? forOcr(await rasterisePage(doc, page)) : notToRender(page)),
  };
}

/**
 * The invoice XML attached to the PDF, read as extraction reads it (ZUGFeRD 1.0 migrated), so
 * that analysis and extraction agree. Anything else (no attachment, XML that does not fit
 * EN 16931, a PDF pdf-lib cannot open) means: read the pages instead.
 */
async function carriedInvoice(bytes: Uint8Array): Promise<{ pageCount: number; embedded: Invoice } | undefined> {
  try {
    const inspection = await inspectPdf(bytes, { withText: false });
    const invoice = embeddedInvoice(inspection.invoice)?.invoice;
    return invoice && { pageCount: inspection.facts.pageCount, embedded: invoice };
  } catch {
    return undefined;
  }
}

/** What tesseract reads best: no speckle, no table rules. */
function forOcr(page: GrayBitmap): GrayBitmap {
  return removeRules(despeckle(page));
}

function notToRender(page: number): Promise<GrayBitmap> {
  return Promise.reject(new RangeError(`Page ${page} is not a page to OCR`));
}
