import { randomUUID } from 'node:crypto';
import { WorkflowNotFoundError, type WorkflowExecutionDescription } from '@temporalio/client';
import { z } from 'zod';
import type { DocumentAnalysis } from '../../../activities/analysis.js';
import { analyseInvoiceFile } from '../../../workflows/analysis.js';
import { FIELD_SOURCES } from '../../analysis/sources.js';
import { toV1Invoice, toV2Invoice } from '../../analysis-api/output.js';
import type { FileType } from '../../files/file-type.js';
import { ACCOUNT, OPERATION } from '../../temporal/search-attributes.js';
import { errorResponses } from '../common-responses.js';
import { ApiError } from '../errors.js';
import { FILE_FIELD_ALIASES, MAX_FILE_BYTES, readFileField } from '../file-input.js';
import { defineRoute, type Principal, type RequestInfo } from '../route.js';
import { runWorkflow, startWorkflow, toApiError } from '../run-workflow.js';
import type { Services } from '../services.js';

/**
 * Invoice analysis: V2 sync, V2 async (submit + status) and the V1 legacy
 * endpoint. All run the analyseInvoiceFile workflow; the async job id is that
 * workflow's id, so job state lives in Temporal and nowhere else.
 */

const ALL_TYPES: readonly FileType[] = ['pdf', 'png', 'jpeg', 'tiff'];
const ASYNC_TYPES: readonly FileType[] = ['pdf', 'tiff'];

/** SPEC.md: results are kept 24 hours after completion (also the namespace retention). */
export const JOB_RETENTION_MS = 24 * 60 * 60 * 1000;
/** Seconds a client should wait before polling again (SPEC.md: about every 3 s). */
const POLL_AFTER_SECONDS = 3;
/** Sync analysis: SPEC.md tells clients to wait at least 60 s; multi-page scans take longer. */
const SYNC_TIMEOUT_MS = 300_000;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const base64Field = (description: string) => z.string().optional().meta({ description });
/** The V2 file field and its aliases (SPEC.md), shared with createZugferdFromPdf. */
export const fileFields = {
  pdfInvoiceBase64: base64Field('The invoice file as base64. The type is detected from the content; a data:…;base64, prefix and line breaks are accepted. At most 11 MB decoded.'),
  invoiceBase64: base64Field('Alias of pdfInvoiceBase64 (used when pdfInvoiceBase64 is absent)'),
  fileBase64: base64Field('Alias of pdfInvoiceBase64 (used when the other two are absent)'),
};
const withLineItems = (description: string) => z.boolean().default(true).meta({ description });

const invoiceOutput = (description: string) => z.record(z.string(), z.unknown()).meta({ description });
const v2Result = z.object({
  extractionConfidence: z.number().min(0).max(1).meta({ description: '0..1; 1 when the PDF carries invoice XML (ZUGFeRD, Factur-X, XRechnung)' }),
  invoice: invoiceOutput('The invoice object with only the fields found: dates DD.MM.YYYY, amounts and rates JSON numbers, no invoiceLine when withLineItems is false'),
  fields: z
    .record(z.string(), z.object({ confidence: z.number().min(0).max(1), source: z.enum(FIELD_SOURCES) }))
    .optional()
    .meta({
      description:
        'Per field of invoice (its path, e.g. "buyer.buyerPostalAddress.buyerCountryCode", "invoiceLine[0].invoicedQuantity"): the confidence, and whether the value is printed on the page, ' +
        'inferred from what is printed (a domestic address\'s country, a line\'s VAT category from its rate), or a default. Absent when the PDF carries invoice XML.',
    }),
});
const jobStatus = z
  .object({
    job_id: z.uuid(),
    status: z.enum(['processing', 'done', 'failed']),
    result: v2Result.optional().meta({ description: 'Only when done' }),
    error: z.object({ code: z.string(), userMessage: z.string(), reference: z.string() }).optional().meta({ description: 'Only when failed' }),
  })
  .meta({ id: 'AnalysisJob' });

type JobStatus = z.infer<typeof jobStatus>;

