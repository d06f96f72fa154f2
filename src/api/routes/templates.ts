import { z } from 'zod';
import { createInvoicePdfOperation } from '../../operations/render.js';
import { invoiceInputSchema } from '../../invoice/input.js';
import { renderInvoicePdf, resolveTemplate } from '../../jobs/submit/render.js';
import { mailResultSchema, transportSchema } from '../../mail/schema.js';
import { listTemplates, templateRoots, type LoadedTemplate, type TemplateRoots } from '../../render/index.js';
import { STORED_INVOICE_KIND, type StoredInvoiceMeta } from '../../render/stored-invoice.js';
import type { DocumentRecord } from '../../storage/documents.js';
import { InvalidCursorError } from '../../storage/keyset.js';
import { isErrorFinding } from '../../validation/index.js';
import { errorResponses } from '../common-responses.js';
import { storedFileName } from '../file-names.js';
import { ApiError } from '../errors.js';
import { downloadUrl, resendToken } from '../links.js';
import { idempotencyHeaders, oncePerKey } from '../idempotency.js';
import type { Job } from '../../jobs/intake/job.js';
import { defineRoute } from '../route.js';
import type { Services } from '../services.js';
import { findingSchema } from '../validation-schemas.js';

/**
 * Template invoices: createInvoicePdfFromJson (with Idempotency-Key), the template list, and
 * the account's stored invoices (invoicePassthrough: false).
 */

const createBody = z
  .object({
    invoice: invoiceInputSchema,
    templateId: z
      .string({ error: 'templateId is required: GET /api/v1/templates lists the templates' })
      .min(1, 'templateId is required: GET /api/v1/templates lists the templates')
      .max(64),
    invoiceFilename: storedFileName('pdf', '<invoiceNumber>.pdf'),
    invoicePassthrough: z.boolean().default(true).meta({
      description:
        "true (default): create and return only; false: also store the invoice in the account's invoice list (GET /api/v1/invoices)",
    }),
    transport: transportSchema.optional(),
  })
  .strict();

const createResponse = z.object({
  message: z.string(),
  downloadURL: z.url().nullable().meta({
    description:
      'Signed link to the stored PDF, valid for DOWNLOAD_URL_TTL_SECONDS; null with invoicePassthrough true and no e-mail, when nothing is kept',
  }),
  resendToken: z.string().nullable().meta({ description: 'For the resend operation; null when nothing is kept' }),
  iqDataId: z.int().positive().meta({
    description:
      'Integer id of the invoice: of the stored invoice record (GET /api/v1/invoices/{id}), or with invoicePassthrough true a number reserved for it (nothing is stored, so GET finds nothing)',
  }),
  documentId: z.int().positive().meta({
    description:
      'Integer id (document number) of the ZUGFeRD PDF: of the stored document, or a number reserved for it when nothing is kept',
  }),
  fsNodeId: z
    .int()
    .positive()
    .meta({ description: 'Integer id of the file; in this service a file is a document, so it equals documentId' }),
  fileName: z.string(),
  fileExtension: z.literal('pdf'),
  fileSize: z.int().meta({ description: 'Bytes' }),
  filecontentB64: z.string().meta({ description: 'The ZUGFeRD / Factur-X PDF/A-3b (EN 16931 profile), base64' }),
  templateId: z.string(),
  pages: z.int(),
  zugferdValid: z
    .boolean()
    .meta({ description: 'PDF/A-3b (veraPDF), Factur-X attachment and XMP checks passed, and the page shows what the XML says' }),
  xInvoiceValid: z.boolean().meta({ description: 'The embedded XML passed schema and EN 16931 rules' }),
  numberOfZugferdErrors: z.int(),
  numberOfxInvoiceErrors: z.int(),
  zugferdErrorList: z.array(findingSchema),
  xInvoiceErrorList: z.array(findingSchema),
  transport: mailResultSchema.optional().meta({
    description:
      "What happened to the e-mail, when the request had a transport; the PDF is attached under fileName. Its send.documentId is the PDF's UUID, as the e-mail endpoints name documents",
  }),
});
type CreateResponse = z.infer<typeof createResponse>;

