import { z } from 'zod';
import { JsonNumber } from '../../invoice/decimal.js';
import { invoiceInputSchema } from '../../invoice/input.js';
import { mailResultSchema, transportSchema } from '../../mail/schema.js';
import { toV2Invoice } from '../../invoice/output.js';
import { correctReview, reviewFile, reviewOf, reviewQueue, reviewStats } from '../../jobs/submit/review.js';
import { attachmentDisposition } from '../file-names.js';
import { downloadUrl } from '../links.js';
import { errorResponses } from '../common-responses.js';
import { defineRoute } from '../route.js';
import type { Services } from '../services.js';
import { fieldReports, invoiceOutput } from './analysis.js';

/**
 * The review queue: refused conversions of the account's folder connectors (and of its own API
 * calls, where it chose so), each waiting for a person to confirm or correct the values it was
 * refused for (workflows/review.ts).
 */

const problem = z.object({
  field: z.string().meta({ description: 'The path in invoice, e.g. "invoice.buyer.buyerName"' }),
  bt: z.string().optional(),
  message: z.string(),
  value: z.string().optional().meta({ description: 'The value read, where one was' }),
  candidates: z.array(z.string()).optional().meta({ description: 'Other values found on the page for this field' }),
});
const refusal = z.object({
  code: z.string().meta({ description: 'FIELDS_MISSING, FIELDS_UNCERTAIN, TOTALS_MISMATCH or ZUGFERD_INVALID' }),
  message: z.string(),
  fields: z.array(problem).optional(),
  ruleCodes: z.array(z.string()).optional(),
});
const idParam = { id: { description: 'The entry id from the queue (review-…)' } };

export function reviewRoutes(services: Services) {
  return [queueRoute(services), entryRoute(services), fileRoute(services), correctRoute(services)];
}

function queueRoute(services: Services) {
  return defineRoute({
    method: 'GET',
    path: '/api/v2/reviews',
    operationId: 'listReviews',
    summary: "The account's review queue: refused conversions waiting for a person",
    description:
      "Every createZugferdFromPdf that was refused for values a person can settle (FIELDS_MISSING, FIELDS_UNCERTAIN, TOTALS_MISMATCH, ZUGFERD_INVALID), oldest first: a folder connector route's (its file waits in the route's error folder until it is corrected or the route's `reviewDays` have passed), and the account's own API calls where it chose so (`accounts.js review-api-refusals --on`; 30 days).",
    tags: ['Review'],
    auth: 'bearer',
    query: z.object({ limit: z.coerce.number().int().min(1).max(200).default(50).meta({ description: 'At most this many entries' }) }),
    responses: {
      200: {
        description: 'The waiting entries',
        schema: z.object({
          reviews: z.array(z.object({ id: z.string(), route: z.string().optional(), file: z.string().optional(), since: z.string() })),
          stats: z
            .object({
              created: z.int().meta({ description: 'E-invoices people created from the queue in the last 30 days' }),
              medianSeconds: z.number().optional().meta({ description: 'Their median time from opening an entry to creating it' }),
            })
            .meta({ description: "The queue's statistics" }),
        }),
      },
      ...errorResponses(400, 401, 403, 503),
    },
    handle: async ({ query, principal }) => {
      const [reviews, stats] = await Promise.all([reviewQueue(services, principal, query.limit), reviewStats(services, principal)]);
      return { body: { reviews, stats }, headers: { 'Cache-Control': 'no-store' } };
    },
  });
}

function entryRoute(services: Services) {
  return defineRoute({
    method: 'GET',
    path: '/api/v2/reviews/:id',
    operationId: 'getReview',
    summary: 'One waiting entry: why it was refused, and everything read from the file',
    description:
      'The refusal with each field to confirm or add (the value read and the other candidates found), and the analysis of the file as createJSONFromAnalysedPdf answers it (invoice, fields with confidence and place), to correct and send back to correctReview. 404 for an id of another account or one no longer waiting.',
    tags: ['Review'],
    auth: 'bearer',
    pathParams: idParam,
    responses: {
      200: {
        description: 'The entry',
        schema: z.object({
          id: z.string(),
          origin: z.enum(['connector', 'api']).meta({ description: "A folder connector's file, or the account's own API call" }),
          route: z.string().optional().meta({ description: "A connector's entry: its route" }),
          fileName: z.string(),
          fileType: z.string(),
          since: z.string(),
          refusal,
          extractionConfidence: z.number().min(0).max(1),
          invoice: invoiceOutput('The invoice as read: dates DD.MM.YYYY, amounts and rates JSON numbers'),
          fields: fieldReports.optional(),
          candidates: z.record(z.string(), z.array(z.string())).optional().meta({ description: 'Per field path, the other values found' }),
          lastAttempt: refusal.optional().meta({ description: 'Why the last correction sent was refused' }),
        }),
      },
      ...errorResponses(401, 403, 404, 503),
    },
    async handle({ principal, request }) {
      const id = request.params.id ?? '';
      const { analysis, lastAttempt, fileBlobKey: _kept, ...entry } = await reviewOf(services, principal, id);
      return {
        body: {
          id,
          ...entry,
          extractionConfidence: analysis.extractionConfidence,
          invoice: toV2Invoice(analysis.invoice),
          ...(analysis.fields ? { fields: analysis.fields } : {}),
          ...(analysis.candidates ? { candidates: analysis.candidates } : {}),
          ...(lastAttempt ? { lastAttempt: withoutFlag(lastAttempt) } : {}),
        },
        headers: { 'Cache-Control': 'no-store' },
      };
    },
  });
}

