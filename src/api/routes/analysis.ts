import { z } from 'zod';
import { analyseAsyncOperation, analyseOperation, analyseV1Operation, type DocumentAnalysis } from '../../operations/analysis.js';
import { FIELD_SOURCES } from '../../analysis/sources.js';
import { toV1Invoice, toV2Invoice } from '../../invoice/output.js';
import { analyseFile, analysisJob, startAnalysis, type AnalysisJobState } from '../../jobs/submit/analysis.js';
import { MAX_FILE_BYTES } from '../../jobs/intake/file.js';
import { errorResponses } from '../common-responses.js';
import { fromRefusal } from '../errors.js';
import { FILE_FIELD_ALIASES, readFileField } from '../file-input.js';
import { defineRoute, jobOf } from '../route.js';
import type { Services } from '../services.js';

/** Invoice analysis: V2 sync, V2 async (submit + status) and the V1 legacy endpoint (the jobs are in src/jobs/submit/analysis.ts). */

/** Seconds a client should wait before polling again (README, Analysis: about every 3 s). */
const POLL_AFTER_SECONDS = 3;

const base64Field = (description: string) => z.string().optional().meta({ description });
/** The V2 file field and its aliases (the OpenAPI document), shared with createZugferdFromPdf. */
export const fileFields = {
  pdfInvoiceBase64: base64Field(
    'The invoice file as base64. The type is detected from the content; a data:…;base64, prefix and line breaks are accepted. At most 11 MB decoded.',
  ),
  invoiceBase64: base64Field('Alias of pdfInvoiceBase64 (used when pdfInvoiceBase64 is absent)'),
  fileBase64: base64Field('Alias of pdfInvoiceBase64 (used when the other two are absent)'),
};
const withLineItems = (description: string) => z.boolean().default(true).meta({ description });

export const invoiceOutput = (description: string) => z.record(z.string(), z.unknown()).meta({ description });
const fraction = z.number().min(0).max(1);
const fieldPlace = z.object({ page: z.int().min(1), x: fraction, y: fraction, width: fraction, height: fraction }).meta({
  id: 'FieldPlace',
  description:
    'Where a printed value stands: the 1-based page, and the box of its words as fractions of the page width and height from the top left corner. ' +
    'Present when the value was found on the page unambiguously; absent for inferred and default values.',
});
/** Per field read: its confidence, how it came about and where it stands. */
export const fieldReports = z.record(
  z.string(),
  z.object({
    confidence: z.number().min(0).max(1),
    source: z.enum(FIELD_SOURCES),
    place: fieldPlace.optional(),
  }),
);
const v2Result = z.object({
  extractionConfidence: z
    .number()
    .min(0)
    .max(1)
    .meta({ description: '0..1; 1 when the PDF carries invoice XML (ZUGFeRD, Factur-X, XRechnung)' }),
  invoice: invoiceOutput(
    'The invoice object with only the fields found: dates DD.MM.YYYY, amounts and rates JSON numbers, no invoiceLine when withLineItems is false',
  ),
  fields: fieldReports.optional().meta({
    description:
      'Per field of invoice (its path, e.g. "buyer.buyerPostalAddress.buyerCountryCode", "invoiceLine[0].invoicedQuantity"): the confidence, whether the value is printed on the page, ' +
      "inferred from what is printed (a domestic address's country, a line's VAT category from its rate), or a default, and where a printed value stands on the page. Absent when the PDF carries invoice XML.",
  }),
});
const jobStatus = z
  .object({
    job_id: z.uuid(),
    status: z.enum(['processing', 'done', 'failed']),
    result: v2Result.optional().meta({ description: 'Only when done' }),
    error: z
      .object({
        code: z.string(),
        userMessage: z.string(),
        reference: z.string(),
        message: z.string().meta({ description: 'The same text as userMessage, under the name RechnungsAPI clients read' }),
        resultStatus: z
          .int()
          .meta({ description: 'The HTTP status the failure would have had as a synchronous answer (e.g. 422 for PDF_NO_TEXT)' }),
      })
      .optional()
      .meta({ description: 'Only when failed' }),
  })
  .meta({ id: 'AnalysisJob' });

type JobStatus = z.infer<typeof jobStatus>;

export function analysisRoutes(services: Services) {
  return [
    analyseRoute(services),
    submitRoute(services),
    statusRoute(services, '/service-invoice-async-status', 'getAnalysisJobStatus', 'Status and result of an async analysis job'),
    statusRoute(
      services,
      '/rechnungsapi-invoice-async-status',
      'getAnalysisJobStatusAlias',
      'Status and result of an async analysis job (the path the RechnungsAPI client polls)',
    ),
    analyseV1Route(services),
  ];
}

const file = (body: Record<string, unknown>, fields: readonly string[]) => readFileField(body, { fields, maxBytes: MAX_FILE_BYTES }).bytes;

function analyseRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/createJSONFromAnalysedPdf',
    operationId: analyseOperation.name,
    summary: 'Analyse an invoice file (PDF, PNG, JPEG, TIFF) into invoice data',
    description:
      'Reads the invoice XML of ZUGFeRD / Factur-X / XRechnung PDFs exactly; otherwise the text layer, and OCR (German and English) for scans and images. ' +
      'withLineItems defaults to true; false reads the header only. Typically 2–10 s per scanned page; set client timeouts to at least 60 s, or use the async endpoint for long files.',
    tags: ['Analysis'],
    auth: 'bearer',
    body: z
      .object({ ...fileFields, withLineItems: withLineItems('true (default): header and line items; false: header only, faster') })
      .strict(),
    responses: { 200: { description: 'What was found', schema: v2Result }, ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504) },
    async handle({ body, principal, request }) {
      const analysis = await analyseFile(services, jobOf(principal, request), {
        operation: analyseOperation,
        file: file(body, FILE_FIELD_ALIASES),
        withLineItems: body.withLineItems,
      });
      return { body: v2Body(analysis) };
    },
  });
}

function submitRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/createJSONFromAnalysedPdfAsync',
    operationId: analyseAsyncOperation.name,
    summary: 'Start the analysis of a PDF or TIFF invoice; poll its status',
    description: `Answers at once with a job id. Poll GET /service-invoice-async-status?id=<job_id> about every ${POLL_AFTER_SECONDS} s until status is done or failed. Results are kept 24 hours after completion. PNG and JPEG are not accepted here.`,
    tags: ['Analysis'],
    auth: 'bearer',
    body: z
      .object({
        ...fileFields,
        withLineItems: withLineItems('true (default): header and line items; false: invoiceLine is omitted from the result'),
      })
      .strict(),
    responses: {
      200: { description: 'The job is running', schema: z.object({ job_id: z.uuid(), status: z.literal('processing') }) },
      ...errorResponses(400, 401, 403, 413, 415, 503),
    },
    async handle({ body, principal, request }) {
      const jobId = await startAnalysis(services, jobOf(principal, request), {
        file: file(body, FILE_FIELD_ALIASES),
        withLineItems: body.withLineItems,
      });
      return { body: { job_id: jobId, status: 'processing' as const } };
    },
  });
}

/** The documented route name and the one the RechnungsAPI client polls (README, Analysis): the same operation. */
function statusRoute(services: Services, path: string, operationId: string, summary: string) {
  return defineRoute({
    method: 'GET',
    path,
    operationId,
    summary,
    description:
      'An id that is not a UUID, an unknown job, a job of another account and a job finished more than 24 hours ago are all answered 404 NOT_FOUND. The id is case-insensitive; job_id is answered in lower case.',
    tags: ['Analysis'],
    auth: 'bearer',
    query: z.object({ id: z.string().meta({ description: 'job_id from the submit answer' }) }),
    responses: {
      200: { description: 'processing, done with result, or failed with error', schema: jobStatus },
      ...errorResponses(400, 401, 403, 404, 503),
    },
    async handle({ query, principal }) {
      const { jobId, state } = await analysisJob(services, principal, query.id);
      const body = jobStatusOf(jobId, state);
      // Nothing here is cacheable; the hint spares the server clients that poll in a tight loop.
      const headers: Record<string, string> = {
        'Cache-Control': 'no-store',
        ...(body.status === 'processing' ? { 'Retry-After': String(POLL_AFTER_SECONDS) } : {}),
      };
      return { body, headers };
    },
  });
}

function analyseV1Route(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/createJSONFromAnalysedPdf',
    operationId: analyseV1Operation.name,
    summary: 'Analyse an invoice file (legacy V1): every field of the invoice object',
    description:
      'Kept for existing integrations; new ones use the V2 endpoint. Header and line items are read; fields not found are null, lists not found empty.',
    tags: ['Analysis'],
    auth: 'bearer',
    body: z.object({ pdfInvoiceBase64: fileFields.pdfInvoiceBase64 }).strict(),
    responses: {
      200: {
        description: 'The invoice object with every field',
        schema: z.object({
          apiStatus: z.int().meta({ description: '200 on success' }),
          invoice: invoiceOutput('Every field of the invoice object; dates DD.MM.YYYY, amounts JSON numbers, null where nothing was found'),
        }),
      },
      ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504),
    },
    async handle({ body, principal, request }) {
      const analysis = await analyseFile(services, jobOf(principal, request), {
        operation: analyseV1Operation,
        file: file(body, ['pdfInvoiceBase64']),
        withLineItems: true,
      });
      return { body: { apiStatus: 200, invoice: toV1Invoice(analysis.invoice) } };
    },
  });
}

function jobStatusOf(id: string, state: AnalysisJobState): JobStatus {
  if (state.status === 'processing') return { job_id: id, status: 'processing' };
  if (state.status === 'done') return { job_id: id, status: 'done', result: v2Body(state.analysis) };
  const failure = fromRefusal(state.refusal);
  return {
    job_id: id,
    status: 'failed',
    error: {
      code: failure.code,
      userMessage: failure.userMessage,
      reference: id,
      message: failure.userMessage,
      resultStatus: failure.status,
    },
  };
}

function v2Body(analysis: DocumentAnalysis) {
  return {
    extractionConfidence: analysis.extractionConfidence,
    invoice: toV2Invoice(analysis.invoice),
    ...(analysis.fields ? { fields: analysis.fields } : {}),
  };
}
