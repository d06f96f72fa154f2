import { uuid4 } from '@temporalio/workflow';
import type { MailRequest } from '../src/mail/types.js';
import type { ZugferdReport } from '../src/pdf/validate.js';
import type { RequestContext } from '../src/operations/context.js';
import {
  createZugferdFromJsonOperation,
  createZugferdFromXmlOperation,
  extractZugferdOperation,
  validateZugferdOperation,
  type CreateZugferdFromJsonInput,
  type CreateZugferdFromXmlInput,
  type CreateZugferdResult,
  type ExtractZugferdInput,
  type ExtractZugferdResult,
  type ValidateZugferdInput,
} from '../src/operations/zugferd.js';
import { deliverIfRequested } from './mail.js';
import { finish, recordingFailure } from './outcome.js';
import { stepsOf } from './steps.js';
import { errorCount } from '../src/validation/findings.js';
import { buildValidated } from './zugferd-build.js';

const fromJson = stepsOf(createZugferdFromJsonOperation.steps);
const { validateZugferdPdf } = stepsOf(validateZugferdOperation.steps);
const { extractZugferdInvoice } = stepsOf(extractZugferdOperation.steps);

interface BuildInput {
  ctx: RequestContext;
  operation: typeof createZugferdFromJsonOperation | typeof createZugferdFromXmlOperation;
  pdfBlobKey: string;
  xmlBlobKey: string;
  fileName: string;
  /** Set when the request asked for the PDF to be sent by e-mail. */
  mail?: MailRequest;
}

/** build → validate (zugferd-build.ts) → store → (e-mail). An invalid XML is stored and reported, not refused. */
async function buildValidateStore(input: BuildInput): Promise<CreateZugferdResult> {
  const { built, report } = await buildValidated({ ctx: input.ctx, pdfBlobKey: input.pdfBlobKey, xmlBlobKey: input.xmlBlobKey });
  const { documentId } = await stepsOf(input.operation.steps).storeDocument({
    ctx: input.ctx,
    documentId: uuid4(),
    blobKey: built.pdfBlobKey,
    kind: 'zugferd-pdf',
    fileName: input.fileName,
    contentType: 'application/pdf',
    meta: { profile: built.profile, converted: built.converted, valid: report.valid, errors: errorCount(report) },
    usage: { operation: input.operation.name, units: 1 },
  });
  finish(
    report.valid ? 'valid' : 'invalid',
    `ZUGFeRD ${built.profile} ${report.valid ? 'valid' : `invalid (${errorCount(report)} errors)`}, document ${documentId}`,
  );
  const mail = await deliverIfRequested(input.ctx, input.mail, documentId);
  return {
    documentId,
    pdfBlobKey: built.pdfBlobKey,
    xmlBlobKey: input.xmlBlobKey,
    profile: built.profile,
    converted: built.converted,
    substitutedFonts: built.substitutedFonts,
    attachments: built.attachments,
    report,
    ...(mail ? { mail } : {}),
  };
}

/** createZugferdFromJson: invoice JSON → CII of the profile → embedded in the PDF. */
export async function createZugferdFromJson(input: CreateZugferdFromJsonInput): Promise<CreateZugferdResult> {
  return recordingFailure(async () => {
    const { xmlBlobKey } = await fromJson.buildInvoiceXml({ ctx: input.ctx, invoiceBlobKey: input.invoiceBlobKey, profile: input.profile });
    return buildValidateStore({
      ctx: input.ctx,
      operation: createZugferdFromJsonOperation,
      pdfBlobKey: input.pdfBlobKey,
      xmlBlobKey,
      fileName: input.fileName,
      mail: input.mail,
    });
  });
}

/** createZugferdPdfFromXinvoice: the caller's CII, unchanged, embedded in the PDF. */
export async function createZugferdFromXml(input: CreateZugferdFromXmlInput): Promise<CreateZugferdResult> {
  return recordingFailure(() => buildValidateStore({ ...input, operation: createZugferdFromXmlOperation }));
}

/** validateZugferdPdf: one validation activity, recorded like every other operation. */
export async function validateZugferd(input: ValidateZugferdInput): Promise<ZugferdReport> {
  return recordingFailure(async () => {
    const report = await validateZugferdPdf(input);
    finish(
      report.valid ? 'valid' : 'invalid',
      `ZUGFeRD PDF ${report.profile ?? ''} ${report.valid ? 'valid' : `invalid (${errorCount(report)} errors)`}`,
    );
    return report;
  });
}

/** extractXinvoiceFromZugferdToJson. */
export async function extractZugferd(input: ExtractZugferdInput): Promise<ExtractZugferdResult> {
  return recordingFailure(async () => {
    const result = await extractZugferdInvoice(input);
    finish('valid', `extracted ${result.fileName} (${result.detected.profile ?? 'unknown profile'})`);
    return result;
  });
}
