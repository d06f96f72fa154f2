import { z } from 'zod';
import type { FilledField } from '../../analysis-api/convertible.js';
import { failureEmail } from '../../analysis-api/failure-mail.js';
import { attachmentDisposition, DEFAULT_FILE_NAME, sanitiseFileName } from '../../analysis-api/file-name.js';
import type { RefusalDetails } from '../../jobs/contracts.js';
import { convertPdfToZugferd } from '../../jobs/convert.js';
import { MAX_CONVERT_FILE_BYTES } from '../../jobs/file.js';
import { JobRefusal } from '../../jobs/refusal.js';
import type { AttachmentNote } from '../../pdf/attachments.js';
import { ERROR_CODES, type ApiError } from '../errors.js';
import { FILE_FIELD_ALIASES, readFileField } from '../file-input.js';
import { defineRoute, jobOf, type RouteResult } from '../route.js';
import type { Services } from '../services.js';
import { fileFields } from './analysis.js';

const failureSchema = z
  .object({
    success: z.literal(false),
    error: z.object({
      code: z.string().meta({ description: 'Machine-readable code, see the catalogue in README.md' }),
      stage: z.string().meta({ description: '"request" for input problems, else the workflow step that refused: analyseDocument, prepareZugferdInvoice, buildZugferdPdf, validateZugferdPdf, …' }),
      httpStatus: z.int(),
      retryable: z.boolean(),
      userMessage: z.string(),
      detail: z.string().optional(),
      reference: z.string().meta({ description: 'Request id; also in logs and the Temporal workflow id' }),
      fields: z.array(z.object({ field: z.string(), bt: z.string().optional(), message: z.string() })).optional().meta({ description: 'Fields missing, or totals that disagree with the lines' }),
      ruleCodes: z.array(z.string()).optional().meta({ description: 'Validation rules the built document broke (EN 16931, XRechnung, PDF/A)' }),
    }),
    email: z.object({ subject: z.string(), text: z.string(), html: z.string() }).meta({ description: 'A message for the owner of the invoice, ready to send' }),
  })
  .meta({ id: 'ConversionFailure' });

export function convertRoutes(services: Services) {
  return [
    defineRoute({
      method: 'POST',
      path: '/createZugferdFromPdf',
      operationId: 'createZugferdFromPdf',
      summary: 'Turn an invoice PDF or scan into a validated ZUGFeRD PDF/A-3 in one call',
      description:
        'Analyses the file (text layer or OCR), completes what the page leaves implicit, refuses when mandatory fields are missing or the printed totals differ from the lines, ' +
        'embeds EN 16931 CII (profile EN16931; XRECHNUNG when the buyer reference is a Leitweg-ID) into the original pages as PDF/A-3 and validates the result. ' +
        'Success: the PDF itself. Failure: JSON with the reason and an e-mail for the invoice owner. Set client timeouts to 600 s. Usage: one record per page for the analysis and one per page for the build, on success only.',
      tags: ['ZUGFeRD'],
      auth: 'bearer',
      body: z.object({ ...fileFields, fileName: z.string().max(10_000).optional().meta({ description: `Original file name; names the result <name>-zugferd.pdf and the e-mail. Default ${DEFAULT_FILE_NAME}.` }) }).strict(),
      responses: {
        200: {
          description:
            'The ZUGFeRD PDF (headers X-Zugferd-Status: success, X-Zugferd-Reference, X-Zugferd-Profile; X-Zugferd-Inferred and X-Zugferd-Defaults list the business terms, e.g. "BT-55, BT-151", ' +
            'whose values the page did not print but implied, or that took a default; empty when none. The inferred ones are also named in a note (BT-22) of the embedded XML. ' +
            'X-Zugferd-Attachments counts what became of files the input PDF carried: kept as PDF/A-3 associated files, replaced (an older invoice XML) or dropped (unreadable); ' +
            'X-Zugferd-Substituted-Fonts counts the fonts whose embedded programs contradicted their widths, which PDF/A forbids, and which are therefore drawn in a close typeface of Ghostscript\'s, at the same widths)',
          contentType: 'application/pdf',
        },
        ...Object.fromEntries([400, 401, 403, 413, 415, 422, 500, 503, 504].map((s) => [s, { description: `Refused (${codesOf(s).join(', ')})`, schema: failureSchema }])),
      },
      async handle({ body, principal, request }) {
        const file = readFileField(body, { fields: FILE_FIELD_ALIASES, maxBytes: MAX_CONVERT_FILE_BYTES }).bytes;
        const result = await convertPdfToZugferd(services, jobOf(principal, request), { file, fileName: sanitiseFileName(body.fileName) });
        return {
          body: result.pdf,
          contentType: 'application/pdf',
          headers: {
            'Content-Disposition': attachmentDisposition(result.fileName),
            'X-Zugferd-Status': 'success',
            'X-Zugferd-Reference': request.requestId,
            'X-Zugferd-Profile': result.profile,
            'X-Zugferd-Inferred': termsOf(result.filled, 'inferred'),
            'X-Zugferd-Defaults': termsOf(result.filled, 'default'),
            'X-Zugferd-Attachments': attachmentCounts(result.attachments),
            'X-Zugferd-Substituted-Fonts': String(result.substitutedFonts),
            'Cache-Control': 'private, no-store',
          },
        };
      },
      failure: (err, { request, body }) => conversionFailure(err, request.requestId, sanitiseFileName((body as { fileName?: unknown } | undefined)?.fileName)),
    }),
  ];
}

/** SPEC.md's failure answer: the error with stage, status, fields and rule codes, and the e-mail. */
function conversionFailure(err: ApiError, reference: string, fileName: string): RouteResult {
  const details = refusalDetails(err);
  const fields = err.options.fields ?? details.fields;
  const error = {
    code: err.code,
    stage: err.options.stage ?? details.stage ?? (err.status < 500 ? 'request' : 'service'),
    httpStatus: err.status,
    retryable: err.retryable,
    userMessage: details.userMessage ?? err.userMessage,
    ...(err.options.detail ? { detail: err.options.detail } : {}),
    reference,
    ...(fields?.length ? { fields } : {}),
    ...(details.ruleCodes?.length ? { ruleCodes: details.ruleCodes } : {}),
  };
  // Internal details (stack-like messages) stay out of a mail meant for a bookkeeper, and so does the
  // technical English detail when the owner's message already says it in their language.
  const email = failureEmail(fileName, { ...error, ...(err.status >= 500 || details.userMessage ? { detail: undefined } : {}) }, details.language);
  return { status: err.status, body: { success: false, error, email } };
}

/** The details a workflow or activity attached to the refusal that ended the job. */
function refusalDetails(err: ApiError): RefusalDetails {
  return err.cause instanceof JobRefusal ? (err.cause.options.details ?? {}) : {};
}

/** "kept=1, replaced=1, dropped=0": what became of the files the input PDF carried (names may not be ASCII, so counts only). */
function attachmentCounts(notes: AttachmentNote[]): string {
  return (['kept', 'replaced', 'dropped'] as const).map((action) => `${action}=${notes.filter((n) => n.action === action).length}`).join(', ');
}

/** Distinct business terms of the filled values of one source, for a response header. */
function termsOf(filled: FilledField[], source: FilledField['source']): string {
  return [...new Set(filled.filter((f) => f.source === source).map((f) => f.bt).filter(Boolean))].join(', ');
}

function codesOf(status: number): string[] {
  return Object.entries(ERROR_CODES)
    .filter(([, kind]) => kind.status === status)
    .map(([code]) => code);
}
