import type { FieldSource } from '../analysis/sources.js';
import type { Place } from '../analysis/where-read.js';
import type { FileType } from '../files/file-type.js';
import type { Invoice } from '../invoice/model.js';
import type { RequestContext } from './context.js';
import { defineOperation } from './operation.js';
import { QUICK, READING } from './steps.js';

/** Invoice analysis: a PDF or image → the invoice it shows, with calibrated confidences. */

export interface AnalyseDocumentInput {
  ctx: RequestContext;
  fileBlobKey: string;
  fileType: FileType;
  /** Also read the line items (BG-25). */
  withLineItems: boolean;
}

/** Where the data came from; for logs and the workflow summary. */
export type AnalysisSource = 'embedded-xml' | 'text-layer' | 'ocr' | 'text-layer+ocr';

export interface DocumentAnalysis {
  /** 0..1; exactly 1 for invoice XML embedded in the PDF. */
  extractionConfidence: number;
  /** Only the fields found, in the model's form (ISO dates, decimal strings). */
  invoice: Invoice;
  pageCount: number;
  source: AnalysisSource;
  /** Per field read from the pages (path with indices): its confidence and whether it was printed, inferred or a default. Absent for embedded XML. */
  fields?: Record<string, FieldReport>;
  /** Per field a person may have to confirm, the other readings found (src/analysis/result.ts). */
  candidates?: Record<string, string[]>;
  /** Parts the pages print that were not read (src/analysis/result.ts). */
  unread?: string[];
  /** The language of the pages, when one clearly leads. */
  language?: string;
}

export interface FieldReport {
  confidence: number;
  source: FieldSource;
  /** Where a printed value stands on the page, when it was found there unambiguously. */
  place?: Place;
}

/**
 * Reading a document is seconds per page and may wait for a busy OCR worker; the activity
 * heartbeats meanwhile, so a dead worker is noticed within a minute. A file that cannot be read
 * fails for good (non-retryable failure from the activity); one more attempt covers a worker lost
 * mid-way.
 */
export const ANALYSIS_STEPS = { analyseDocument: READING, discardBlobs: QUICK };

const analysis = { workflowType: 'analyseInvoiceFile', steps: ANALYSIS_STEPS };
const define = defineOperation<AnalyseDocumentInput, DocumentAnalysis>();

/** Waited for (V2). The three share their workflow; the name tells them apart in Temporal. */
export const analyseOperation = define({ name: 'createJSONFromAnalysedPdf', ...analysis });
/** Waited for, answered in the V1 shape. */
export const analyseV1Operation = define({ name: 'createJSONFromAnalysedPdfV1', ...analysis });
/** Started as a job whose id is the workflow's; polled for its state. */
export const analyseAsyncOperation = define({ name: 'createJSONFromAnalysedPdfAsync', ...analysis });
