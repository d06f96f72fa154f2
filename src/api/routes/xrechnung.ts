import { z } from 'zod';
import { createXInvoiceOperation, validateXInvoiceOperation } from '../../operations/xrechnung.js';
import { invoiceInputSchema } from '../../invoice/input.js';
import { buildXRechnung, validateXRechnung } from '../../jobs/submit/xrechnung.js';
import { mailResultSchema, transportSchema } from '../../mail/schema.js';
import { errorCount, isErrorFinding, type ValidationReport } from '../../validation/index.js';
import { errorResponses } from '../common-responses.js';
import { REPORT_FORMATS_NOTE, reportAlternatives, reportAnswer, reportHeaders } from '../report-answer.js';
import { storedFileName } from '../file-names.js';
import { downloadUrl, resendToken } from '../links.js';
import { idempotencyHeaders, oncePerKey } from '../idempotency.js';
import { defineRoute, jobOf } from '../route.js';
import type { Services } from '../services.js';
import { validationMessages, validationMessageSchema } from '../validation-messages.js';
import { findingSchema, artefactsSchema, scenarioSchema } from '../validation-schemas.js';

const MAX_XML_CHARS = 20 * 1024 * 1024;

export function xrechnungRoutes(services: Services) {
  return [createRoute(services), validateRoute(services)];
}

function createRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/createXinvoiceFromJson',
    operationId: createXInvoiceOperation.name,
    summary: 'Create XRechnung 3.0 XML from invoice JSON',
    description:
      'Builds XRechnung XML (UN/CEFACT CII by default, UBL on request), validates it with the official XSD, EN 16931 and XRechnung rules, and stores it.',
    tags: ['XRechnung'],
    auth: 'bearer',
    body: z
      .object({
        invoice: invoiceInputSchema,
        syntax: z.enum(['CII', 'UBL']).default('CII').meta({ description: 'XML syntax of the XRechnung; CII by default' }),
        fileName: storedFileName('xml', '<invoiceNumber>.xml'),
        transport: transportSchema.optional(),
      })
      .strict(),
    headers: idempotencyHeaders.request,
    responses: {
      200: {
        description: 'The XML was created; `valid` tells whether it passed validation',
        headers: idempotencyHeaders.response,
        schema: z.object({
          message: z.string(),
          downloadURL: z.url().meta({ description: 'Signed link to the stored XML, valid for DOWNLOAD_URL_TTL_SECONDS' }),
          resendToken: z.string().meta({ description: 'Identifies this document for the resend operation' }),
          documentId: z.uuid(),
          valid: z.boolean(),
          numberOfXInvoiceErrors: z.int(),
          xInvoiceErrors: z.array(findingSchema),
          xInvoiceWarnings: z.array(findingSchema),
          scenario: scenarioSchema.optional(),
          validationArtefacts: artefactsSchema,
          xInvoice: z.string().meta({ description: 'The XML' }),
          transport: mailResultSchema.optional().meta({ description: 'What happened to the e-mail, when the request had a transport' }),
        }),
      },
      ...errorResponses(400, 401, 403, 412, 413, 415, 422, 503, 504),
    },
    handle: ({ body, principal, request }) =>
      oncePerKey(services, principal, request, { operation: createXInvoiceOperation.name, body }, async (services, job) => {
        const built = await buildXRechnung(services, job, body);
        const errors = built.report.findings.filter(isErrorFinding);
        return {
          body: {
            message: built.report.valid
              ? 'XRechnung created; it is valid.'
              : `XRechnung created; validation found ${errors.length} error(s).`,
            downloadURL: downloadUrl(services, built.documentId),
            resendToken: resendToken(services, built.documentId),
            documentId: built.documentId,
            valid: built.report.valid,
            numberOfXInvoiceErrors: errors.length,
            xInvoiceErrors: errors,
            xInvoiceWarnings: built.report.findings.filter((f) => !isErrorFinding(f)),
            ...(built.report.scenario ? { scenario: built.report.scenario } : {}),
            validationArtefacts: built.report.artefacts,
            xInvoice: built.xml,
            transport: built.mail,
          },
        };
      }),
  });
}

function validateRoute(services: Services) {
  return defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/validateXinvoiceXml',
    operationId: validateXInvoiceOperation.name,
    summary: 'Validate XRechnung / EN 16931 XML (CII or UBL)',
    description:
      "Judges the XML under the scenario its root element and BT-24 select, as the KoSIT validator does: XRechnung 3.0 (standard, extension, CVD), plain EN 16931, Peppol BIS Billing 3.0, or a Factur-X / ZUGFeRD profile; XSD, the CEN EN 16931 schematron, and the XRechnung schematron or the Factur-X profile rules, with the scenario's severity overrides. A document with errors, or that no scenario supports (e.g. XRechnung before 3.0), is answered 200 with isValid false." +
      REPORT_FORMATS_NOTE,
    tags: ['XRechnung'],
    auth: 'bearer',
    body: z.object({ xinvoiceXML: z.string().min(1, 'must not be empty').max(MAX_XML_CHARS) }).strict(),
    headers: reportHeaders,
    responses: {
      200: {
        description: 'Validation report',
        alternatives: reportAlternatives,
        schema: z.object({
          isValid: z.boolean(),
          message: z.string(),
          syntax: z.enum(['CII', 'UBL']).optional(),
          scenario: scenarioSchema.optional(),
          numberOfErrors: z.int(),
          numberOfWarnings: z.int(),
          findings: z.array(findingSchema),
          xInvoiceErrors: z
            .array(validationMessageSchema)
            .meta({ description: 'The errors among the findings, in the item shape of the RechnungsAPI client' }),
          messages: z.array(validationMessageSchema).meta({
            description:
              'The warnings and information among the findings, in the same shape; together with xInvoiceErrors every finding once',
          }),
          validationArtefacts: artefactsSchema,
        }),
      },
      ...errorResponses(400, 401, 403, 413, 415, 503, 504),
    },
    async handle({ body, principal, request }) {
      const report = await validateXRechnung(services, jobOf(principal, request), body.xinvoiceXML);
      const forPeople = await reportAnswer({ kind: 'xml', ...report }, request, body.xinvoiceXML);
      if (forPeople) return forPeople;
      return { body: { ...validationResponse(report), ...validationMessages(report, body.xinvoiceXML) } };
    },
  });
}

function validationResponse(report: ValidationReport) {
  const errors = errorCount(report);
  return {
    isValid: report.valid,
    message: report.valid ? 'The document is valid.' : `The document is invalid: ${errors} error(s).`,
    ...(report.syntax ? { syntax: report.syntax } : {}),
    ...(report.scenario ? { scenario: report.scenario } : {}),
    numberOfErrors: errors,
    numberOfWarnings: report.findings.length - errors,
    findings: report.findings,
    validationArtefacts: report.artefacts,
  };
}
