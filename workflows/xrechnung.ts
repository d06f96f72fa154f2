import { uuid4 } from '@temporalio/workflow';
import {
  createXInvoiceOperation,
  validateXInvoiceOperation,
  type CreateXInvoiceInput,
  type CreateXInvoiceResult,
  type ValidateXInvoiceInput,
} from '../src/operations/xrechnung.js';
import { errorCount } from '../src/validation/findings.js';
import type { ValidationReport } from '../src/validation/index.js';
import type { CreatedXmlDocument, CreateXmlDocumentInput } from '../activities/xrechnung.js';
import { deliverIfRequested } from './mail.js';
import { finish, recordingFailure } from './outcome.js';
import { localStepsOf, stepsOf } from './steps.js';

const { buildInvoiceXml, validateInvoiceXml, storeDocument } = stepsOf(createXInvoiceOperation.steps);
// The one step exists only in runs that take the single-step path (CreateXInvoiceInput.singleStep).
const { createXmlDocument } = localStepsOf(createXInvoiceOperation.steps);
const validation = stepsOf(validateXInvoiceOperation.steps);

/** createXinvoiceFromJson: build → validate → store → (e-mail). */
export async function createXInvoice(input: CreateXInvoiceInput): Promise<CreateXInvoiceResult> {
  return recordingFailure(async () => {
    const document = {
      documentId: uuid4(),
      kind: 'xrechnung-xml',
      fileName: input.fileName,
      contentType: 'application/xml',
      meta: { syntax: input.syntax },
      usage: { operation: createXInvoiceOperation.name, units: 1 },
    };
    const { ctx, invoiceBlobKey, syntax } = input;
    const { documentId, xmlBlobKey, report } = input.singleStep
      ? await createXmlDocument({ ctx, invoiceBlobKey, syntax, document })
      : await inThreeSteps({ ctx, invoiceBlobKey, syntax, document });
    finish(
      report.valid ? 'valid' : 'invalid',
      `${input.syntax} XML ${report.valid ? 'valid' : `invalid (${errorCount(report)} errors)`}, document ${documentId}`,
    );
    const mail = await deliverIfRequested(input.ctx, input.mail, documentId);
    return { documentId, xmlBlobKey, report, ...(mail ? { mail } : {}) };
  });
}

/** How runs started without `singleStep` did it, which their histories hold. */
async function inThreeSteps({ ctx, invoiceBlobKey, syntax, document }: CreateXmlDocumentInput): Promise<CreatedXmlDocument> {
  const built = await buildInvoiceXml({ ctx, invoiceBlobKey, syntax });
  const report = await validateInvoiceXml({ ctx, xmlBlobKey: built.xmlBlobKey });
  const meta = { ...document.meta, valid: report.valid, errors: errorCount(report) };
  const { documentId } = await storeDocument({ ...document, ctx, blobKey: built.xmlBlobKey, meta });
  return { documentId, xmlBlobKey: built.xmlBlobKey, report };
}

/** validateXinvoiceXml: one validation activity, recorded like every other operation. */
export async function validateXInvoice(input: ValidateXInvoiceInput): Promise<ValidationReport> {
  return recordingFailure(async () => {
    const report = await validation.validateInvoiceXml({ ctx: input.ctx, xmlBlobKey: input.xmlBlobKey });
    finish(
      report.valid ? 'valid' : 'invalid',
      `${report.syntax ?? 'unknown'} XML ${report.valid ? 'valid' : `invalid (${errorCount(report)} errors)`}`,
    );
    return report;
  });
}
