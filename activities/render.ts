import { createHash } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { invoiceSchema, type Invoice } from '../src/invoice/model.js';
import { loadTemplateFrom, renderInvoicePdf, TemplateInvalidError, type TemplateSource } from '../src/render/index.js';
import { STORED_INVOICE_KIND, storedInvoiceMeta } from '../src/render/stored-invoice.js';
import type { RequestContext } from '../src/operations/context.js';
import type { ActivityDeps } from './deps.js';
import { documentTime, stepBlobs } from './step.js';

export interface RenderInvoiceInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  /** The template folder the API resolved; the worker reads the same files (shared data folder). */
  templateDir: string;
  templateSource: TemplateSource;
}

export interface RenderedInvoice {
  pdfBlobKey: string;
  pages: number;
}

export interface StoreInvoiceRecordInput {
  ctx: RequestContext;
  /** Chosen by the workflow, so that a retry finds the row it wrote before. */
  invoiceId: string;
  invoiceBlobKey: string;
  pdfDocumentId: string;
  fileName: string;
  templateId: string;
}

export function renderActivities({ blobs, storage, log, documentTime: fixedTime }: ActivityDeps) {
  const readInvoice = async (key: string): Promise<Invoice> => {
    const parsed = invoiceSchema.safeParse(JSON.parse((await blobs.get(key)).toString('utf8')));
    if (!parsed.success)
      throw ApplicationFailure.nonRetryable(`stored invoice does not match the model: ${parsed.error.message}`, 'VALIDATION_ERROR');
    return parsed.data;
  };

  return {
    /**
     * Invoice + template → PDF/A-3b (before the XML is attached). The template is read again
     * here: the worker may be another process, and the folder is the source of truth.
     */
    async renderTemplatePdf(input: RenderInvoiceInput): Promise<RenderedInvoice> {
      const invoice = await readInvoice(input.invoiceBlobKey);
      let rendered;
      try {
        const template = await loadTemplateFrom(input.templateDir, input.templateSource);
        const created = documentTime(fixedTime);
        // Derived, not drawn at random: a retried step renders the same bytes.
        const fileId = createHash('sha256')
          .update(`${created.toISOString()}\n${input.templateDir}\n${JSON.stringify(invoice)}`)
          .digest('hex')
          .slice(0, 32);
        rendered = await renderInvoicePdf(invoice, template, { created, fileId });
      } catch (err) {
        // The operator may have broken the template since the API checked it.
        if (err instanceof TemplateInvalidError) throw ApplicationFailure.nonRetryable(err.message, 'TEMPLATE_INVALID');
        throw err;
      }
      const stored = await stepBlobs(blobs).put(rendered.pdf);
      log.debug({ requestId: input.ctx.requestId, pages: rendered.pages, size: stored.size }, 'invoice PDF rendered');
      return { pdfBlobKey: stored.key, pages: rendered.pages };
    },

    /**
     * The stored invoice (invoicePassthrough: false): the invoice JSON as a document of kind
     * 'invoice', which the invoice list shows, pointing at its PDF. It costs nothing: the usage
     * is the PDF's. The primary key makes a retry that races an earlier attempt fail and retry
     * once more, after which it finds the row.
     */
    async storeInvoiceRecord(input: StoreInvoiceRecordInput): Promise<void> {
      if (await storage.documents.get(input.invoiceId, input.ctx.accountId)) return;
      const invoice = await readInvoice(input.invoiceBlobKey);
      const { size, sha256 } = await blobs.stat(input.invoiceBlobKey);
      await storage.documents.create({
        id: input.invoiceId,
        accountId: input.ctx.accountId,
        kind: STORED_INVOICE_KIND,
        blobKey: input.invoiceBlobKey,
        fileName: `${input.fileName.replace(/\.pdf$/i, '')}.json`,
        contentType: 'application/json',
        size,
        sha256,
        meta: { ...storedInvoiceMeta(invoice, input.templateId, { documentId: input.pdfDocumentId, fileName: input.fileName }) },
      });
    },
  };
}
