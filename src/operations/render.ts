import type { MailOutcome, MailRequest } from '../mail/types.js';
import type { ZugferdReport } from '../pdf/validate.js';
import type { TemplateSource } from '../render/registry.js';
import type { RequestContext } from './context.js';
import { defineOperation } from './operation.js';
import { PDF, QUICK, RENDERING } from './steps.js';

/** Template invoices: invoice JSON rendered through a template as a ZUGFeRD PDF/A-3, validated and stored. */

export interface CreateInvoicePdfInput {
  ctx: RequestContext;
  invoiceBlobKey: string;
  templateId: string;
  templateDir: string;
  templateSource: TemplateSource;
  fileName: string;
  /** SPEC's invoicePassthrough: true returns the PDF without adding the invoice to the account's invoice list. */
  passthrough: boolean;
  /** Set when the job asked for the PDF to be sent by e-mail. */
  mail?: MailRequest;
}

export interface CreateInvoicePdfResult {
  /** The stored ZUGFeRD PDF (downloadURL, resendToken); null when nothing was kept (passthrough without e-mail). */
  documentId: string | null;
  /** The stored invoice record; null for passthrough. */
  invoiceId: string | null;
  /** Passthrough: the numbers reserved for what was not kept, the PDF's when it was not stored and the invoice's. */
  reserved?: { document?: number; invoice: number };
  pdfBlobKey: string;
  pages: number;
  report: ZugferdReport;
  mail?: MailOutcome;
}

/**
 * Rendering, writing XML and storing are quick; embedding and validation (veraPDF in a JVM, the
 * official schematron) take longer. Broken input or templates fail for good (non-retryable
 * failures from the activities), I/O hiccups retry.
 */
export const createInvoicePdfOperation = defineOperation<CreateInvoicePdfInput, CreateInvoicePdfResult>()({
  name: 'createInvoicePdfFromJson',
  workflowType: 'createInvoicePdf',
  steps: {
    renderTemplatePdf: RENDERING,
    buildInvoiceXml: QUICK,
    storeDocument: QUICK,
    storeInvoiceRecord: QUICK,
    recordUnkeptCreation: QUICK,
    discardBlobs: QUICK,
    buildZugferdPdf: PDF,
    validateZugferdPdf: PDF,
  },
});
