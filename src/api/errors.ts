import { z } from 'zod';
import type { FieldProblem } from '../conversion/field-problem.js';
import type { JobRefusal } from '../jobs/intake/refusal.js';

/**
 * The one error envelope of every endpoint:
 *   { success: false, error: { code, userMessage, reference, stage?, retryable, detail?, fields? } }
 * `reference` is the request id: it appears in the logs and in the id of the
 * Temporal workflow the request started, so support can find both.
 */

interface ErrorKind {
  status: number;
  retryable: boolean;
  userMessage: string;
}

/** The catalogue. docs/errors.md documents it; keep the two in step. */
export const ERROR_CODES = {
  INVALID_JSON: { status: 400, retryable: false, userMessage: 'The request body is not valid JSON.' },
  BAD_REQUEST: { status: 400, retryable: false, userMessage: 'The request is not valid HTTP.' },
  HEADERS_TOO_LARGE: { status: 431, retryable: false, userMessage: 'The request headers are larger than 256 KiB together.' },
  VALIDATION_ERROR: { status: 400, retryable: false, userMessage: 'The request does not match the interface; see fields.' },
  UNSUPPORTED_CONTENT_TYPE: { status: 415, retryable: false, userMessage: 'Send the request body as application/json.' },
  BODY_TOO_LARGE: { status: 413, retryable: false, userMessage: 'The request body is larger than this endpoint accepts.' },
  FILE_MISSING: { status: 400, retryable: false, userMessage: 'No file was sent.' },
  INVALID_BASE64: { status: 400, retryable: false, userMessage: 'The file is not valid base64.' },
  FILE_TOO_LARGE: { status: 413, retryable: false, userMessage: 'The file is larger than 11 MB.' },
  UNSUPPORTED_FILE_TYPE: { status: 415, retryable: false, userMessage: 'The file type is not supported.' },
  AUTH_MISSING: { status: 401, retryable: false, userMessage: 'Send your access token as "Authorization: Bearer <token>".' },
  AUTH_INVALID: { status: 401, retryable: false, userMessage: 'The access token is unknown, malformed or revoked.' },
  AUTH_SCHEME_INVALID: { status: 403, retryable: false, userMessage: 'Only "Authorization: Bearer <token>" is accepted.' },
  LINK_INVALID: { status: 403, retryable: false, userMessage: 'The download link is invalid or has expired.' },
  NOT_FOUND: { status: 404, retryable: false, userMessage: 'Not found.' },
  METHOD_NOT_ALLOWED: { status: 405, retryable: false, userMessage: 'This method is not allowed on this path.' },
  IDEMPOTENCY_CONFLICT: { status: 409, retryable: false, userMessage: 'This Idempotency-Key was used with a different request body.' },
  REVIEW_CLOSED: {
    status: 409,
    retryable: false,
    userMessage: 'This invoice is being created from another correction, or has been created already.',
  },
  IDEMPOTENCY_IN_PROGRESS: {
    status: 409,
    retryable: true,
    userMessage: 'A request with this Idempotency-Key is still being processed; retry shortly.',
  },
  INVOICE_INCOMPLETE: {
    status: 412,
    retryable: false,
    userMessage: 'The invoice lacks mandatory fields that EN 16931 requires; see errorlist.',
  },
  TEMPLATE_NOT_FOUND: {
    status: 422,
    retryable: false,
    userMessage: 'There is no template with this templateId; GET /api/v1/templates lists them.',
  },
  TEMPLATE_INVALID: {
    status: 422,
    retryable: false,
    userMessage: 'The template cannot be used: its definition has problems (see detail); the operator has to fix it.',
  },
  XML_BUILD_FAILED: { status: 422, retryable: false, userMessage: 'The invoice could not be written as XML.' },
  PDF_UNREADABLE: { status: 422, retryable: false, userMessage: 'The PDF cannot be read or processed.' },
  PDF_ENCRYPTED: {
    status: 422,
    retryable: false,
    userMessage: 'The PDF is encrypted (a password or restrictions); send it without encryption.',
  },
  PDF_NOT_CONVERTIBLE: {
    status: 422,
    retryable: false,
    userMessage: 'The PDF cannot be made PDF/A-3b conformant; no ZUGFeRD file was created.',
  },
  INVOICE_XML_MISSING: { status: 422, retryable: false, userMessage: 'The PDF carries no ZUGFeRD / Factur-X / XRechnung invoice XML.' },
  XML_UNREADABLE: { status: 422, retryable: false, userMessage: 'The XML is not a readable CII or UBL invoice (see detail).' },
  XML_NOT_ZUGFERD: {
    status: 422,
    retryable: false,
    userMessage: 'The XML cannot be embedded: ZUGFeRD / Factur-X carry UN/CEFACT CII with a known profile.',
  },
  SENDER_NOT_ALLOWED: { status: 403, retryable: false, userMessage: 'This account may not send e-mail from this sender address.' },
  ATTACHMENT_TOO_LARGE: { status: 413, retryable: false, userMessage: 'An e-mail attachment is larger than allowed.' },
  RESEND_TOKEN_INVALID: { status: 403, retryable: false, userMessage: 'The resend token is invalid.' },
  NOTHING_TO_RESEND: {
    status: 409,
    retryable: false,
    userMessage: 'No e-mail was sent with this document, so there is none to send again.',
  },
  PDF_NO_TEXT: {
    status: 422,
    retryable: false,
    userMessage: 'No readable text was found in the file, not even by OCR. Send a PDF with a text layer or a sharper scan (300 dpi).',
  },
  FILE_UNREADABLE: { status: 422, retryable: false, userMessage: 'The file is damaged or too complex to read.' },
  FIELDS_MISSING: { status: 422, retryable: false, userMessage: 'Mandatory invoice data was not found on the page; see fields.' },
  FIELDS_UNCERTAIN: {
    status: 422,
    retryable: false,
    userMessage: 'Mandatory invoice data could not be read reliably from the scan; see fields.',
  },
  TOTALS_MISMATCH: {
    status: 422,
    retryable: false,
    userMessage: 'The totals printed on the invoice do not match its lines; no e-invoice was created.',
  },
  ZUGFERD_INVALID: {
    status: 422,
    retryable: false,
    userMessage: 'The e-invoice built from the page does not pass validation; see ruleCodes.',
  },
  UPSTREAM_TIMEOUT: { status: 504, retryable: true, userMessage: 'The operation took too long; it may still finish. Try again later.' },
  SERVICE_UNAVAILABLE: { status: 503, retryable: true, userMessage: 'The service is temporarily unavailable. Try again shortly.' },
  INTERNAL_ERROR: { status: 500, retryable: true, userMessage: 'An unexpected error occurred.' },
} as const satisfies Record<string, ErrorKind>;

