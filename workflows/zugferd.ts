import { uuid4 } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import { PDF, proxySteps, QUICK } from './activity-profiles.js';
import type {
  CreateZugferdFromJsonInput,
  CreateZugferdFromXmlInput,
  CreateZugferdResult,
  ExtractZugferdInput,
  ExtractZugferdResult,
  ValidateZugferdInput,
} from '../src/jobs/contracts.js';
import type { MailRequest } from '../src/mail/types.js';
import type { ZugferdReport } from '../src/pdf/validate.js';
import type { RequestContext } from '../src/temporal/context.js';
import { deliverIfRequested } from './mail.js';
import { finish, recordingFailure } from './outcome.js';
import { errorCount } from '../src/validation/findings.js';
import { buildValidated } from './zugferd-build.js';

// Writing XML and storing are quick; extraction reads the PDF in an isolated worker and
// validation runs veraPDF in a JVM (building: zugferd-build.ts). Bad input fails for good
// (non-retryable ApplicationFailure from the activity); I/O hiccups and a crashed worker retry.
const { buildInvoiceXml, storeDocument } = proxySteps<Activities>(QUICK);
const { extractZugferdInvoice, validateZugferdPdf } = proxySteps<Activities>(PDF);

interface BuildInput {
  ctx: RequestContext;
  operation: string;
  pdfBlobKey: string;
  xmlBlobKey: string;
  fileName: string;
  /** Set when the request asked for the PDF to be sent by e-mail. */
  mail?: MailRequest;
}

/** build → validate (zugferd-build.ts) → store → (e-mail). An invalid XML is stored and reported, not refused. */
async function buildValidateStore(input: BuildInput): Promise<CreateZugferdResult> {
  const { built, report } = await buildValidated({ ctx: input.ctx, pdfBlobKey: input.pdfBlobKey, xmlBlobKey: input.xmlBlobKey });
  const { documentId } = await storeDocument({
    ctx: input.ctx,
    documentId: uuid4(),
    blobKey: built.pdfBlobKey,
    kind: 'zugferd-pdf',
    fileName: input.fileName,
    contentType: 'application/pdf',
    meta: { profile: built.profile, converted: built.converted, valid: report.valid, errors: errorCount(report) },
    usage: { operation: input.operation, units: 1 },
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
    const { xmlBlobKey } = await buildInvoiceXml({ ctx: input.ctx, invoiceBlobKey: input.invoiceBlobKey, profile: input.profile });
    return buildValidateStore({
      ctx: input.ctx,
      operation: 'createZugferdFromJson',
      pdfBlobKey: input.pdfBlobKey,
      xmlBlobKey,
      fileName: input.fileName,
      mail: input.mail,
    });
  });
}

/** createZugferdPdfFromXinvoice: the caller's CII, unchanged, embedded in the PDF. */
export async function createZugferdFromXml(input: CreateZugferdFromXmlInput): Promise<CreateZugferdResult> {
  return recordingFailure(() => buildValidateStore({ ...input, operation: 'createZugferdPdfFromXinvoice' }));
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
