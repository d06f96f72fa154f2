import type { ConversionProfile, FilledField } from '../conversion/convertible.js';
import type { AttachmentNote } from '../pdf/attachments.js';
import { ANALYSIS_STEPS, type AnalyseDocumentInput } from './analysis.js';
import { defineOperation } from './operation.js';
import { PDF, QUICK } from './steps.js';
import { ZUGFERD_BUILD_STEPS } from './zugferd.js';

/** createZugferdFromPdf: an invoice PDF or scan → a validated ZUGFeRD PDF/A-3, or a refusal that says what to fix. */

export interface ConvertToZugferdInput extends Omit<AnalyseDocumentInput, 'withLineItems'> {
  /** Name of the stored result, `<name>-zugferd.pdf`. */
  fileName: string;
}

export interface ConvertToZugferdResult {
  documentId: string;
  pdfBlobKey: string;
  profile: ConversionProfile;
  pageCount: number;
  /** Values the page did not print: inferred from it, or defaults. */
  filled: FilledField[];
  /** What became of files the input PDF carried (kept as associated files, replaced, dropped). */
  attachments: AttachmentNote[];
  /** How many of the input's fonts are drawn in Ghostscript's own typefaces (their programs broke PDF/A). */
  substitutedFonts: number;
}

/** The analysis' steps, then local work; images → PDF runs in the PDF worker. */
export const convertOperation = defineOperation<ConvertToZugferdInput, ConvertToZugferdResult>()({
  name: 'createZugferdFromPdf',
  workflowType: 'convertToZugferd',
  steps: {
    ...ANALYSIS_STEPS,
    ...ZUGFERD_BUILD_STEPS,
    prepareZugferdInvoice: QUICK,
    buildInvoiceXml: QUICK,
    storeDocument: QUICK,
    imagesToPdfDocument: PDF,
  },
});
