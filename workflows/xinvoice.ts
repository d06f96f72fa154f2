import { uuid4 } from '@temporalio/workflow';
import type { CreateXInvoiceInput, CreateXInvoiceResult, ValidateXInvoiceInput } from '../src/jobs/contracts.js';
import { errorCount } from '../src/validation/findings.js';
import type { ValidationReport } from '../src/validation/index.js';
import type { Activities } from '../activities/index.js';
import { proxySteps, QUICK, XML_RULES } from './activity-profiles.js';
import { deliverIfRequested } from './mail.js';
import { finish, recordingFailure } from './outcome.js';

// Building and storing are quick and local; validation runs the official
// schematron and may be slow on a cold worker. Invalid input fails for good
// (non-retryable ApplicationFailure thrown by the activity), I/O hiccups retry.
const { buildInvoiceXml, storeDocument } = proxySteps<Activities>(QUICK);
const { validateInvoiceXml } = proxySteps<Activities>(XML_RULES);

/** createXinvoiceFromJson: build → validate → store → (e-mail). */
export async function createXInvoice(input: CreateXInvoiceInput): Promise<CreateXInvoiceResult> {
  return recordingFailure(async () => {
    const built = await buildInvoiceXml({ ctx: input.ctx, invoiceBlobKey: input.invoiceBlobKey, syntax: input.syntax });
    const report = await validateInvoiceXml({ ctx: input.ctx, xmlBlobKey: built.xmlBlobKey });
    const { documentId } = await storeDocument({
      ctx: input.ctx,
      documentId: uuid4(),
      blobKey: built.xmlBlobKey,
      kind: 'xrechnung-xml',
      fileName: input.fileName,
      contentType: 'application/xml',
      meta: { syntax: input.syntax, valid: report.valid, errors: errorCount(report) },
      usage: { operation: 'createXinvoiceFromJson', units: 1 },
    });
    finish(
      report.valid ? 'valid' : 'invalid',
      `${input.syntax} XML ${report.valid ? 'valid' : `invalid (${errorCount(report)} errors)`}, document ${documentId}`,
    );
    const mail = await deliverIfRequested(input.ctx, input.mail, documentId);
    return { documentId, xmlBlobKey: built.xmlBlobKey, report, ...(mail ? { mail } : {}) };
  });
}

/** validateXinvoiceXml: one validation activity, recorded like every other operation. */
export async function validateXInvoice(input: ValidateXInvoiceInput): Promise<ValidationReport> {
  return recordingFailure(async () => {
    const report = await validateInvoiceXml({ ctx: input.ctx, xmlBlobKey: input.xmlBlobKey });
    finish(
      report.valid ? 'valid' : 'invalid',
      `${report.syntax ?? 'unknown'} XML ${report.valid ? 'valid' : `invalid (${errorCount(report)} errors)`}`,
    );
    return report;
  });
}
