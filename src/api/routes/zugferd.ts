import { z } from 'zod';
import {
  createZugferdFromJsonOperation,
  createZugferdFromXmlOperation,
  extractZugferdOperation,
  validateZugferdOperation,
} from '../../operations/zugferd.js';
import { invoiceInputSchema } from '../../invoice/input.js';
import { invoiceSchema } from '../../invoice/model.js';
import { MAX_FILE_BYTES } from '../../jobs/intake/file.js';
import {
  buildZugferdFromJson,
  buildZugferdFromXml,
  extractZugferdInvoice,
  validateZugferdPdf,
  type BuiltZugferd,
} from '../../jobs/submit/zugferd.js';
import { mailResultSchema, transportSchema } from '../../mail/schema.js';
import { ZUGFERD_PROFILES } from '../../pdf/profiles.js';
import type { ZugferdReport } from '../../pdf/validate.js';
import { errorCount, isErrorFinding as isError, type Finding } from '../../validation/index.js';
import { MAX_XML_BYTES } from '../../xml/index.js';
import { errorResponses } from '../common-responses.js';
import { REPORT_FORMATS_NOTE, reportAlternatives, reportAnswer, reportHeaders } from '../report-answer.js';
import { storedFileName } from '../file-names.js';
import { readFileField } from '../file-input.js';
import { downloadUrl, resendToken } from '../links.js';
import { idempotencyHeaders, oncePerKey } from '../idempotency.js';
import { defineRoute, jobOf } from '../route.js';
import type { Services } from '../services.js';
import { findingSchema, artefactsSchema, scenarioSchema } from '../validation-schemas.js';

const findings = (description: string) => z.array(findingSchema).meta({ description });
const base64Pdf = (description: string) =>
  z.string().meta({ description: `${description}; base64, a data: prefix and line breaks are tolerated, up to 11 MB decoded` });
const fileName = storedFileName('pdf', '<invoiceNumber>-zugferd.pdf');
const profileSchema = z
  .enum(ZUGFERD_PROFILES)
  .meta({ description: 'Factur-X / ZUGFeRD profile; the XML carries only what the profile allows' });

const fromPdf = (f: Finding) => f.source === 'pdf';

export function zugferdRoutes(services: Services) {
  return [createFromJsonRoute(services), createFromXmlRoute(services), validateRoute(services), extractRoute(services)];
}

const pdf = (body: Record<string, unknown>, field: string) => readFileField(body, { fields: [field], maxBytes: MAX_FILE_BYTES }).bytes;

/** What both create routes answer about the stored PDF. */
function created(services: Services, built: BuiltZugferd) {
  return {
    documentId: built.documentId,
    downloadURL: downloadUrl(services, built.documentId),
    resendToken: resendToken(services, built.documentId),
    profile: built.profile,
    convertedToPdfA: built.converted,
    substitutedFonts: built.substitutedFonts,
    attachments: built.attachments,
    ...(built.report.scenario ? { scenario: built.report.scenario } : {}),
    validationArtefacts: built.report.artefacts,
  };
}

const createdFields = {
  documentId: z.uuid(),
  downloadURL: z.url().meta({ description: 'Signed link to the stored PDF, valid for DOWNLOAD_URL_TTL_SECONDS' }),
  resendToken: z.string().meta({ description: 'Identifies this document for the resend operation' }),
  profile: profileSchema,
  convertedToPdfA: z.boolean().meta({ description: 'Whether the input PDF was converted to PDF/A-3b (Ghostscript) before embedding' }),
  substitutedFonts: z.number().int().meta({
    description:
      "How many fonts of the input are drawn in a close typeface of Ghostscript's, at the same widths, because their embedded programs contradicted those widths (PDF/A forbids it); 0 normally",
  }),
  attachments: z
    .array(
      z.object({
        fileName: z.string(),
        action: z.enum(['replaced', 'kept', 'dropped']),
        detail: z.string(),
      }),
    )
    .meta({
      description:
        'What became of the files the input PDF already carried: an earlier invoice XML is replaced by the new one, other files are kept as PDF/A-3 associated files (completed with MIME type, dates, size and relationship where missing), files that cannot be made conformant are dropped',
    }),
  scenario: scenarioSchema.optional().meta({ description: 'The validation scenario the embedded XML was judged under' }),
  validationArtefacts: artefactsSchema,
  transport: mailResultSchema.optional().meta({ description: 'What happened to the e-mail, when the request had a transport' }),
};
const transport = transportSchema.optional().meta({ description: 'Send the created PDF by e-mail in the same call' });

function createFromJsonRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/createZugferdFromJson',
    operationId: createZugferdFromJsonOperation.name,
    summary: 'Create a ZUGFeRD / Factur-X PDF/A-3 from invoice JSON and a PDF',
    description:
      'Writes the invoice as CII of the chosen profile, converts the PDF to PDF/A-3b when it is not PDF/A, embeds the XML as associated file with the Factur-X XMP metadata, validates the result (veraPDF, XMP, EN 16931, XRechnung) and stores it. An input that cannot be made PDF/A-3b conformant is refused (422 PDF_NOT_CONVERTIBLE).',
    tags: ['ZUGFeRD'],
    auth: 'bearer',
    body: z
      .object({
        invoice: invoiceInputSchema,
        invoicePdf64: base64Pdf('The visible invoice as PDF'),
        profile: profileSchema.default('EN16931'),
        fileName,
        transport,
      })
      .strict(),
    headers: idempotencyHeaders.request,
    responses: {
      200: {
        description: 'The PDF was created; zugferdValid and xInvoiceValid tell whether it passed validation',
        headers: idempotencyHeaders.response,
        schema: z.object({
          message: z.string(),
          ...createdFields,
          zugferdValid: z.boolean().meta({ description: 'PDF/A-3, attachment and XMP checks passed' }),
          xInvoiceValid: z.boolean().meta({ description: 'The embedded XML passed schema, EN 16931 and (for XRechnung) XRechnung rules' }),
          numberOfZugferdErrors: z.int(),
          numberOfxInvoiceErrors: z.int(),
          zugferd: z.string().meta({ description: 'The ZUGFeRD PDF, base64' }),
          zugferdErrorList: findings('PDF errors'),
          xInvoice: z.string().meta({ description: 'The embedded XML' }),
          xInvoiceErrorList: findings('XML errors'),
          warnings: findings('Warnings and information of both parts'),
        }),
      },
      ...errorResponses(400, 401, 403, 412, 413, 415, 422, 503, 504),
    },
    handle: ({ body, principal, request }) =>
      oncePerKey(services, principal, request, { operation: createZugferdFromJsonOperation.name, body }, async (services, job) => {
        const built = await buildZugferdFromJson(services, job, { ...body, pdf: pdf(body, 'invoicePdf64') });
        const { report } = built;
        const pdfErrors = report.findings.filter((f) => fromPdf(f) && isError(f));
        const xmlErrors = report.findings.filter((f) => !fromPdf(f) && isError(f));
        return {
          body: {
            message: summary(report),
            ...created(services, built),
            zugferdValid: report.pdfValid,
            xInvoiceValid: report.xmlValid,
            numberOfZugferdErrors: pdfErrors.length,
            numberOfxInvoiceErrors: xmlErrors.length,
            zugferd: built.pdf.toString('base64'),
            zugferdErrorList: pdfErrors,
            xInvoice: built.xml,
            xInvoiceErrorList: xmlErrors,
            warnings: report.findings.filter((f) => !isError(f)),
            transport: built.mail,
          },
        };
      }),
  });
}

function createFromXmlRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/createZugferdPdfFromXinvoice',
    operationId: createZugferdFromXmlOperation.name,
    summary: 'Embed existing CII XML (XRechnung, Factur-X) in a PDF as ZUGFeRD PDF/A-3',
    description:
      'The XML is embedded unchanged; its specification identifier (BT-24) selects the profile, the file name (factur-x.xml or xrechnung.xml), the XMP conformance level and the AFRelationship. UBL cannot be embedded (ZUGFeRD carries CII): 422 XML_NOT_ZUGFERD.',
    tags: ['ZUGFeRD'],
    auth: 'bearer',
    body: z
      .object({
        xInvoiceXml: z.string().min(1, 'must not be empty').max(MAX_XML_BYTES).meta({ description: 'UN/CEFACT CII XML' }),
        invoicePdf64: base64Pdf('The visible invoice as PDF'),
        fileName,
        transport,
      })
      .strict(),
    headers: idempotencyHeaders.request,
    responses: {
      200: {
        description: 'The PDF was created; valid tells whether it passed validation',
        headers: idempotencyHeaders.response,
        schema: z.object({
          valid: z.boolean(),
          message: z.string(),
          ...createdFields,
          numberOfZugferdErrors: z.int().meta({ description: 'Errors of the PDF and of the XML' }),
          zugferdFile: z.string().meta({ description: 'The ZUGFeRD PDF, base64' }),
          zugferdErrors: findings('Errors of the PDF (source pdf) and of the XML'),
          warnings: findings('Warnings and information'),
        }),
      },
      ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504),
    },
    handle: ({ body, principal, request }) =>
      oncePerKey(services, principal, request, { operation: createZugferdFromXmlOperation.name, body }, async (services, job) => {
        const built = await buildZugferdFromXml(services, job, {
          xml: body.xInvoiceXml,
          pdf: pdf(body, 'invoicePdf64'),
          fileName: body.fileName,
          transport: body.transport,
        });
        const errors = built.report.findings.filter(isError);
        return {
          body: {
            valid: built.report.valid,
            message: summary(built.report),
            ...created(services, built),
            numberOfZugferdErrors: errors.length,
            zugferdFile: built.pdf.toString('base64'),
            zugferdErrors: errors,
            warnings: built.report.findings.filter((f) => !isError(f)),
            transport: built.mail,
          },
        };
      }),
  });
}

function validateRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/validateZugferdPdf',
    operationId: validateZugferdOperation.name,
    summary: 'Validate a ZUGFeRD / Factur-X PDF',
    description:
      'PDF/A-3 conformance (veraPDF), the embedded invoice and its AFRelationship, the Factur-X XMP properties against the XML, the XML itself (XSD, EN 16931, XRechnung where BT-24 names it), and with comparePDF2XML whether the visible text shows the invoice number, dates, totals and parties of the XML. A document with errors is answered 200 with isValid false.' +
      REPORT_FORMATS_NOTE,
    tags: ['ZUGFeRD'],
    auth: 'bearer',
    body: z
      .object({
        zugferdFile64: base64Pdf('The ZUGFeRD / Factur-X PDF'),
        comparePDF2XML: z.boolean().default(false).meta({ description: 'Also compare the visible text of the PDF with the XML' }),
      })
      .strict(),
    headers: reportHeaders,
    responses: {
      200: {
        description: 'Validation report',
        alternatives: reportAlternatives,
        schema: z.object({
          isValid: z.boolean(),
          message: z.string(),
          pdfValid: z.boolean().meta({ description: "No error among the findings with source 'pdf'" }),
          xmlValid: z.boolean().meta({ description: 'An invoice XML was found and it has no error' }),
          profile: z.string().optional().meta({
            description: 'Profile named by BT-24 (MINIMUM, BASICWL, BASIC, EN16931, EXTENDED, XRECHNUNG; COMFORT for ZUGFeRD 1.0)',
          }),
          generation: z.string().optional().meta({ description: 'Factur-X 1.0 / ZUGFeRD 2.x, ZUGFeRD 2.0 or ZUGFeRD 1.0' }),
          xmlFileName: z.string().optional(),
          scenario: scenarioSchema.optional(),
          numberOfErrors: z.int(),
          numberOfWarnings: z.int(),
          findings: findings('All findings, PDF first'),
          validationArtefacts: artefactsSchema,
        }),
      },
      ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504),
    },
    async handle({ body, principal, request }) {
      const report = await validateZugferdPdf(services, jobOf(principal, request), {
        pdf: pdf(body, 'zugferdFile64'),
        compareText: body.comparePDF2XML,
      });
      const forPeople = await reportAnswer({ kind: 'zugferd', ...report }, request);
      if (forPeople) return forPeople;
      const errors = errorCount(report);
      return {
        body: {
          isValid: report.valid,
          message: report.valid ? 'The document is valid.' : `The document is invalid: ${errors} error(s).`,
          pdfValid: report.pdfValid,
          xmlValid: report.xmlValid,
          ...(report.profile ? { profile: report.profile } : {}),
          ...(report.generation ? { generation: report.generation } : {}),
          ...(report.xmlFileName ? { xmlFileName: report.xmlFileName } : {}),
          ...(report.scenario ? { scenario: report.scenario } : {}),
          numberOfErrors: errors,
          numberOfWarnings: report.findings.length - errors,
          findings: report.findings,
          validationArtefacts: report.artefacts,
        },
      };
    },
  });
}

function extractRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/extractXinvoiceFromZugferdToJson',
    operationId: extractZugferdOperation.name,
    summary: 'Extract the invoice of a ZUGFeRD / Factur-X / XRechnung PDF as JSON',
    description:
      'Finds the embedded XML (factur-x.xml, zugferd-invoice.xml, ZUGFeRD-invoice.xml, xrechnung.xml, else another XML attachment; ZUGFeRD 1.0 included) and answers it with its profile and the invoice JSON. A PDF without invoice XML: 422 INVOICE_XML_MISSING.',
    tags: ['ZUGFeRD'],
    auth: 'bearer',
    body: z.object({ zugferd64: base64Pdf('The ZUGFeRD / Factur-X PDF') }).strict(),
    responses: {
      200: {
        description: 'The embedded invoice',
        schema: z.object({
          message: z.string(),
          invoice: invoiceSchema
            .optional()
            .meta({ description: 'Absent when the XML does not map onto the invoice model (message says why)' }),
          profile: z.string().optional().meta({ description: 'Profile named by BT-24; absent when it names none' }),
          generation: z.string(),
          specificationIdentifier: z.string().meta({ description: 'BT-24 as written' }),
          syntax: z.enum(['CII', 'UBL']).optional(),
          fileName: z.string().meta({ description: 'Name of the embedded file' }),
          xInvoice: z.string().meta({ description: 'The embedded XML' }),
        }),
      },
      ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504),
    },
    async handle({ body, principal, request }) {
      const result = await extractZugferdInvoice(services, jobOf(principal, request), pdf(body, 'zugferd64'));
      return {
        body: {
          message: result.problem ?? `Extracted ${result.fileName}.`,
          ...(result.invoice ? { invoice: result.invoice } : {}),
          ...(result.detected.profile ? { profile: result.detected.profile } : {}),
          generation: result.detected.generation,
          specificationIdentifier: result.detected.guideline,
          ...(result.syntax ? { syntax: result.syntax } : {}),
          fileName: result.fileName,
          xInvoice: result.xml,
        },
      };
    },
  });
}

function summary(report: ZugferdReport): string {
  const errors = errorCount(report);
  return report.valid
    ? `ZUGFeRD ${report.profile ?? ''} PDF created; it is valid.`
    : `ZUGFeRD ${report.profile ?? ''} PDF created; validation found ${errors} error(s).`;
}