export function analysisRoutes(services: Services) {
  const { config } = services;

  /** Stores the file and starts (or runs) the analysis workflow. */
  async function analyse(args: { body: Record<string, unknown>; principal: Principal; request: RequestInfo; operation: string; fields: readonly string[]; accept: readonly FileType[]; withLineItems: boolean }) {
    const file = readFileField(args.body, { fields: args.fields, maxBytes: MAX_FILE_BYTES, accept: args.accept });
    const { key } = await services.blobs.put(file.bytes);
    const options = {
      client: services.temporal,
      taskQueue: config.temporal.taskQueue,
      operation: args.operation,
      principal: args.principal,
      request: args.request,
      args: [{ ctx: { requestId: args.request.requestId, accountId: args.principal.accountId }, fileBlobKey: key, fileType: file.type, withLineItems: args.withLineItems }] as Parameters<typeof analyseInvoiceFile>,
      summary: `Analyse ${file.type.toUpperCase()} (${args.withLineItems ? 'with' : 'without'} line items)`,
    };
    return { key, options };
  }

  const v2 = defineRoute({
    method: 'POST',
    path: '/createJSONFromAnalysedPdf',
    operationId: 'createJSONFromAnalysedPdf',
    summary: 'Analyse an invoice file (PDF, PNG, JPEG, TIFF) into invoice data',
    description:
      'Reads the invoice XML of ZUGFeRD / Factur-X / XRechnung PDFs exactly; otherwise the text layer, and OCR (German and English) for scans and images. ' +
      'withLineItems defaults to true; false reads the header only. Typically 2–10 s per scanned page; set client timeouts to at least 60 s, or use the async endpoint for long files.',
    tags: ['Analysis'],
    auth: 'bearer',
    body: z.object({ ...fileFields, withLineItems: withLineItems('true (default): header and line items; false: header only, faster') }).strict(),
    responses: { 200: { description: 'What was found', schema: v2Result }, ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504) },
    async handle({ body, principal, request }) {
      const { key, options } = await analyse({ body, principal, request, operation: 'createJSONFromAnalysedPdf', fields: FILE_FIELD_ALIASES, accept: ALL_TYPES, withLineItems: body.withLineItems });
      const analysis = await discardingOnFailure(key, () => runWorkflow(analyseInvoiceFile, { ...options, timeoutMs: SYNC_TIMEOUT_MS }));
      return { body: v2Body(analysis) };
    },
  });

  const submit = defineRoute({
    method: 'POST',
    path: '/createJSONFromAnalysedPdfAsync',
    operationId: 'createJSONFromAnalysedPdfAsync',
    summary: 'Start the analysis of a PDF or TIFF invoice; poll its status',
    description: `Answers at once with a job id. Poll GET /service-invoice-async-status?id=<job_id> about every ${POLL_AFTER_SECONDS} s until status is done or failed. Results are kept 24 hours after completion. PNG and JPEG are not accepted here.`,
    tags: ['Analysis'],
    auth: 'bearer',
    body: z.object({ ...fileFields, withLineItems: withLineItems('true (default): header and line items; false: invoiceLine is omitted from the result') }).strict(),
    responses: {
      200: { description: 'The job is running', schema: z.object({ job_id: z.uuid(), status: z.literal('processing') }) },
      ...errorResponses(400, 401, 403, 413, 415, 503),
    },
    async handle({ body, principal, request }) {
      const { key, options } = await analyse({ body, principal, request, operation: 'createJSONFromAnalysedPdfAsync', fields: FILE_FIELD_ALIASES, accept: ASYNC_TYPES, withLineItems: body.withLineItems });
      const jobId = randomUUID();
      await discardingOnFailure(key, () => startWorkflow(analyseInvoiceFile, { ...options, workflowId: jobId }));
      return { body: { job_id: jobId, status: 'processing' as const } };
    },
  });

  const status = defineRoute({
    method: 'GET',
    path: '/service-invoice-async-status',
    operationId: 'getAnalysisJobStatus',
    summary: 'Status and result of an async analysis job',
    description: 'An id that is not a UUID, an unknown job, a job of another account and a job finished more than 24 hours ago are all answered 404 NOT_FOUND.',
    tags: ['Analysis'],
    auth: 'bearer',
    query: z.object({ id: z.string().meta({ description: 'job_id from the submit answer' }) }),
    responses: { 200: { description: 'processing, done with result, or failed with error', schema: jobStatus }, ...errorResponses(400, 401, 403, 404, 503) },
    async handle({ query, principal }) {
      const body = await jobStatusOf(query.id, principal);
      // Nothing here is cacheable; the hint spares the server clients that poll in a tight loop.
      const headers: Record<string, string> = { 'Cache-Control': 'no-store', ...(body.status === 'processing' ? { 'Retry-After': String(POLL_AFTER_SECONDS) } : {}) };
      return { body, headers };
    },
  });

  const v1 = defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/createJSONFromAnalysedPdf',
    operationId: 'createJSONFromAnalysedPdfV1',
    summary: 'Analyse an invoice file (legacy V1): every field of the invoice object',
    description: 'Kept for existing integrations; new ones use the V2 endpoint. Header and line items are read; fields not found are null, lists not found empty.',
    tags: ['Analysis'],
    auth: 'bearer',
    body: z.object({ pdfInvoiceBase64: fileFields.pdfInvoiceBase64 }).strict(),
    responses: {
      200: {
        description: 'The invoice object with every field',
        schema: z.object({ apiStatus: z.int().meta({ description: '200 on success' }), invoice: invoiceOutput('Every field of the invoice object; dates DD.MM.YYYY, amounts JSON numbers, null where nothing was found') }),
      },
      ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504),
    },
    async handle({ body, principal, request }) {
      const { key, options } = await analyse({ body, principal, request, operation: 'createJSONFromAnalysedPdfV1', fields: ['pdfInvoiceBase64'], accept: ALL_TYPES, withLineItems: true });
      const analysis = await discardingOnFailure(key, () => runWorkflow(analyseInvoiceFile, { ...options, timeoutMs: SYNC_TIMEOUT_MS }));
      return { body: { apiStatus: 200, invoice: toV1Invoice(analysis.invoice) } };
    },
  });

  /**
   * One describe call per poll (plus one history read once the job has closed):
   * no database, no worker involvement, so a client polling every 3 s costs
   * next to nothing.
   */
  async function jobStatusOf(id: string, principal: Principal): Promise<JobStatus> {
    const notFound = () => new ApiError('NOT_FOUND', { userMessage: 'There is no such job (the id is unknown, not a UUID, or the result has expired).' });
    if (!UUID.test(id)) throw notFound();
    const handle = services.temporal.workflow.getHandle<typeof analyseInvoiceFile>(id);
    let described: WorkflowExecutionDescription;
    try {
      described = await handle.describe();
    } catch (err) {
      if (err instanceof WorkflowNotFoundError) throw notFound();
      throw new ApiError('SERVICE_UNAVAILABLE', { detail: `Could not read job ${id}: ${(err as Error).message}`, cause: err });
    }
    const attributes = described.typedSearchAttributes;
    const expired = described.closeTime !== undefined && Date.now() - described.closeTime.getTime() > JOB_RETENTION_MS;
    if (attributes.get(OPERATION) !== 'createJSONFromAnalysedPdfAsync' || attributes.get(ACCOUNT) !== principal.accountId || expired) throw notFound();
    if (described.status.name === 'RUNNING') return { job_id: id, status: 'processing' };
    try {
      return { job_id: id, status: 'done', result: v2Body(await handle.result()) };
    } catch (err) {
      const failure = toApiError(err);
      return { job_id: id, status: 'failed', error: { code: failure.code, userMessage: failure.userMessage, reference: id } };
    }
  }

  /** The upload is deleted by the workflow; when no workflow ran, by us. */
  async function discardingOnFailure<T>(key: string, run: () => Promise<T>): Promise<T> {
    try {
      return await run();
    } catch (err) {
      if (err instanceof ApiError && err.code === 'SERVICE_UNAVAILABLE') await services.blobs.delete(key).catch(() => undefined);
      throw err;
    }
  }

  return [v2, submit, status, v1];
}

function v2Body(analysis: DocumentAnalysis) {
  return { extractionConfidence: analysis.extractionConfidence, invoice: toV2Invoice(analysis.invoice), ...(analysis.fields ? { fields: analysis.fields } : {}) };
}
