import type { Invoice } from '../../invoice/model.js';
import { invoicePlaceholders } from '../../mail/placeholders.js';
import type { TransportOrder } from '../../mail/schema.js';
import type { MailRequest } from '../../mail/types.js';
import { parseCompleteInvoice } from './field-problems.js';
import type { Account, IntakeDeps } from './job.js';
import { prepareMail, type PreparedMail } from './mail.js';

export interface CheckedInvoice {
  invoice: Invoice;
  mail: PreparedMail;
  /** Stores the invoice JSON (and the e-mail) for the workflow. */
  stage(): Promise<{ invoiceBlobKey: string; mail: MailRequest | undefined }>;
}

/**
 * How every job that creates a document from invoice JSON begins: the invoice is checked against
 * the model and for its mandatory fields and its e-mail checked, so that refusals come before
 * anything is created; `stage` stores both when the workflow is to start.
 */
export async function checkInvoice(
  deps: IntakeDeps,
  account: Account,
  value: unknown,
  transport: TransportOrder | undefined,
): Promise<CheckedInvoice> {
  const invoice = parseCompleteInvoice(value);
  const mail = await prepareMail(deps, account, transport, invoicePlaceholders(invoice));
  return {
    invoice,
    mail,
    stage: async () => ({
      invoiceBlobKey: (await deps.blobs.put(Buffer.from(JSON.stringify(invoice), 'utf8'))).key,
      mail: await mail.stage(),
    }),
  };
}
