import { z } from 'zod';
import { failureEmail } from './failure-mail.js';
import type { RefusalDetails } from '../conversion/refusal-details.js';
import { JobRefusal } from '../jobs/intake/refusal.js';
import { ERROR_CODES, fieldProblemSchema, type ApiError, type ErrorCode } from './errors.js';
import type { RouteResult } from './route.js';
import { ruleSetOf } from './validation-messages.js';

/**
 * createZugferdFromPdf's failure answer in the terms of the RechnungsAPI client, which branches
 * on `error.code` and `error.stage`: its catalogue of codes and stages. Our own, finer code stays
 * beside it as `reason`, so a caller of either kind finds what it looks for.
 */

export const CONVERSION_STAGES = ['input', 'access', 'analyse', 'missing', 'verify', 'zugferd', 'deliver', 'unknown'] as const;
type Stage = (typeof CONVERSION_STAGES)[number];

interface ConversionCode {
  /** Where it happens, unless the step that failed says otherwise (temporary and unknown errors). */
  stage?: Stage;
  retryable: boolean;
  /** Our codes (`reason`) that this code stands for; their HTTP statuses are the code's. */
  reasons: readonly ErrorCode[];
  description: string;
}

/** The client's catalogue. Every code of ours maps to exactly one of these. */
export const CONVERSION_CODES = {
  INVALID_REQUEST: {
    stage: 'input',
    retryable: false,
    reasons: [
      'INVALID_JSON',
      'BAD_REQUEST',
      'HEADERS_TOO_LARGE',
      'VALIDATION_ERROR',
      'UNSUPPORTED_CONTENT_TYPE',
      'FILE_MISSING',
      'INVALID_BASE64',
      'UNSUPPORTED_FILE_TYPE',
      'IDEMPOTENCY_CONFLICT',
    ],
    description: 'The request or its file is not what the endpoint takes, or its Idempotency-Key was sent with another request',
  },
  FILE_TOO_LARGE: {
    stage: 'input',
    retryable: false,
    reasons: ['FILE_TOO_LARGE', 'BODY_TOO_LARGE'],
    description: 'The file is above 11 MiB decoded, or the body above 16 MB',
  },
  UNAUTHORIZED: {
    stage: 'access',
    retryable: false,
    reasons: ['AUTH_MISSING', 'AUTH_INVALID', 'AUTH_SCHEME_INVALID'],
    description: 'No token, an unknown or revoked one, or not sent as "Authorization: Bearer"',
  },
  PDF_ENCRYPTED: {
    stage: 'input',
    retryable: false,
    reasons: ['PDF_ENCRYPTED'],
    description: 'The PDF is encrypted (a password or restrictions)',
  },
  PDF_CORRUPT: {
    stage: 'analyse',
    retryable: false,
    reasons: ['PDF_UNREADABLE', 'FILE_UNREADABLE'],
    description: 'The file is damaged or too complex to read',
  },
  PDF_NO_TEXT: { stage: 'analyse', retryable: false, reasons: ['PDF_NO_TEXT'], description: 'No readable text, not even by OCR' },
  EXTRACTION_LOW_CONFIDENCE: {
    stage: 'analyse',
    retryable: false,
    reasons: ['FIELDS_UNCERTAIN'],
    description:
      'From a scan, the invoice number, date, net or gross total was read with a confidence below 0.75; or values read contradict each other ' +
      "(seller and buyer with one name, VAT id or address, a label or placeholder as a party's name, a total's sign against the type code, " +
      'a due date before the invoice date, a delivery more than a year after it): `fields` names each with `value` and `candidates`',
  },
  MISSING_MANDATORY_FIELDS: {
    stage: 'missing',
    retryable: false,
    reasons: ['FIELDS_MISSING'],
    description: 'A mandatory detail is not on the page (`fields`)',
  },
  VERIFICATION_FAILED: {
    stage: 'verify',
    retryable: false,
    reasons: ['TOTALS_MISMATCH'],
    description: 'The printed totals differ from what the lines add up to (`fields`)',
  },
  ZUGFERD_REJECTED: {
    stage: 'zugferd',
    retryable: false,
    reasons: ['ZUGFERD_INVALID', 'PDF_NOT_CONVERTIBLE', 'XML_BUILD_FAILED'],
    description: 'The e-invoice built from the page breaks a rule (`ruleCodes`, `explanations`), or the pages cannot be made PDF/A-3',
  },
  PROCESSING_TEMPORARY_ERROR: {
    retryable: true,
    reasons: ['SERVICE_UNAVAILABLE', 'UPSTREAM_TIMEOUT', 'IDEMPOTENCY_IN_PROGRESS'],
    description:
      'A temporary problem on our side, or the request with this Idempotency-Key still running; send the file again later (with the same key: its result)',
  },
  UNKNOWN_ERROR: { retryable: true, reasons: ['INTERNAL_ERROR'], description: 'An unexpected error; `reference` finds it in the log' },
} as const satisfies Record<string, ConversionCode>;

export type ConversionCodeName = keyof typeof CONVERSION_CODES;

const CODE_OF = new Map<string, ConversionCodeName>(
  (Object.entries(CONVERSION_CODES) as Array<[ConversionCodeName, ConversionCode]>).flatMap(([code, c]) =>
    c.reasons.map((r): [string, ConversionCodeName] => [r, code]),
  ),
);

/** The HTTP statuses a code is answered with: those of its reasons. */
export function statusesOf(code: ConversionCodeName): number[] {
  return [...new Set((CONVERSION_CODES[code] as ConversionCode).reasons.map((r) => ERROR_CODES[r].status))].sort();
}

