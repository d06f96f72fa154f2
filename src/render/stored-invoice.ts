import type { Invoice } from '../invoice/model.js';

/**
 * A stored invoice (createInvoicePdfFromJson with invoicePassthrough: false) is a document of
 * this kind holding the invoice JSON; its meta carries what the invoice list shows, so that
 * listing does not read every invoice.
 */
export const STORED_INVOICE_KIND = 'invoice';

export interface StoredInvoiceMeta {
  invoiceNumber: string | null;
  invoiceIssueDate: string | null;
  invoiceTypeCode: string | null;
  buyerName: string | null;
  currency: string | null;
  totalAmountWithVat: string | null;
  amountDueForPayment: string | null;
  templateId: string;
  /** The ZUGFeRD PDF document created with it, and its file name. */
  pdfDocumentId: string;
  pdfFileName: string;
}

export function storedInvoiceMeta(invoice: Invoice, templateId: string, pdf: { documentId: string; fileName: string }): StoredInvoiceMeta {
  return {
    invoiceNumber: invoice.invoiceNumber ?? null,
    invoiceIssueDate: invoice.invoiceIssueDate ?? null,
    invoiceTypeCode: invoice.invoiceTypeCode ?? null,
    buyerName: invoice.buyer?.buyerName ?? null,
    currency: invoice.invoiceCurrencyCode ?? null,
    totalAmountWithVat: invoice.documentTotals?.invoiceTotalAmountWithVat ?? null,
    amountDueForPayment: invoice.documentTotals?.amountDueForPayment ?? null,
    templateId,
    pdfDocumentId: pdf.documentId,
    pdfFileName: pdf.fileName,
  };
}
