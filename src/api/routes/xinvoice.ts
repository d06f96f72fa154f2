import { z } from 'zod';
import { invoiceSchema } from '../../invoice/model.js';
import { invoicePlaceholders } from '../../mail/placeholders.js';
import { mailResultSchema, transportSchema } from '../../mail/schema.js';
import type { Finding, ValidationReport } from '../../validation/index.js';
import { createXInvoice, validateXInvoice } from '../../../workflows/xinvoice.js';
import { errorResponses } from '../common-responses.js';
import { downloadUrl, resendToken } from '../links.js';
import { defineRoute } from '../route.js';
import { prepareMail } from './delivery.js';
import { runWorkflow } from '../run-workflow.js';
import type { Services } from '../services.js';
import { findingSchema, artefactsSchema } from '../validation-schemas.js';



const MAX_XML_CHARS = 20 * 1024 * 1024;

const isError = (f: Finding) => f.severity === 'error' || f.severity === 'fatal';

export function xinvoiceRoutes(services: Services) {
  const { config } = services;

  const create = defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/createXinvoiceFromJson',
    operationId: 'createXinvoiceFromJson',
    summary: 'Create XRechnung 3.0 XML from invoice JSON',
    description: 'Builds XRechnung XML (UN/CEFACT CII by default, UBL on request), validates it with the official XSD, EN 16931 and XRechnung rules, and stores it.',
    tags: ['XRechnung'],
    auth: 'bearer',
    body: z
      .object({
        invoice: invoiceSchema,
        syntax: z.enum(['CII', 'UBL']).default('CII').meta({ description: 'XML syntax of the XRechnung; CII by default' }),
        fileName: z.string().trim().min(1).max(200).regex(/^[^/\\\u0000-\u001f"]+$/, 'no paths, quotes or control characters').optional().meta({ description: 'File name of the stored XML; default <invoiceNumber>.xml' }),
        transport: transportSchema.optional(),
      })
      .strict(),
    responses: {
      200: {
        description: 'The XML was created; `valid` tells whether it passed validation',
        schema: z.object({
          message: z.string(),
          downloadURL: z.url().meta({ description: 'Signed link to the stored XML, valid for DOWNLOAD_URL_TTL_SECONDS' }),
          resendToken: z.string().meta({ description: 'Identifies this document for the resend operation' }),
          documentId: z.uuid(),
          valid: z.boolean(),
          numberOfXInvoiceErrors: z.int(),
          xInvoiceErrors: z.array(findingSchema),
          xInvoiceWarnings: z.array(findingSchema),
          validationArtefacts: artefactsSchema,
          xInvoice: z.string().meta({ description: 'The XML' }),
          transport: mailResultSchema.optional().meta({ description: 'What happened to the e-mail, when the request had a transport' }),
        }),
      },
      ...errorResponses(400, 401, 403, 413, 415, 422, 503, 504),
    },
    async handle({ body, principal, request }) {
      const mail = await prepareMail(services, principal, body.transport, invoicePlaceholders(body.invoice));
      const { key } = await services.blobs.put(Buffer.from(JSON.stringify(body.invoice), 'utf8'));
      const fileName = body.fileName ?? `${safeName(body.invoice.invoiceNumber) ?? 'xrechnung'}.xml`;
      const result = await runWorkflow(createXInvoice, {
        client: services.temporal,
        taskQueue: config.temporal.taskQueue,
        operation: 'createXinvoiceFromJson',
        principal,
        request,
        args: [{ ctx: { requestId: request.requestId, accountId: principal.accountId }, invoiceBlobKey: key, syntax: body.syntax, fileName, mail: mail.request }],
        summary: `XRechnung ${body.syntax} from JSON`,
      });
      const xml = (await services.blobs.get(result.xmlBlobKey)).toString('utf8');
      const errors = result.report.findings.filter(isError);
      return {
        body: {
          message: result.report.valid ? 'XRechnung created; it is valid.' : `XRechnung created; validation found ${errors.length} error(s).`,
          downloadURL: downloadUrl(services, result.documentId),
          resendToken: resendToken(services, result.documentId),
          documentId: result.documentId,
          valid: result.report.valid,
          numberOfXInvoiceErrors: errors.length,
          xInvoiceErrors: errors,
          xInvoiceWarnings: result.report.findings.filter((f) => !isError(f)),
          validationArtefacts: result.report.artefacts,
          xInvoice: xml,
          transport: await mail.result(result.mail),
        },
      };
    },
  });

  const validate = defineRoute({
    method: 'POST',
    path: '/api/v1/zugferd/validateXinvoiceXml',
    operationId: 'validateXinvoiceXml',
    summary: 'Validate XRechnung / EN 16931 XML (CII or UBL)',
    description: 'Runs XSD, the CEN EN 16931 schematron and, for XRechnung documents, the XRechnung schematron. A document with errors is answered 200 with isValid false.',
    tags: ['XRechnung'],
    auth: 'bearer',
    body: z.object({ xinvoiceXML: z.string().min(1, 'must not be empty').max(MAX_XML_CHARS) }).strict(),
    responses: {
      200: {
        description: 'Validation report',
        schema: z.object({
          isValid: z.boolean(),
          message: z.string(),
          syntax: z.enum(['CII', 'UBL']).optional(),
          numberOfErrors: z.int(),
          numberOfWarnings: z.int(),
          findings: z.array(findingSchema),
          validationArtefacts: artefactsSchema,
        }),
      },
      ...errorResponses(400, 401, 403, 413, 415, 503, 504),
    },
    async handle({ body, principal, request }) {
      const { key } = await services.blobs.put(Buffer.from(body.xinvoiceXML, 'utf8'));
      const report = await runWorkflow(validateXInvoice, {
        client: services.temporal,
        taskQueue: config.temporal.taskQueue,
        operation: 'validateXinvoiceXml',
        principal,
        request,
        args: [{ ctx: { requestId: request.requestId, accountId: principal.accountId }, xmlBlobKey: key }],
        summary: 'Validate XRechnung XML',
      });
      return { body: validationResponse(report) };
    },
  });

  return [create, validate];
}

function validationResponse(report: ValidationReport) {
  const errors = report.findings.filter(isError).length;
  return {
    isValid: report.valid,
    message: report.valid ? 'The document is valid.' : `The document is invalid: ${errors} error(s).`,
    ...(report.syntax ? { syntax: report.syntax } : {}),
    numberOfErrors: errors,
    numberOfWarnings: report.findings.length - errors,
    findings: report.findings,
    validationArtefacts: report.artefacts,
  };
}

function safeName(text: string | undefined): string | undefined {
  const cleaned = text?.replace(/[^A-Za-z0-9._-]+/g, '_').slice(0, 100);
  return cleaned || undefined;
}