const templateListing = z.discriminatedUnion('valid', [
  z.object({
    id: z.string(),
    source: z.enum(['builtin', 'operator']),
    valid: z.literal(true),
    name: z.string(),
    description: z.string().optional(),
    locale: z.string(),
  }),
  z.object({ id: z.string(), source: z.enum(['builtin', 'operator']), valid: z.literal(false), problems: z.array(z.string()) }),
]);

const invoiceSummarySchema = z.object({
  iqDataId: z
    .int()
    .positive()
    .meta({ description: 'Integer id of the stored invoice, as createInvoicePdfFromJson answered it; GET /api/v1/invoices/{iqDataId}' }),
  invoiceNumber: z.string().nullable(),
  invoiceIssueDate: z.string().nullable(),
  invoiceTypeCode: z.string().nullable(),
  buyerName: z.string().nullable(),
  currency: z.string().nullable(),
  totalAmountWithVat: z.string().nullable(),
  amountDueForPayment: z.string().nullable(),
  templateId: z.string(),
  documentId: z
    .int()
    .positive()
    .nullable()
    .meta({ description: 'Integer id of the invoice PDF (documentId of createInvoicePdfFromJson); null if the PDF no longer exists' }),
  createdAt: z.iso.datetime(),
});

export function templateRoutes(services: Services) {
  const roots = templateRoots(services.config.dataDir);
  return [createRoute(services, roots), listRoute(roots), invoicesRoute(services), invoiceRoute(services)];
}

function createRoute(services: Services, roots: TemplateRoots) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/createInvoicePdfFromJson',
    operationId: createInvoicePdfOperation.name,
    summary: 'Render an invoice PDF from JSON through a template, as ZUGFeRD PDF/A-3',
    description:
      'Renders the invoice with the template (GET /api/v1/templates), embeds the EN 16931 CII XML as Factur-X / ZUGFeRD, validates the XML and stores the PDF. ' +
      'Send an Idempotency-Key header to make retries safe: within 24 hours the same key with the same body returns the first response ' +
      '(X-Idempotency-Key-Reused: true) without creating or billing anything; the same key with another body is refused with 409.',
    tags: ['Templates'],
    auth: 'bearer',
    body: createBody,
    headers: idempotencyHeaders.request,
    responses: {
      200: {
        description: 'The PDF was created (or, with a reused Idempotency-Key, the first response is repeated)',
        schema: createResponse,
        headers: idempotencyHeaders.response,
      },
      ...errorResponses(400, 401, 403, 409, 412, 413, 415, 422, 503, 504),
    },
    async handle({ body, principal, request }) {
      const template = await resolveTemplate(roots, body.templateId);
      const upgrade = (kept: unknown) => withNumericIds(services, principal.accountId, kept);
      return oncePerKey(services, principal, request, { operation: createInvoicePdfOperation.name, body, upgrade }, async (keyed, job) => ({
        body: await createPdf(keyed, template, body, job),
      }));
    },
  });
}

function listRoute(roots: TemplateRoots) {
  return defineRoute({
    method: 'GET',
    path: '/api/v1/templates',
    operationId: 'listTemplates',
    summary: 'The invoice templates: built-in and operator-defined',
    description:
      'Operator templates are folders under <EINVOICE_DATA_DIR>/templates and are read on every request; a broken one is listed with valid: false and its problems.',
    tags: ['Templates'],
    auth: 'bearer',
    responses: {
      200: { description: 'Templates, built-in first', schema: z.object({ templates: z.array(templateListing) }) },
      ...errorResponses(401, 403),
    },
    handle: async () => ({ body: { templates: await listTemplates(roots) } }),
  });
}