export type ErrorCode = keyof typeof ERROR_CODES;

export interface ApiErrorOptions {
  userMessage?: string;
  detail?: string;
  stage?: string;
  fields?: FieldProblem[];
  cause?: unknown;
}

export class ApiError extends Error {
  readonly status: number;
  readonly retryable: boolean;
  readonly userMessage: string;

  constructor(
    readonly code: ErrorCode,
    readonly options: ApiErrorOptions = {},
  ) {
    const kind = ERROR_CODES[code];
    super(options.detail ?? options.userMessage ?? kind.userMessage, { cause: options.cause });
    this.status = kind.status;
    this.retryable = kind.retryable;
    this.userMessage = options.userMessage ?? kind.userMessage;
  }
}

/** A job's refusal in the API's terms; the refusal stays the cause, with the details a route may shape further. */
export function fromRefusal(refusal: JobRefusal): ApiError {
  const { userMessage, detail, stage, fields } = refusal.options;
  return new ApiError(refusal.code, {
    ...(userMessage ? { userMessage } : {}),
    ...(detail ? { detail } : {}),
    ...(stage ? { stage } : {}),
    ...(fields ? { fields } : {}),
    cause: refusal,
  });
}

/** One problem with one field; a conversion refused for values in conflict (FIELDS_UNCERTAIN) also gives what was read. */
export const fieldProblemSchema = z.object({
  field: z.string().meta({ description: 'Path of the field (`invoice.buyer.buyerName`)' }),
  bt: z.string().optional().meta({ description: 'Its EN 16931 business term (BT-44)' }),
  message: z.string(),
  value: z.string().optional().meta({
    description:
      "What was read from the page, when it conflicts with another value (the buyer's name equal to the seller's, a label read as a name, a due date before the invoice date)",
  }),
  candidates: z.array(z.string()).optional().meta({
    description: 'The other values the page offered for the field, when the analysis found any: what a person may confirm instead',
  }),
});

export const errorEnvelopeSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().meta({
        description: `Machine-readable code:\n\n| code | HTTP | retryable |\n|---|---|---|\n${Object.entries(ERROR_CODES)
          .map(([code, kind]) => `| ${code} | ${kind.status} | ${kind.retryable} |`)
          .join('\n')}`,
        'x-codes': Object.fromEntries(
          Object.entries(ERROR_CODES).map(([code, kind]) => [code, { httpStatus: kind.status, retryable: kind.retryable }]),
        ),
      }),
      userMessage: z.string().meta({ description: 'Human-readable explanation' }),
      reference: z.string().meta({ description: 'Request id; also in logs and the Temporal workflow id' }),
      retryable: z.boolean(),
      stage: z.string().optional(),
      detail: z.string().optional(),
      fields: z.array(fieldProblemSchema).optional(),
    }),
  })
  .meta({ id: 'ErrorEnvelope' });

export type ErrorEnvelope = z.infer<typeof errorEnvelopeSchema>;

/**
 * INVOICE_INCOMPLETE (412) also answers in the fields the RechnungsAPI client turns into its
 * ValidationFailedError: `message`, `noOfMissingData` and `errorlist`, beside the envelope.
 */
export const invoiceIncompleteSchema = errorEnvelopeSchema
  .extend({
    message: z.string().meta({ description: 'What is wrong, in words (the same as error.userMessage)' }),
    noOfMissingData: z.int().meta({ description: 'How many mandatory fields are missing' }),
    errorlist: z.array(fieldProblemSchema).meta({
      description:
        'One item per missing field: its JSON path in the request (field), its business term or group (bt) and the EN 16931 rule that requires it (message)',
    }),
  })
  .meta({ id: 'InvoiceIncomplete' });

export function toEnvelope(err: ApiError, reference: string): ErrorEnvelope {
  const envelope = envelopeOf(err, reference);
  if (err.code !== 'INVOICE_INCOMPLETE') return envelope;
  const missing = err.options.fields ?? [];
  return { ...envelope, message: err.userMessage, noOfMissingData: missing.length, errorlist: missing } as ErrorEnvelope;
}

function envelopeOf(err: ApiError, reference: string): ErrorEnvelope {
  return {
    success: false,
    error: {
      code: err.code,
      userMessage: err.userMessage,
      reference,
      retryable: err.retryable,
      ...(err.options.stage ? { stage: err.options.stage } : {}),
      ...(err.options.detail ? { detail: err.options.detail } : {}),
      ...(err.options.fields ? { fields: err.options.fields } : {}),
    },
  };
}
