import { loadDraft, saveDraft } from '../../storage/mail-drafts.js';
import { LIMITS, type MailResult, type TransportOrder } from '../../mail/schema.js';
import type { MailDraft, MailRequest } from '../../mail/types.js';
import { BlobNotFoundError } from '../../storage/blob-store.js';
import { deliveryOperation, resendOperation } from '../../operations/mail.js';
import type { Job } from '../intake/job.js';
import { assertSenderAllowed, mailResult, prepareMail, SKIPPED } from '../intake/mail.js';
import { JobRefusal } from '../intake/refusal.js';
import { runWorkflow, type JobDeps } from './run-workflow.js';

/** E-mail as an operation of its own: sending without a document (delivery), and sending a document's e-mail again (resend). */

/** The delivery operation: an e-mail without a document. */
export async function sendEmail(deps: JobDeps, job: Job, order: TransportOrder): Promise<MailResult> {
  if (!order.useTransport) return SKIPPED;
  const prepared = await prepareMail(deps, job.account, order);
  return send(deps, job, deliveryOperation, async () => (await prepared.stage())!);
}

export interface ResendOrder {
  documentId: string;
  /** Each list, when given, replaces the original one (an empty list empties it). */
  receiver?: MailDraft['to'];
  cc?: MailDraft['cc'];
  bcc?: MailDraft['bcc'];
}

/** The resend operation: the e-mail a create job sent with its document, once more, to the same or other recipients. */
export async function resendEmail(deps: JobDeps, job: Job, order: ResendOrder): Promise<MailResult> {
  const { accountId } = job.account;
  // Another account's document and one that is gone are the same answer: nothing tells whether it exists.
  if (!(await deps.storage.documents.get(order.documentId, accountId)))
    throw new JobRefusal('NOT_FOUND', { detail: 'There is no document of this resend token in your account.' });
  const original = await deps.storage.mail.originalSendOfDocument(accountId, order.documentId);
  if (!original) throw new JobRefusal('NOTHING_TO_RESEND');
  let draft: MailDraft;
  try {
    draft = await loadDraft(deps.blobs, original.draftKey);
  } catch (err) {
    if (err instanceof BlobNotFoundError) throw new JobRefusal('NOT_FOUND', { detail: 'The original e-mail is no longer stored.' });
    throw err;
  }
  const again = { ...draft, to: order.receiver ?? draft.to, cc: order.cc ?? draft.cc, bcc: order.bcc ?? draft.bcc };
  if (again.to.length === 0)
    throw new JobRefusal('VALIDATION_ERROR', { fields: [{ field: 'receiver', message: 'the e-mail needs at least one receiver' }] });
  if (again.to.length + again.cc.length + again.bcc.length > LIMITS.recipients) {
    throw new JobRefusal('VALIDATION_ERROR', {
      fields: [{ field: 'receiver', message: `at most ${LIMITS.recipients} recipients (receiver, cc and bcc together)` }],
    });
  }
  // The rules may have changed since the first send.
  await assertSenderAllowed(deps, job.account, draft.from.address);
  const unchanged = !order.receiver && !order.cc && !order.bcc;
  const stage = async () => ({ draftKey: unchanged ? original.draftKey : await saveDraft(deps.blobs, again), resendOf: original.id });
  return send(deps, job, resendOperation, stage, order.documentId);
}

/** Runs the send workflow; `queued` while the e-mail is still being retried. */
async function send(
  deps: JobDeps,
  job: Job,
  operation: typeof deliveryOperation | typeof resendOperation,
  stage: () => Promise<MailRequest>,
  documentId?: string,
): Promise<MailResult> {
  const outcome = await runWorkflow(deps, job, operation, {
    input: async () => ({ mail: await stage(), ...(documentId ? { documentId } : {}) }),
    summary: operation === resendOperation ? 'Resend e-mail' : 'Send e-mail',
  });
  return mailResult(deps, job.account, outcome);
}