/** The workflow steps, by the stage of the client's vocabulary they belong to. */
const STEP_STAGE: Readonly<Record<string, Stage>> = {
  analyseDocument: 'analyse',
  prepareZugferdInvoice: 'verify',
  imagesToPdfDocument: 'zugferd',
  buildInvoiceXml: 'zugferd',
  buildZugferdPdf: 'zugferd',
  validateZugferdPdf: 'zugferd',
  storeDocument: 'deliver',
  discardBlobs: 'deliver',
};

export const conversionFailureSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.enum(Object.keys(CONVERSION_CODES) as [ConversionCodeName, ...ConversionCodeName[]]).meta({
        description: `The RechnungsAPI client's catalogue:\n\n| code | HTTP | retryable | when | reason |\n|---|---|---|---|---|\n${(
          Object.entries(CONVERSION_CODES) as Array<[ConversionCodeName, ConversionCode]>
        )
          .map(([code, c]) => `| ${code} | ${statusesOf(code).join(', ')} | ${c.retryable} | ${c.description} | ${c.reasons.join(', ')} |`)
          .join('\n')}`,
        'x-codes': Object.fromEntries(
          (Object.entries(CONVERSION_CODES) as Array<[ConversionCodeName, ConversionCode]>).map(([code, c]) => [
            code,
            { httpStatus: statusesOf(code), retryable: c.retryable, reasons: c.reasons },
          ]),
        ),
      }),
      reason: z.string().meta({
        description:
          "This service's finer code (FIELDS_MISSING, TOTALS_MISMATCH, ZUGFERD_INVALID, PDF_NOT_CONVERTIBLE, …; see the catalogue in docs/errors.md)",
      }),
      stage: z.enum(CONVERSION_STAGES).meta({ description: 'Where it failed' }),
      step: z.string().optional().meta({
        description:
          'The workflow activity that refused (analyseDocument, prepareZugferdInvoice, buildZugferdPdf, validateZugferdPdf, …), when one did',
      }),
      httpStatus: z.int(),
      retryable: z.boolean(),
      userMessage: z.string(),
      detail: z.string().min(1),
      reference: z.string().meta({ description: 'Request id; also in logs and the Temporal workflow id' }),
      fields: z.array(fieldProblemSchema).optional().meta({
        description:
          'Fields missing, uncertain or in conflict with another (with `value` and `candidates`), or totals that disagree with the lines',
      }),
      ruleCodes: z
        .array(z.string())
        .optional()
        .meta({ description: 'Validation rules the built document broke (EN 16931, XRechnung, PDF/A)' }),
      explanations: z
        .array(
          z.object({
            code: z.string(),
            found: z.boolean(),
            title: z.string(),
            description: z.string(),
            source: z.string().optional(),
            file: z.string().optional(),
          }),
        )
        .optional()
        .meta({
          description:
            'One per rule code: what the rule asks (found: whether its text is known), its source (en16931, xrechnung, profile, xsd, pdf) and rule set (file)',
        }),
      extractionConfidence: z
        .number()
        .min(0)
        .max(1)
        .optional()
        .meta({ description: "The analysis' confidence, for failures after the analysis" }),
    }),
    email: z
      .object({ subject: z.string(), text: z.string(), html: z.string() })
      .meta({ description: 'A message for the owner of the invoice, ready to send' }),
  })
  .meta({ id: 'ConversionFailure' });

/** The failure answer: the client's code and stage, our reason, every detail the refusal carries, and the e-mail. */
export function conversionFailure(err: ApiError, reference: string, fileName: string): RouteResult {
  const details = refusalDetails(err);
  const code = CODE_OF.get(err.code) ?? 'UNKNOWN_ERROR';
  const step = err.options.stage ?? details.stage;
  const catalogued = CONVERSION_CODES[code] as ConversionCode;
  const fields = err.options.fields ?? details.fields;
  const userMessage = details.userMessage ?? err.userMessage;
  const explanations = (details.ruleCodes ?? []).map((ruleCode) => {
    const finding = details.findings?.find((f) => f.ruleId === ruleCode);
    if (!finding) return { code: ruleCode, found: false, title: ruleCode, description: '' };
    const file = ruleSetOf(finding, details.artefacts ?? []);
    return {
      code: ruleCode,
      found: true,
      title: `${ruleCode} (${finding.source})`,
      description: finding.message,
      source: finding.source,
      ...(file ? { file } : {}),
    };
  });
  const error = {
    code,
    reason: err.code,
    stage: catalogued.stage ?? (step ? STEP_STAGE[step] : undefined) ?? 'unknown',
    ...(step ? { step } : {}),
    httpStatus: err.status,
    retryable: catalogued.retryable,
    userMessage,
    detail: err.options.detail ?? err.userMessage,
    reference,
    ...(fields?.length ? { fields } : {}),
    ...(details.ruleCodes?.length ? { ruleCodes: details.ruleCodes } : {}),
    ...(explanations.length ? { explanations } : {}),
    ...(details.extractionConfidence !== undefined ? { extractionConfidence: details.extractionConfidence } : {}),
  };
  // Internal details (stack-like messages) stay out of a mail meant for a bookkeeper, and so does the
  // technical English detail when the owner's message already says it in their language.
  const email = failureEmail(
    fileName,
    { ...error, code: err.code, detail: err.status >= 500 || details.userMessage ? undefined : err.options.detail },
    details.language,
  );
  return { status: err.status, body: { success: false, error, email } };
}

/** The details a workflow or activity attached to the refusal that ended the job. */
function refusalDetails(err: ApiError): RefusalDetails {
  return err.cause instanceof JobRefusal ? (err.cause.options.details ?? {}) : {};
}
