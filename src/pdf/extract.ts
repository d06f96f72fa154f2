import type { Invoice } from '../invoice/model.js';
import { parseInvoiceXml, type SyntaxId } from '../xml/index.js';
import type { PdfInspection } from './inspect.js';
import { profileFromGuideline, type DetectedProfile } from './profiles.js';
import { guidelineOf, isZugferd1, migrateZugferd1 } from './zugferd1.js';

/**
 * The invoice a PDF carries, read one way for every reader: extraction (extractZugferdInvoice),
 * validation and the document analysis. Its own module, without the validators and converters,
 * because the analysis runs it in its sandbox child.
 */

export interface ExtractedInvoice {
  xml: string;
  fileName: string;
  detected: DetectedProfile;
  syntax?: SyntaxId;
  /** Absent when the XML does not map onto the invoice model; `problem` says why. */
  invoice?: Invoice;
  problem?: string;
}

/** The invoice of an inspected PDF, or undefined when the PDF carries none. */
export function embeddedInvoice(found: PdfInspection['invoice']): ExtractedInvoice | undefined {
  if (!found) return undefined;
  const detected = detectProfile(found.xml);
  const base = { xml: found.xml, fileName: found.attachment.name, detected };
  try {
    const parsed = readInvoice(found.xml, detected);
    return { ...base, syntax: parsed.syntax, invoice: parsed.invoice };
  } catch (err) {
    return { ...base, problem: `The embedded XML does not map onto the invoice model: ${(err as Error).message}` };
  }
}

export function detectProfile(xml: string): DetectedProfile {
  return profileFromGuideline(guidelineOf(xml), isZugferd1(xml));
}

/** ZUGFeRD 1.0 is migrated to CII D16B first; everything else is read as it is. */
export function readInvoice(xml: string, detected: DetectedProfile): ReturnType<typeof parseInvoiceXml> {
  return parseInvoiceXml(detected.generation === 'ZUGFeRD 1.0' ? migrateZugferd1(xml) : xml);
}
