import { uuid4 } from '@temporalio/workflow';
import { createInvoicePdfOperation, type CreateInvoicePdfInput, type CreateInvoicePdfResult } from '../src/operations/render.js';
import { errorCount } from '../src/validation/findings.js';
import { deliverIfRequested } from './mail.js';
import { finish, recordingFailure } from './outcome.js';
import { stepsOf } from './steps.js';

const {
  renderTemplatePdf,
  buildInvoiceXml,
  storeDocument,
  storeInvoiceRecord,
  recordUnkeptCreation,
  discardBlobs,
  buildZugferdPdf,
  validateZugferdPdf,
} = stepsOf(createInvoicePdfOperation.steps);

/** A template invoice carries the full EN 16931 data set. */
const PROFILE = 'EN16931';

/**
 * createInvoicePdfFromJson: render through the template → attach the EN 16931 XML → validate the
 * whole (PDF/A-3b by veraPDF, Factur-X structure, XML rules, and that the page shows what the XML
 * says) → store → (e-mail). The rendered PDF already declares PDF/A-3b, so no Ghostscript conversion runs.
 * Passthrough keeps nothing: the PDF goes back in the answer only (the job deletes it once read),
 * unless it is also e-mailed, when it stays as the e-mail's document for retries and resends.
 * Either way the answer's ids are numbers reserved like a stored document's.
 */
export async function createInvoicePdf(input: CreateInvoicePdfInput): Promise<CreateInvoicePdfResult> {
  return recordingFailure(async () => {
    const { ctx } = input;
    const rendered = await renderTemplatePdf({
      ctx,
      invoiceBlobKey: input.invoiceBlobKey,
      templateDir: input.templateDir,
      templateSource: input.templateSource,
    });
    const { xmlBlobKey } = await buildInvoiceXml({ ctx, invoiceBlobKey: input.invoiceBlobKey, profile: PROFILE });
    const built = await buildZugferdPdf({ ctx, pdfBlobKey: rendered.pdfBlobKey, xmlBlobKey, convert: 'auto' });
    const report = await validateZugferdPdf({ ctx, pdfBlobKey: built.pdfBlobKey, compareText: true });
    const errors = errorCount(report);
    const usage = { operation: createInvoicePdfOperation.name, units: 1 };
    const intermediate = [rendered.pdfBlobKey, xmlBlobKey].filter((key) => key !== built.pdfBlobKey);
    if (input.passthrough && !input.mail) {
      const { numbers } = await recordUnkeptCreation({ ctx, usageId: uuid4(), usage, reserve: 2 });
      await discardBlobs({ ctx, keys: [...intermediate, input.invoiceBlobKey] });
      finish(
        report.valid ? 'valid' : 'invalid',
        `${rendered.pages}-page invoice PDF, template ${input.templateId}, ${report.valid ? 'valid' : `invalid (${errors} errors)`}, not kept (passthrough)`,
      );
      return {
        documentId: null,
        invoiceId: null,
        reserved: { document: numbers[0]!, invoice: numbers[1]! },
        pdfBlobKey: built.pdfBlobKey,
        pages: rendered.pages,
        report,
      };
    }
    const documentId = uuid4();
    const invoiceId = input.passthrough ? null : uuid4();
    await storeDocument({
      ctx,
      documentId,
      blobKey: built.pdfBlobKey,
      kind: 'zugferd-pdf',
      fileName: input.fileName,
      contentType: 'application/pdf',
      meta: {
        templateId: input.templateId,
        profile: PROFILE,
        pages: rendered.pages,
        converted: built.converted,
        valid: report.valid,
        errors,
        invoiceId,
      },
      usage,
    });
    if (invoiceId) {
      await storeInvoiceRecord({
        ctx,
        invoiceId,
        invoiceBlobKey: input.invoiceBlobKey,
        pdfDocumentId: documentId,
        fileName: input.fileName,
        templateId: input.templateId,
      });
    }
    const reserved = invoiceId ? undefined : { invoice: (await recordUnkeptCreation({ ctx, usageId: uuid4(), reserve: 1 })).numbers[0]! };
    await discardBlobs({ ctx, keys: invoiceId ? intermediate : [...intermediate, input.invoiceBlobKey] });
    finish(
      report.valid ? 'valid' : 'invalid',
      `${rendered.pages}-page invoice PDF, template ${input.templateId}, ${report.valid ? 'valid' : `invalid (${errors} errors)`}, document ${documentId}`,
    );
    const mail = await deliverIfRequested(ctx, input.mail, documentId);
    return {
      documentId,
      invoiceId,
      ...(reserved ? { reserved } : {}),
      pdfBlobKey: built.pdfBlobKey,
      pages: rendered.pages,
      report,
      ...(mail ? { mail } : {}),
    };
  });
}
