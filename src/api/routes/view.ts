import { z } from 'zod';
import { MAX_FILE_BYTES } from '../../jobs/intake/file.js';
import { recentJobs } from '../../jobs/submit/recent.js';
import { invoiceViewPdf, readEInvoice } from '../../jobs/submit/visualize.js';
import { invoiceHtml } from '../../report/invoice-html.js';
import { pickLanguage } from '../../report/language.js';
import { MAX_XML_BYTES } from '../../xml/index.js';
import { errorResponses } from '../common-responses.js';
import { readFileField } from '../file-input.js';
import { preferredType } from '../negotiate.js';
import { defineRoute, jobOf } from '../route.js';
import type { Services } from '../services.js';

/** For people: an e-invoice as a readable document, and the account's recent jobs (what the page at /app shows). */
export function viewRoutes(services: Services) {
  return [visualizeRoute(services), jobsRoute(services)];
}

function visualizeRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/visualizeXinvoice',
    operationId: 'visualizeXinvoice',
    summary: 'Show an e-invoice (XRechnung / EN 16931 XML, ZUGFeRD / Factur-X PDF) as a readable invoice, in HTML or PDF',
    description:
      'Reads the invoice of the XML (CII or UBL), or of the XML embedded in the PDF, and answers it for people: as an HTML page (parties, lines, VAT, totals, and every other business term with its BT number) or, with Accept: application/pdf, printed through the built-in template of the language (de-standard or en-standard). It does not validate; validateXinvoiceXml and validateZugferdPdf do. XML that does not map onto the invoice model: 422 XML_UNREADABLE; a PDF without invoice XML: 422 INVOICE_XML_MISSING.',
    tags: ['XRechnung'],
    auth: 'bearer',
    body: z
      .object({
        xinvoiceXML: z
          .string()
          .min(1, 'must not be empty')
          .max(MAX_XML_BYTES)
          .optional()
          .meta({ description: 'The invoice XML (CII or UBL)' }),
        zugferdFile64: z
          .string()
          .optional()
          .meta({ description: 'A ZUGFeRD / Factur-X PDF, base64, up to 11 MB decoded; instead of xinvoiceXML' }),
        language: z.enum(['de', 'en']).optional().meta({ description: 'Language of the view; default from Accept-Language, else en' }),
      })
      .strict()
      .refine((b) => (b.xinvoiceXML === undefined) !== (b.zugferdFile64 === undefined), {
        message: 'send exactly one of xinvoiceXML and zugferdFile64',
        path: ['xinvoiceXML'],
      }),
    headers: { 'Accept-Language': { description: 'de or en, when the body names no language' } },
    responses: {
      200: {
        description: 'The invoice as an HTML page',
        contentType: 'text/html',
        alternatives: { 'application/pdf': 'The invoice printed as a PDF/A-3b document (without embedded XML: a view, not an e-invoice)' },
      },
      ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504),
    },
    async handle({ body, principal, request }) {
      const lang = pickLanguage(body.language, request.headers['accept-language']);
      const order =
        body.xinvoiceXML !== undefined
          ? { xml: body.xinvoiceXML }
          : { pdf: readFileField(body, { fields: ['zugferdFile64'], maxBytes: MAX_FILE_BYTES }).bytes };
      const invoice = await readEInvoice(services, jobOf(principal, request), order);
      const headers = { Vary: 'Accept, Accept-Language' };
      if (preferredType(request.headers.accept, ['text/html', 'application/pdf']) === 'application/pdf') {
        return { body: Buffer.from(await invoiceViewPdf(services.config.dataDir, invoice, lang)), contentType: 'application/pdf', headers };
      }
      return { body: invoiceHtml(invoice, lang), contentType: 'text/html; charset=utf-8', headers };
    },
  });
}

function jobsRoute(services: Services) {
  return defineRoute({
    method: 'GET',
    path: '/api/v1/jobs',
    operationId: 'listRecentJobs',
    summary: "The account's recent jobs: analyses, builds, validations, connector files",
    description:
      "Every workflow of the account, newest first, with Temporal's status and the service's outcome; a connector's file with its route and file name. `temporalUrl` links the workflow in the Temporal Web UI when the service can reach the UI (the embedded dev server's, or TEMPORAL_UI_URL).",
    tags: ['Service'],
    auth: 'bearer',
    query: z.object({
      limit: z.coerce.number().int().min(1).max(100).default(20).meta({ description: 'At most this many jobs (1–100, default 20)' }),
    }),
    responses: {
      200: {
        description: 'Recent jobs',
        schema: z.object({
          jobs: z.array(
            z.object({
              workflowId: z.string(),
              operation: z.string(),
              status: z.string().meta({ description: 'RUNNING, COMPLETED, FAILED, TIMED_OUT, TERMINATED, CANCELLED' }),
              outcome: z.string().optional().meta({
                description: 'EinvoiceOutcome: running, valid, invalid, failed, refused, duplicate, sent, queued, awaiting-review, expired',
              }),
              route: z.string().optional(),
              file: z.string().optional(),
              startedAt: z.string(),
              closedAt: z.string().optional(),
              temporalUrl: z
                .url()
                .optional()
                .meta({ description: 'The workflow in the Temporal Web UI; absent while the UI cannot be reached' }),
            }),
          ),
        }),
      },
      ...errorResponses(400, 401, 403, 503),
    },
    async handle({ query, principal }) {
      const list = await recentJobs(services, principal, query.limit);
      const withLinks = await Promise.all(
        list.map(async (j) => {
          const temporalUrl = await services.temporalUi.workflowUrl(j.workflowId);
          return { ...j, ...(temporalUrl ? { temporalUrl } : {}) };
        }),
      );
      return { body: { jobs: withLinks }, headers: { 'Cache-Control': 'no-store' } };
    },
  });
}