function invoicesRoute(services: Services) {
  return defineRoute({
    method: 'GET',
    path: '/api/v1/invoices',
    operationId: 'listInvoices',
    summary: "The account's stored invoices (created with invoicePassthrough: false), newest first",
    description: 'Pages hold `limit` invoices (only the last page fewer); continue with `cursor` while `nextCursor` is not null.',
    tags: ['Templates'],
    auth: 'bearer',
    query: z
      .object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional().meta({ description: 'nextCursor of the previous page' }),
      })
      .strict(),
    responses: {
      200: {
        description: 'One page of stored invoices',
        schema: z.object({ invoices: z.array(invoiceSummarySchema), nextCursor: z.string().nullable() }),
      },
      ...errorResponses(400, 401, 403),
    },
    async handle({ query, principal }) {
      const page = await services.storage.documents
        .list(principal.accountId, { kind: STORED_INVOICE_KIND, limit: query.limit, ...(query.cursor ? { cursor: query.cursor } : {}) })
        .catch((err: unknown) => {
          throw err instanceof InvalidCursorError
            ? new ApiError('VALIDATION_ERROR', { fields: [{ field: 'cursor', message: 'invalid cursor' }] })
            : err;
        });
      const pdfNumbers = await services.storage.documents.numbers(page.documents.map(pdfDocumentId), principal.accountId);
      return { body: { invoices: page.documents.map((d) => toSummary(d, pdfNumbers.get(pdfDocumentId(d)))), nextCursor: page.nextCursor } };
    },
  });
}

function invoiceRoute(services: Services) {
  return defineRoute({
    method: 'GET',
    path: '/api/v1/invoices/:id',
    operationId: 'getInvoice',
    summary: 'One stored invoice: its data and a fresh link to its PDF',
    description:
      '`id` is the integer iqDataId of createInvoicePdfFromJson and of the invoice list; the UUID that earlier versions answered is accepted too.',
    tags: ['Templates'],
    auth: 'bearer',
    pathParams: {
      id: {
        description: 'The integer iqDataId (or the UUID of an invoice stored by an earlier version)',
        schema: z.union([z.int().positive(), z.uuid()]),
      },
    },
    responses: {
      200: {
        description: 'The stored invoice',
        schema: invoiceSummarySchema.extend({ invoice: z.record(z.string(), z.unknown()), downloadURL: z.url(), fileName: z.string() }),
      },
      ...errorResponses(401, 403, 404),
    },
    async handle({ principal, request }) {
      const record = await storedInvoice(services, request.params.id ?? '', principal.accountId);
      if (!record) throw new ApiError('NOT_FOUND', { detail: 'No stored invoice with this id in your account.' });
      const pdf = await services.storage.documents.get(pdfDocumentId(record), principal.accountId);
      return {
        body: {
          ...toSummary(record, pdf?.number),
          invoice: JSON.parse((await services.blobs.get(record.blobKey)).toString('utf8')) as Record<string, unknown>,
          downloadURL: downloadUrl(services, pdfDocumentId(record)),
          fileName: (record.meta as unknown as StoredInvoiceMeta).pdfFileName,
        },
      };
    },
  });
}

