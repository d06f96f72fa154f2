import { findInvoiceAttachment, readPdf, type PdfAttachment, type PdfFacts } from './read.js';
import { visibleText } from './visible-text.js';

/**
 * One pass over an untrusted PDF for extraction and validation: its facts, the invoice XML it
 * carries (decoded to text), and, when asked, its visible text. Runs inside the isolated worker.
 */

export interface PdfInspection {
  /** Attachments without their bytes: the invoice is in `invoice`, the rest is not needed. */
  facts: PdfFacts;
  invoice?: { attachment: PdfAttachment; xml: string };
  text?: string;
}

export async function inspectPdf(bytes: Uint8Array, opts: { withText: boolean }): Promise<PdfInspection> {
  const facts = await readPdf(bytes);
  const found = findInvoiceAttachment(facts.attachments);
  const strip = ({ bytes: _bytes, ...rest }: PdfAttachment): PdfAttachment => rest;
  return {
    facts: { ...facts, attachments: facts.attachments.map(strip) },
    ...(found?.bytes ? { invoice: { attachment: strip(found), xml: decodeXml(found.bytes) } } : {}),
    ...(opts.withText ? { text: await visibleText(bytes) } : {}),
  };
}

/**
 * XML text in the encoding its declaration names (UTF-8 when it names none or one this runtime
 * cannot decode); a byte-order mark is dropped.
 */
export function decodeXml(bytes: Uint8Array): string {
  const head = Buffer.from(bytes.subarray(0, 200)).toString('latin1');
  const declared = /^(?:\uFEFF|\u00EF\u00BB\u00BF)?<\?xml[^>]*encoding=["']([A-Za-z0-9._-]+)["']/.exec(head)?.[1];
  let encoding = 'utf-8';
  try {
    encoding = new TextDecoder(declared ?? 'utf-8').encoding;
  } catch {
    // An encoding this runtime does not know: read as UTF-8, the XML default.
  }
  return new TextDecoder(encoding).decode(bytes).replace(/^\uFEFF/, '');
}
