import type { FieldProblem } from '../conversion/field-problem.js';
import type { MailOutcome, MailRequest } from '../mail/types.js';
import type { Invoice } from '../invoice/model.js';
import type { FileType } from '../files/file-type.js';
import type { DocumentAnalysis } from './analysis.js';
import type { RequestContext } from './context.js';
import { convertOperation } from './convert.js';
import { defineOperation } from './operation.js';
import { QUICK } from './steps.js';

/**
 * A refused createZugferdFromPdf waiting for a person (workflows/review.ts): what was read and why
 * it was refused, until someone confirms or corrects the values and the e-invoice is created and
 * delivered where the refused one would have gone: a connector route's output folder, or, for
 * the account's own API calls (where it chose so), the created document's download link.
 */

/** Where the refused file came from, and so where its e-invoice goes. */
export type ReviewOrigin =
  | {
      kind: 'connector';
      /** The route whose file was refused, and the file as it lies now in the route's error folder. */
      route: string;
      file: { name: string; path: string; hash: string };
      /** The connectors' queue, where the route's source is read and written. */
      activityQueue: string;
    }
  | {
      kind: 'api';
      fileName: string;
      fileType: FileType;
      /** The upload, kept until the entry's time is up (src/storage/review-files.ts). */
      fileBlobKey: string;
    };

export interface ReviewConversionInput {
  ctx: RequestContext;
  origin: ReviewOrigin;
  refusal: ReviewRefusal;
  /** How long the entry waits for a person before it is dropped (a connector's file stays in error/). */
  keepDays: number;
}

export interface ReviewRefusal {
  code: string;
  message: string;
  /** The fields to confirm or add, each with the value read and the other candidates found. */
  fields?: FieldProblem[];
}

/** What the queue shows of one entry: enough to correct it without opening anything else. */
export interface ReviewEntry {
  origin: ReviewOrigin['kind'];
  /** A connector's entry: its route. */
  route?: string;
  fileName: string;
  fileType: FileType;
  /** Where the file is kept while it waits (a connector's is read again from its folder every day). */
  fileBlobKey: string;
  /** When the entry was made (ISO). */
  since: string;
  refusal: ReviewRefusal;
  /** The analysis of the file: the values read, their confidence and place, the candidates. */
  analysis: DocumentAnalysis;
  /** The last correction tried, and why it was refused again. */
  lastAttempt?: CorrectionRefused;
}

export interface CorrectionRefused {
  created: false;
  code: string;
  message: string;
  fields?: FieldProblem[];
  ruleCodes?: string[];
}

export type CorrectionAnswer = { created: true; documentId: string; mail?: MailOutcome } | CorrectionRefused;

export interface ReviewOutcome {
  status: 'created' | 'expired';
  documentId?: string;
  /** A connector's entry: where the input and the e-invoice went on the route's source. */
  inputPath?: string;
  resultPath?: string;
}

/** A corrected invoice, as a person sends it. */
export interface Correction {
  invoice: Invoice;
  /** How long the person took, from opening the entry to sending this (the page measures it), for the queue's statistics. */
  seconds?: number;
  /** The e-mail the person asked for: the created e-invoice sent as createZugferdFromJson's transport sends it. */
  mail?: MailRequest;
}

/**
 * The refusals a person can settle by typing values: the others (an unreadable file, a page
 * without text) need another file.
 */
export const REVIEWABLE = new Set(['FIELDS_MISSING', 'FIELDS_UNCERTAIN', 'TOTALS_MISMATCH', 'ZUGFERD_INVALID']);

/** Its id is `review-<the connector file's workflow id>` or `review-<the request id>`: one entry per refused file. */
export const reviewOperation = defineOperation<ReviewConversionInput, ReviewOutcome>()({
  name: 'reviewConversion',
  workflowType: 'reviewConversion',
  steps: { ...convertOperation.steps, keepLabelledExample: QUICK },
});