async function createPdf(
  services: Services,
  template: LoadedTemplate,
  body: z.output<typeof createBody>,
  job: Job,
): Promise<CreateResponse> {
  const { accountId } = job.account;
  const result = await renderInvoicePdf(services, job, {
    template,
    invoice: body.invoice,
    fileName: body.invoiceFilename,
    passthrough: body.invoicePassthrough,
    transport: body.transport,
  });
  const { pdf } = result;
  const stored = [result.documentId, result.invoiceId].filter((id): id is string => id !== null);
  const numbers = await services.storage.documents.numbers(stored, accountId);
  const documentNumber = result.documentId ? numberOf(numbers, result.documentId) : result.reserved!.document!;
  const errors = result.report.findings.filter(isErrorFinding);
  const pdfErrors = errors.filter((f) => f.source === 'pdf');
  const xmlErrors = errors.filter((f) => f.source !== 'pdf');
  return {
    message: result.report.valid
      ? `Invoice PDF created (${result.pages} page(s)); it is a valid ZUGFeRD / Factur-X EN 16931 invoice.`
      : `Invoice PDF created; validation found ${errors.length} error(s).`,
    downloadURL: result.documentId ? downloadUrl(services, result.documentId) : null,
    resendToken: result.documentId ? resendToken(services, result.documentId) : null,
    iqDataId: result.invoiceId ? numberOf(numbers, result.invoiceId) : result.reserved!.invoice,
    documentId: documentNumber,
    fsNodeId: documentNumber,
    fileName: result.fileName,
    fileExtension: 'pdf',
    fileSize: pdf.byteLength,
    filecontentB64: pdf.toString('base64'),
    templateId: template.template.id,
    pages: result.pages,
    zugferdValid: result.report.pdfValid,
    xInvoiceValid: result.report.xmlValid,
    numberOfZugferdErrors: pdfErrors.length,
    numberOfxInvoiceErrors: xmlErrors.length,
    zugferdErrorList: pdfErrors,
    xInvoiceErrorList: xmlErrors,
    transport: result.mail,
  };
}

// ---------------------------------------------------------------- Idempotency-Key

/** A response cached before ids became integers (at most 24 hours old) carries UUIDs: answer with the numbers. */
async function withNumericIds(services: Services, accountId: string, body: unknown): Promise<unknown> {
  if (!body || typeof body !== 'object' || typeof (body as { documentId?: unknown }).documentId !== 'string') return body;
  const old = body as { documentId: string; iqDataId: string | null };
  const numbers = await services.storage.documents.numbers([old.documentId, ...(old.iqDataId ? [old.iqDataId] : [])], accountId);
  const documentId = numberOf(numbers, old.documentId);
  return { ...old, iqDataId: old.iqDataId ? numberOf(numbers, old.iqDataId) : null, documentId, fsNodeId: documentId };
}

function numberOf(numbers: Map<string, number>, id: string): number {
  const number = numbers.get(id);
  if (number === undefined) throw new Error(`Document ${id} was not found after it was stored`);
  return number;
}

// ---------------------------------------------------------------- stored invoices

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * Stored invoices are documents of kind 'invoice' among the account's other documents; `id` is
 * the document's integer number or, as earlier versions answered it, its UUID.
 */
async function storedInvoice(services: Services, id: string, accountId: string): Promise<DocumentRecord | undefined> {
  const record = /^[1-9]\d{0,15}$/.test(id)
    ? await services.storage.documents.getByNumber(Number(id), accountId)
    : UUID.test(id)
      ? await services.storage.documents.get(id.toLowerCase(), accountId)
      : undefined;
  return record?.kind === STORED_INVOICE_KIND ? record : undefined;
}

const pdfDocumentId = (record: DocumentRecord): string => (record.meta as unknown as StoredInvoiceMeta).pdfDocumentId;

function toSummary(record: DocumentRecord, pdfNumber: number | undefined): z.infer<typeof invoiceSummarySchema> {
  const meta = record.meta as unknown as StoredInvoiceMeta;
  return {
    iqDataId: record.number,
    invoiceNumber: meta.invoiceNumber,
    invoiceIssueDate: meta.invoiceIssueDate,
    invoiceTypeCode: meta.invoiceTypeCode,
    buyerName: meta.buyerName,
    currency: meta.currency,
    totalAmountWithVat: meta.totalAmountWithVat,
    amountDueForPayment: meta.amountDueForPayment,
    templateId: meta.templateId,
    documentId: pdfNumber ?? null,
    createdAt: new Date(record.createdAt).toISOString(),
  };
}
