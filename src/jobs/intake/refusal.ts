import type { FieldProblem } from '../../conversion/field-problem.js';
import type { RefusalDetails } from '../../conversion/refusal-details.js';

/**
 * Why a job was not done, in words every entry point can pass on: the API maps the code to its
 * HTTP status and envelope (src/api/errors.ts), a connector writes it into its report.
 */

export const REFUSAL_CODES = [
  'VALIDATION_ERROR',
  'INVOICE_INCOMPLETE',
  'FILE_MISSING',
  'FILE_TOO_LARGE',
  'UNSUPPORTED_FILE_TYPE',
  'NOT_FOUND',
  'TEMPLATE_NOT_FOUND',
  'TEMPLATE_INVALID',
  'XML_BUILD_FAILED',
  'PDF_UNREADABLE',
  'PDF_ENCRYPTED',
  'PDF_NOT_CONVERTIBLE',
  'INVOICE_XML_MISSING',
  'XML_NOT_ZUGFERD',
  'XML_UNREADABLE',
  'SENDER_NOT_ALLOWED',
  'ATTACHMENT_TOO_LARGE',
  'NOTHING_TO_RESEND',
  'PDF_NO_TEXT',
  'FILE_UNREADABLE',
  'FIELDS_MISSING',
  'FIELDS_UNCERTAIN',
  'TOTALS_MISMATCH',
  'ZUGFERD_INVALID',
  // An Idempotency-Key sent with another request before; the key's workflow still running.
  'IDEMPOTENCY_CONFLICT',
  'IDEMPOTENCY_IN_PROGRESS',
  // A review entry that is being built or was handled already.
  'REVIEW_CLOSED',
  // The job could not be run or finished: worth trying again later.
  'UPSTREAM_TIMEOUT',
  'SERVICE_UNAVAILABLE',
  'INTERNAL_ERROR',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

export const isRefusalCode = (code: string): code is RefusalCode => (REFUSAL_CODES as readonly string[]).includes(code);

export interface RefusalOptions {
  /** Replaces the entry point's standard text for the code. */
  userMessage?: string;
  detail?: string;
  /** The workflow step that refused. */
  stage?: string;
  fields?: FieldProblem[];
  /** What the workflow or activity attached to its failure (rule codes, the owner's language and text). */
  details?: RefusalDetails;
  cause?: unknown;
}

export class JobRefusal extends Error {
  constructor(
    readonly code: RefusalCode,
    readonly options: RefusalOptions = {},
  ) {
    super(options.detail ?? options.userMessage ?? code, { cause: options.cause });
    this.name = 'JobRefusal';
  }
}
