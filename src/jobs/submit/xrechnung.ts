import type { MailResult, TransportOrder } from '../../mail/schema.js';
import type { ValidationReport } from '../../validation/index.js';
import type { SyntaxId } from '../../xml/index.js';
import { createXInvoiceOperation, validateXInvoiceOperation } from '../../operations/xrechnung.js';
import { checkInvoice } from '../intake/invoice-input.js';
import type { Job } from '../intake/job.js';
import { safeFileStem } from '../../files/names.js';
import { runWorkflow, type JobDeps } from './run-workflow.js';

export interface XRechnungOrder {
  /** Checked against the invoice model; what does not fit is refused with field problems. */
  invoice: unknown;
  syntax: SyntaxId;
  /** Default `<invoiceNumber>.xml`. */
  fileName?: string;
  transport?: TransportOrder;
}

export interface BuiltXRechnung {
  documentId: string;
  xml: string;
  /** An invoice that breaks the rules is built, stored and reported, not refused. */
  report: ValidationReport;
  mail: MailResult | undefined;
}

/** createXinvoiceFromJson: invoice JSON → XRechnung XML, validated and stored, optionally e-mailed. */
export async function buildXRechnung(deps: JobDeps, job: Job, order: XRechnungOrder): Promise<BuiltXRechnung> {
  const { invoice, mail, stage } = await checkInvoice(deps, job.account, order.invoice, order.transport);
  const fileName = order.fileName ?? `${safeFileStem(invoice.invoiceNumber) ?? 'xrechnung'}.xml`;
  const result = await runWorkflow(deps, job, createXInvoiceOperation, {
    input: async () => ({ ...(await stage()), syntax: order.syntax, fileName, singleStep: true }),
    summary: `XRechnung ${order.syntax} from JSON`,
  });
  const xml = (await deps.blobs.get(result.xmlBlobKey)).toString('utf8');
  return { documentId: result.documentId, xml, report: result.report, mail: await mail.result(result.mail) };
}

/** validateXinvoiceXml: XSD, EN 16931 and, for XRechnung, its own rules; an invalid document is a report, not a refusal. */
export async function validateXRechnung(deps: JobDeps, job: Job, xml: string): Promise<ValidationReport> {
  const { key } = await deps.blobs.put(Buffer.from(xml, 'utf8'));
  return runWorkflow(deps, job, validateXInvoiceOperation, {
    input: { xmlBlobKey: key },
    summary: 'Validate XRechnung XML',
  });
}
