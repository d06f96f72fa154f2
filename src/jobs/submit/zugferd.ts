import type { Invoice } from '../../invoice/model.js';
import { invoicePlaceholders } from '../../mail/placeholders.js';
import type { MailResult, TransportOrder } from '../../mail/schema.js';
import type { ZugferdProfile } from '../../pdf/profiles.js';
import type { ZugferdReport } from '../../pdf/validate.js';
import { parseInvoiceXml } from '../../xml/index.js';
import {
  createZugferdFromJsonOperation,
  createZugferdFromXmlOperation,
  extractZugferdOperation,
  validateZugferdOperation,
  type CreateZugferdResult,
  type ExtractZugferdResult,
} from '../../operations/zugferd.js';
import { checkFile, PDF_ONLY, storeFile } from '../intake/file.js';
import { checkInvoice } from '../intake/invoice-input.js';
import type { Job } from '../intake/job.js';
import { prepareMail, type PreparedMail } from '../intake/mail.js';
import { safeFileStem } from '../../files/names.js';
import { runWorkflow, type JobDeps } from './run-workflow.js';

/** PDF work (Ghostscript, veraPDF) takes longer than XML work. */
const PDF_WORKFLOW_TIMEOUT_MS = 300_000;

interface ZugferdOrder {
  /** The visible invoice. */
  pdf: Buffer;
  /** Default `<invoiceNumber>-zugferd.pdf`. */
  fileName?: string;
  transport?: TransportOrder;
}

export interface BuiltZugferd extends Omit<CreateZugferdResult, 'pdfBlobKey' | 'xmlBlobKey' | 'mail'> {
  pdf: Buffer;
  /** The embedded XML. */
  xml: string;
  mail: MailResult | undefined;
}

/** createZugferdFromJson: invoice JSON → CII of the profile → embedded in the PDF, validated and stored. */
export async function buildZugferdFromJson(
  deps: JobDeps,
  job: Job,
  order: ZugferdOrder & { invoice: unknown; profile: ZugferdProfile },
): Promise<BuiltZugferd> {
  checkFile(order.pdf, PDF_ONLY, deps.limits);
  const { invoice, mail, stage } = await checkInvoice(deps, job.account, order.invoice, order.transport);
  const result = await runWorkflow(deps, job, createZugferdFromJsonOperation, {
    input: async () => ({
      ...(await stage()),
      pdfBlobKey: (await deps.blobs.put(order.pdf)).key,
      profile: order.profile,
      fileName: order.fileName ?? defaultName(invoice.invoiceNumber),
    }),
    summary: `ZUGFeRD ${order.profile} from JSON`,
    timeoutMs: PDF_WORKFLOW_TIMEOUT_MS,
  });
  return built(deps, result, mail);
}

/** createZugferdPdfFromXinvoice: the caller's CII, unchanged, embedded in the PDF. */
export async function buildZugferdFromXml(deps: JobDeps, job: Job, order: ZugferdOrder & { xml: string }): Promise<BuiltZugferd> {
  checkFile(order.pdf, PDF_ONLY, deps.limits);
  const invoice = invoiceOf(order.xml);
  const mail = await prepareMail(deps, job.account, order.transport, invoice ? invoicePlaceholders(invoice) : {});
  const result = await runWorkflow(deps, job, createZugferdFromXmlOperation, {
    input: async () => ({
      xmlBlobKey: (await deps.blobs.put(Buffer.from(order.xml, 'utf8'))).key,
      pdfBlobKey: (await deps.blobs.put(order.pdf)).key,
      fileName: order.fileName ?? defaultName(invoice?.invoiceNumber),
      mail: await mail.stage(),
    }),
    summary: 'ZUGFeRD from XML',
    timeoutMs: PDF_WORKFLOW_TIMEOUT_MS,
  });
  return built(deps, result, mail);
}

/** validateZugferdPdf: PDF/A-3, the hybrid structure and XMP, the XML's own rules, optionally the visible text against the XML. */
export async function validateZugferdPdf(deps: JobDeps, job: Job, order: { pdf: Buffer; compareText: boolean }): Promise<ZugferdReport> {
  const { key: pdfBlobKey } = await storeFile(deps.blobs, order.pdf, PDF_ONLY, deps.limits);
  return runWorkflow(deps, job, validateZugferdOperation, {
    input: { pdfBlobKey, compareText: order.compareText },
    summary: 'Validate ZUGFeRD PDF',
    timeoutMs: PDF_WORKFLOW_TIMEOUT_MS,
  });
}

export interface ExtractedInvoice extends Omit<ExtractZugferdResult, 'xmlBlobKey' | 'invoiceBlobKey'> {
  xml: string;
  /** Absent when the XML does not map onto the invoice model (`problem` says why). */
  invoice?: Invoice;
}

/** extractXinvoiceFromZugferdToJson: the invoice XML a PDF carries, and the invoice it holds. */
export async function extractZugferdInvoice(deps: JobDeps, job: Job, pdf: Buffer): Promise<ExtractedInvoice> {
  const { key: pdfBlobKey } = await storeFile(deps.blobs, pdf, PDF_ONLY, deps.limits);
  const { xmlBlobKey, invoiceBlobKey, ...result } = await runWorkflow(deps, job, extractZugferdOperation, {
    input: { pdfBlobKey },
    summary: 'Extract invoice from ZUGFeRD PDF',
    timeoutMs: PDF_WORKFLOW_TIMEOUT_MS,
  });
  const text = async (key: string) => (await deps.blobs.get(key)).toString('utf8');
  return {
    ...result,
    xml: await text(xmlBlobKey),
    ...(invoiceBlobKey ? { invoice: JSON.parse(await text(invoiceBlobKey)) as Invoice } : {}),
  };
}

async function built(deps: JobDeps, result: CreateZugferdResult, mail: PreparedMail): Promise<BuiltZugferd> {
  const { pdfBlobKey, xmlBlobKey, mail: outcome, ...rest } = result;
  return {
    ...rest,
    pdf: await deps.blobs.get(pdfBlobKey),
    xml: (await deps.blobs.get(xmlBlobKey)).toString('utf8'),
    mail: await mail.result(outcome),
  };
}

/** The invoice of the caller's XML, for placeholders and the file name; the workflow judges the XML itself. */
function invoiceOf(xml: string): Invoice | undefined {
  try {
    return parseInvoiceXml(xml).invoice;
  } catch {
    return undefined;
  }
}

function defaultName(invoiceNumber: string | undefined): string {
  return `${safeFileStem(invoiceNumber) ?? 'invoice'}-zugferd.pdf`;
}
