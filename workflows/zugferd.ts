import { ApplicationFailure, proxyActivities, uuid4 } from '@temporalio/workflow';
import type { BuildZugferdResult, ExtractZugferdResult } from '../activities/zugferd.js';
import type { Activities } from '../activities/index.js';
import type { MailOutcome, MailRequest } from '../src/mail/types.js';
import type { ZugferdProfile } from '../src/pdf/profiles.js';
import type { ZugferdReport } from '../src/pdf/validate.js';
import type { RequestContext } from '../src/temporal/context.js';
import { deliverIfRequested } from './mail.js';
import { finish, recordingFailure } from './outcome.js';

// Writing XML and storing are quick; building may run Ghostscript (up to a minute on a large
// input) and validation runs veraPDF in a JVM. Bad input fails for good (non-retryable
// ApplicationFailure from the activity); I/O hiccups and a crashed worker retry.
const { writeZugferdXml, storeDocument } = proxyActivities<Activities>({
  startToCloseTimeout: '30 seconds',
  retry: { maximumAttempts: 5, initialInterval: '200 milliseconds', backoffCoefficient: 2 },
});
const { buildZugferdPdf, extractZugferdInvoice } = proxyActivities<Activities>({
  startToCloseTimeout: '3 minutes',
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});
const { validateZugferdPdf } = proxyActivities<Activities>({
  startToCloseTimeout: '4 minutes',
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

export interface CreateZugferdResult {
  documentId: string;
  pdfBlobKey: string;
  xmlBlobKey: string;
  profile: ZugferdProfile;
  converted: boolean;
  report: ZugferdReport;
  mail?: MailOutcome;
}

interface BuildInput {
  ctx: RequestContext;
  operation: string;
  pdfBlobKey: string;
  xmlBlobKey: string;
  fileName: string;
  /** Set when the request asked for the PDF to be sent by e-mail. */
  mail?: MailRequest;
}

/**
 * build → validate → store → (e-mail). An input that claims PDF/A but whose result fails the PDF/A check is
 * converted with Ghostscript and built again; a result that still fails is refused, so no file
 * ever claims a conformance it lacks.
 */
async function buildValidateStore(input: BuildInput): Promise<CreateZugferdResult> {
  const base = { ctx: input.ctx, pdfBlobKey: input.pdfBlobKey, xmlBlobKey: input.xmlBlobKey };
  let built: BuildZugferdResult = await buildZugferdPdf({ ...base, convert: 'auto' });
  let report = await validateZugferdPdf({ ctx: input.ctx, pdfBlobKey: built.pdfBlobKey, compareText: false });
  if (!report.pdfValid && !built.converted) {
    built = await buildZugferdPdf({ ...base, convert: 'always' });
    report = await validateZugferdPdf({ ctx: input.ctx, pdfBlobKey: built.pdfBlobKey, compareText: false });
  }
  if (!report.pdfValid) {
    const problems = report.findings.filter((f) => f.source === 'pdf' && (f.severity === 'error' || f.severity === 'fatal'));
    throw ApplicationFailure.nonRetryable(
      `Even after conversion the PDF is not PDF/A-3b conformant: ${problems
        .slice(0, 5)
        .map((f) => `${f.ruleId}: ${f.message}`)
        .join('; ')}`,
      'PDF_NOT_CONVERTIBLE',
    );
  }
  const { documentId } = await storeDocument({
    ctx: input.ctx,
    documentId: uuid4(),
    blobKey: built.pdfBlobKey,
    kind: 'zugferd-pdf',
    fileName: input.fileName,
    contentType: 'application/pdf',
    meta: { profile: built.profile, converted: built.converted, valid: report.valid, errors: countErrors(report) },
    usage: { operation: input.operation, units: 1 },
  });
  finish(report.valid ? 'valid' : 'invalid', `ZUGFeRD ${built.profile} ${report.valid ? 'valid' : `invalid (${countErrors(report)} errors)`}, document ${documentId}`);
  const mail = await deliverIfRequested(input.ctx, input.mail, documentId);
  return { documentId, pdfBlobKey: built.pdfBlobKey, xmlBlobKey: input.xmlBlobKey, profile: built.profile, converted: built.converted, report, ...(mail ? { mail } : {}) };
}

export interface CreateZugferdFromJsonInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  pdfBlobKey: string;
  profile: ZugferdProfile;
  fileName: string;
  mail?: MailRequest;
}

/** createZugferdFromJson: invoice JSON → CII of the profile → embedded in the PDF. */
export async function createZugferdFromJson(input: CreateZugferdFromJsonInput): Promise<CreateZugferdResult> {
  return recordingFailure(async () => {
    const { xmlBlobKey } = await writeZugferdXml({ ctx: input.ctx, invoiceBlobKey: input.invoiceBlobKey, profile: input.profile });
    return buildValidateStore({ ctx: input.ctx, operation: 'createZugferdFromJson', pdfBlobKey: input.pdfBlobKey, xmlBlobKey, fileName: input.fileName, mail: input.mail });
  });
}

export interface CreateZugferdFromXmlInput {
  ctx: RequestContext;
  xmlBlobKey: string;
  pdfBlobKey: string;
  fileName: string;
  mail?: MailRequest;
}

/** createZugferdPdfFromXinvoice: the caller's CII, unchanged, embedded in the PDF. */
export async function createZugferdFromXml(input: CreateZugferdFromXmlInput): Promise<CreateZugferdResult> {
  return recordingFailure(() => buildValidateStore({ ...input, operation: 'createZugferdPdfFromXinvoice' }));
}

/** validateZugferdPdf: one validation activity, recorded like every other operation. */
export async function validateZugferd(input: { ctx: RequestContext; pdfBlobKey: string; compareText: boolean }): Promise<ZugferdReport> {
  return recordingFailure(async () => {
    const report = await validateZugferdPdf(input);
    finish(report.valid ? 'valid' : 'invalid', `ZUGFeRD PDF ${report.profile ?? ''} ${report.valid ? 'valid' : `invalid (${countErrors(report)} errors)`}`);
    return report;
  });
}

/** extractXinvoiceFromZugferdToJson. */
export async function extractZugferd(input: { ctx: RequestContext; pdfBlobKey: string }): Promise<ExtractZugferdResult> {
  return recordingFailure(async () => {
    const result = await extractZugferdInvoice(input);
    finish('valid', `extracted ${result.fileName} (${result.detected.profile ?? 'unknown profile'})`);
    return result;
  });
}

function countErrors(report: ZugferdReport): number {
  return report.findings.filter((f) => f.severity === 'error' || f.severity === 'fatal').length;
}
