import { randomBytes } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/activity';
import { invoiceSchema, type Invoice } from '../src/invoice/model.js';
import { embedInvoiceXml } from '../src/pdf/embed.js';
import { loadTemplateFrom, renderInvoicePdf, TemplateInvalidError, type TemplateSource } from '../src/render/index.js';
import { STORED_INVOICE_KIND, storedInvoiceMeta } from '../src/render/stored-invoice.js';
import type { RequestContext } from '../src/temporal/context.js';
import { writeInvoiceXml } from '../src/xml/index.js';
import type { ActivityDeps } from './deps.js';

export interface RenderInvoiceInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  /** The template folder the API resolved; the worker reads the same files (shared data folder). */
  templateDir: string;
  templateSource: TemplateSource;
}

export interface RenderedInvoice {
  pdfBlobKey: string;
  xmlBlobKey: string;
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

/** The profile of the XML a template invoice carries: the full EN 16931 data set. */
const PROFILE = 'EN16931';

export function renderActivities({ blobs, storage, log }: ActivityDeps) {
  const readInvoice = async (key: string): Promise<Invoice> => {
    const parsed = invoiceSchema.safeParse(JSON.parse((await blobs.get(key)).toString('utf8')));
    if (!parsed.success) throw ApplicationFailure.nonRetryable(`stored invoice does not match the model: ${parsed.error.message}`, 'VALIDATION_ERROR');
    return parsed.data;
  };

  return {
    /**
     * Template → PDF, invoice → EN 16931 CII, and the two joined into a ZUGFeRD / Factur-X
     * PDF/A-3b. One activity: the steps are quick and local, and the PDF without its XML is of
     * no use to anyone, so it need not go through the blob store.
     */
    async renderInvoicePdf(input: RenderInvoiceInput): Promise<RenderedInvoice> {
      const invoice = await readInvoice(input.invoiceBlobKey);
      let rendered;
      try {
        const template = await loadTemplateFrom(input.templateDir, input.templateSource);
        rendered = await renderInvoicePdf(invoice, template, { created: new Date(), fileId: randomBytes(16).toString('hex') });
      } catch (err) {
        // The operator may have broken the template since the API checked it.
        if (err instanceof TemplateInvalidError) throw ApplicationFailure.nonRetryable(err.message, 'TEMPLATE_INVALID');
        throw err;
      }
      let xml: string;
      try {
        xml = writeInvoiceXml(invoice, { profile: PROFILE });
      } catch (err) {
        throw ApplicationFailure.nonRetryable((err as Error).message, 'XML_BUILD_FAILED');
      }
      const pdf = await embedInvoiceXml({
        pdf: rendered.pdf,
        xml: Buffer.from(xml, 'utf8'),
        profile: PROFILE,
        title: rendered.title,
        ...(invoice.seller?.sellerName ? { author: invoice.seller.sellerName } : {}),
        ...(invoice.buyer?.buyerName ? { subject: `${rendered.title} – ${invoice.buyer.buyerName}` } : {}),
        now: new Date(),
      });
      const [storedPdf, storedXml] = await Promise.all([blobs.put(pdf), blobs.put(Buffer.from(xml, 'utf8'))]);
      log.debug({ requestId: input.ctx.requestId, pages: rendered.pages, size: storedPdf.size }, 'invoice PDF rendered');
      return { pdfBlobKey: storedPdf.key, xmlBlobKey: storedXml.key, pages: rendered.pages };
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
        fileName: input.fileName.replace(/\.pdf$/i, '.json'),
        contentType: 'application/json',
        size,
        sha256,
        meta: { ...storedInvoiceMeta(invoice, input.templateId, input.pdfDocumentId) },
      });
    },
  };
}