function fileRoute(services: Services) {
  return defineRoute({
    method: 'GET',
    path: '/api/v2/reviews/:id/file',
    operationId: 'getReviewFile',
    summary: 'The file of a waiting entry, as it was dropped',
    description: 'The PDF or image the route was given, for the page to show beside the values read. 404 as for getReview.',
    tags: ['Review'],
    auth: 'bearer',
    pathParams: idParam,
    responses: {
      200: { description: 'The file', contentType: 'application/octet-stream' },
      ...errorResponses(401, 403, 404, 503),
    },
    async handle({ principal, request }) {
      const file = await reviewFile(services, principal, request.params.id ?? '');
      return {
        body: file.bytes,
        contentType: file.contentType,
        headers: { 'Content-Disposition': attachmentDisposition(file.fileName), 'Cache-Control': 'private, no-store' },
      };
    },
  });
}

function correctRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v2/reviews/:id/invoice',
    operationId: 'correctReview',
    summary: 'Create the e-invoice of a waiting entry from the corrected invoice',
    description:
      "The invoice as a person confirmed or corrected it (the entry's invoice with the fields settled). It is checked and built as createZugferdFromPdf builds (mandatory fields, cross-checks, totals against the lines, PDF/A-3 with the original pages, validation). Created: the entry leaves the queue; a connector's ZUGFeRD PDF is written where the route writes its results, the input moves from error/ to done/ with its refusal's reports, and the route's e-mail is sent; every created document is linked by downloadURL. Refused again: 200 with created false and what still needs fixing; the entry stays. 409 REVIEW_CLOSED while another correction of it is being built.",
    tags: ['Review'],
    auth: 'bearer',
    pathParams: idParam,
    body: z
      .object({
        invoice: invoiceInputSchema,
        // The body's numbers arrive as their text (JsonNumber); a duration is no amount.
        seconds: z
          .preprocess((v) => (v instanceof JsonNumber ? Number(v.text) : v), z.number().min(0).max(86_400))
          .optional()
          .meta({ description: "How long the person took, from opening the entry to sending it, for the queue's statistics" }),
        transport: transportSchema.optional().meta({ description: 'Send the created e-invoice by e-mail, as createZugferdFromJson does' }),
      })
      .strict(),
    responses: {
      200: {
        description: 'Created, or refused again with what to fix',
        schema: z.object({
          created: z.boolean(),
          documentId: z.string().optional().meta({ description: 'The stored ZUGFeRD PDF, when created' }),
          downloadURL: z.url().optional().meta({ description: 'A signed link to it, when created' }),
          transport: mailResultSchema.optional().meta({ description: 'What happened to the e-mail, when the request had a transport' }),
          refusal: refusal.optional().meta({ description: 'When not created' }),
        }),
      },
      ...errorResponses(400, 401, 403, 404, 409, 413, 415, 503),
    },
    async handle({ body, principal, request }) {
      const { invoice, seconds, transport } = body;
      const order = { invoice, ...(seconds !== undefined ? { seconds } : {}), ...(transport ? { transport } : {}) };
      const answer = await correctReview(services, principal, request.params.id ?? '', order);
      if (!answer.created) return { body: { created: false, refusal: withoutFlag(answer) } };
      const { mail: _outcome, ...created } = answer;
      return { body: { ...created, downloadURL: downloadUrl(services, answer.documentId) } };
    },
  });
}

const withoutFlag = <T extends { created: boolean }>({ created: _created, ...rest }: T) => rest;
