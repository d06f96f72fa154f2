import type { Invoice } from '../invoice/model.js';
import { invoicePlaceholders } from '../mail/placeholders.js';
import type { TransportOrder } from '../mail/schema.js';
import { parseCompleteInvoice } from './field-problems.js';
import type { Account, JobDeps } from './job.js';
import { prepareMail, type PreparedMail } from './mail.js';

export interface StagedInvoice {
  invoice: Invoice;
  /** The invoice JSON, stored for the workflow. */
  invoiceBlobKey: string;
  mail: PreparedMail;
}

/**
 * How every job that creates a document from invoice JSON begins: the invoice is checked against
 * the model and for its mandatory fields, its e-mail prepared (refusals come before anything is
 * created) and the invoice stored.
 */
export async function stageInvoice(deps: JobDeps, account: Account, value: unknown, transport: TransportOrder | undefined): Promise<StagedInvoice> {
  const invoice = parseCompleteInvoice(value);
  const mail = await prepareMail(deps, account, transport, invoicePlaceholders(invoice));
  const invoiceBlobKey = (await deps.blobs.put(Buffer.from(JSON.stringify(invoice), 'utf8'))).key;
  return { invoice, invoiceBlobKey, mail };
}
