import { proxyActivities, setCurrentDetails, upsertSearchAttributes, uuid4 } from '@temporalio/workflow';
import type { Activities } from '../activities/index.js';
import type { TemplateSource } from '../src/render/registry.js';
import type { RequestContext } from '../src/temporal/context.js';
import { OUTCOME, type Outcome } from '../src/temporal/search-attributes.js';
import type { ValidationReport } from '../src/validation/index.js';

// Rendering a long invoice and storing are local and quick; validation runs the official
// schematron. Broken input or templates fail for good (non-retryable failures from the
// activities), I/O hiccups retry.
const { renderInvoicePdf, storeDocument, storeInvoiceRecord } = proxyActivities<Activities>({
  startToCloseTimeout: '1 minute',
  retry: { maximumAttempts: 5, initialInterval: '200 milliseconds', backoffCoefficient: 2 },
});
const { validateInvoiceXml } = proxyActivities<Activities>({
  startToCloseTimeout: '2 minutes',
  retry: { maximumAttempts: 3, initialInterval: '1 second' },
});

export const CREATE_INVOICE_PDF = 'createInvoicePdfFromJson';

export interface CreateInvoicePdfInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  templateId: string;
  templateDir: string;
  templateSource: TemplateSource;
  fileName: string;
  /** SPEC's invoicePassthrough: true returns the PDF without adding the invoice to the account's invoice list. */
  passthrough: boolean;
}

export interface CreateInvoicePdfResult {
  /** The stored ZUGFeRD PDF (downloadURL, resendToken). */
  documentId: string;
  /** The stored invoice record; null for passthrough. */
  invoiceId: string | null;
  pdfBlobKey: string;
  pages: number;
  report: ValidationReport;
}

/** createInvoicePdfFromJson: render through the template and embed the XML → validate the XML → store. */
export async function createInvoicePdf(input: CreateInvoicePdfInput): Promise<CreateInvoicePdfResult> {
  try {
    const { ctx } = input;
    const rendered = await renderInvoicePdf({ ctx, invoiceBlobKey: input.invoiceBlobKey, templateDir: input.templateDir, templateSource: input.templateSource });
    const report = await validateInvoiceXml({ ctx, xmlBlobKey: rendered.xmlBlobKey });
    const errors = report.findings.filter((f) => f.severity === 'error' || f.severity === 'fatal').length;
    const documentId = uuid4();
    const invoiceId = input.passthrough ? null : uuid4();
    await storeDocument({
      ctx,
      documentId,
      blobKey: rendered.pdfBlobKey,
      kind: 'zugferd-pdf',
      fileName: input.fileName,
      contentType: 'application/pdf',
      meta: { templateId: input.templateId, profile: 'EN16931', pages: rendered.pages, valid: report.valid, errors, invoiceId, xmlBlobKey: rendered.xmlBlobKey },
      usage: { operation: CREATE_INVOICE_PDF, units: 1 },
    });
    if (invoiceId) {
      await storeInvoiceRecord({ ctx, invoiceId, invoiceBlobKey: input.invoiceBlobKey, pdfDocumentId: documentId, fileName: input.fileName, templateId: input.templateId });
    }
    finish(report.valid ? 'valid' : 'invalid', `${rendered.pages}-page invoice PDF, template ${input.templateId}, ${report.valid ? 'valid' : `invalid (${errors} errors)`}, document ${documentId}`);
    return { documentId, invoiceId, pdfBlobKey: rendered.pdfBlobKey, pages: rendered.pages, report };
  } catch (err) {
    // A failed run is findable as such in the UI, not left looking 'running'.
    finish('failed', `failed: ${err instanceof Error ? err.message : String(err)}`);
    throw err;
  }
}

function finish(outcome: Outcome, details: string): void {
  upsertSearchAttributes([{ key: OUTCOME, value: outcome }]);
  setCurrentDetails(details);
}
