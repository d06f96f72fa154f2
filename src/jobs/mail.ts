import { hasEncodedWord } from '../mail/address.js';
import { buildDraft, type EmailOrder } from '../mail/compose.js';
import { loadDraft, saveDraft } from '../mail/drafts.js';
import type { PlaceholderValues } from '../mail/placeholders.js';
import { LIMITS, type MailResult, type SendRecordView, type TransportOrder } from '../mail/schema.js';
import { senderAllowed } from '../mail/sender-policy.js';
import type { MailDraft, MailOutcome, MailRequest } from '../mail/types.js';
import { BlobNotFoundError } from '../storage/blob-store.js';
import type { SendRecord } from '../storage/mail-records.js';
import { sendMessage } from '../../workflows/mail.js';
import type { Account, Job, JobDeps } from './job.js';
import { JobRefusal } from './refusal.js';
import { runWorkflow } from './run-workflow.js';

/**
 * E-mail: sending without a document (delivery), sending a document's e-mail again (resend), and
 * `prepareMail`, which every create job uses for its optional transport.
 */

export interface PreparedMail {
  /** Stores the e-mail for the workflow input (deliverIfRequested); undefined when nothing is to be sent. */
  stage(): Promise<MailRequest | undefined>;
  /** What became of the e-mail; undefined when the job had no transport. */
  result(outcome: MailOutcome | undefined): Promise<MailResult | undefined>;
}

/**
 * Checks a job's e-mail before its workflow starts, so that a refused sender or an oversized
 * attachment is refused at once and nothing is created; `stage` stores it once the workflow is
 * to start. `values` fill the placeholders (the create jobs pass invoicePlaceholders(invoice)).
 */
export async function prepareMail(
  deps: JobDeps,
  account: Account,
  order: TransportOrder | undefined,
  values: PlaceholderValues = {},
): Promise<PreparedMail> {
  if (!order) return { stage: async () => undefined, result: async () => undefined };
  if (!order.useTransport) return { stage: async () => undefined, result: async () => SKIPPED };
  const { email } = order;
  await checkMail(deps, account, email, values);
  return {
    stage: async () => ({ draftKey: await storeDraft(deps, email, values) }),
    result: (outcome) => mailResult(deps, account, outcome),
  };
}

/** The delivery operation: an e-mail without a document. */
export async function sendEmail(deps: JobDeps, job: Job, order: TransportOrder): Promise<MailResult> {
  if (!order.useTransport) return SKIPPED;
  const prepared = await prepareMail(deps, job.account, order);
  return send(deps, job, 'delivery', async () => (await prepared.stage())!);
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
  return send(deps, job, 'resendEmail', stage, order.documentId);
}

/** Runs the send workflow; `queued` while the e-mail is still being retried. */
async function send(
  deps: JobDeps,
  job: Job,
  operation: string,
  stage: () => Promise<MailRequest>,
  documentId?: string,
): Promise<MailResult> {
  const outcome = await runWorkflow(deps, job, sendMessage, {
    operation,
    input: async () => ({ mail: await stage(), ...(documentId ? { documentId } : {}) }),
    summary: operation === 'resendEmail' ? 'Resend e-mail' : 'Send e-mail',
  });
  return mailResult(deps, job.account, outcome);
}

const SKIPPED: MailResult = { status: 'skipped', message: 'Nothing to do: useTransport is false, so no e-mail was sent.' };

async function checkMail(deps: JobDeps, account: Account, email: EmailOrder, values: PlaceholderValues): Promise<void> {
  await assertSenderAllowed(deps, account, email.from.address);
  // The request's own fields are checked by its schema; what the invoice fills in is checked here.
  if (hasEncodedWord(buildDraft(email, values, []).subject)) {
    throw new JobRefusal('VALIDATION_ERROR', {
      fields: [
        { field: 'subject', message: 'a placeholder filled from the invoice puts an RFC 2047 encoded word (=?…?=) into the subject' },
      ],
    });
  }
  email.attachments.forEach((a, i) => {
    if (a.content.byteLength > LIMITS.attachmentBytes) {
      throw new JobRefusal('ATTACHMENT_TOO_LARGE', {
        userMessage: `The attachment "${a.fileName}" is larger than ${LIMITS.attachmentBytes / 1024 / 1024} MiB.`,
        fields: [{ field: `attachments[${i}].fileBase64`, message: `${a.content.byteLength} bytes; at most ${LIMITS.attachmentBytes}` }],
      });
    }
  });
  const total = email.attachments.reduce((sum, a) => sum + a.content.byteLength, 0);
  if (total > LIMITS.messageAttachmentBytes) {
    throw new JobRefusal('ATTACHMENT_TOO_LARGE', {
      userMessage: `The attachments are larger than ${LIMITS.messageAttachmentBytes / 1024 / 1024} MiB together.`,
    });
  }
}

async function storeDraft(deps: JobDeps, email: EmailOrder, values: PlaceholderValues): Promise<string> {
  const attachments = [];
  for (const a of email.attachments) {
    const stored = await deps.blobs.put(a.content);
    attachments.push({ fileName: a.fileName, blobKey: stored.key, size: stored.size });
  }
  return saveDraft(deps.blobs, buildDraft(email, values, attachments));
}

async function assertSenderAllowed(deps: JobDeps, account: Account, sender: string): Promise<void> {
  const rules = (await deps.storage.mail.senderRules(account.accountId)).map((r) => r.rule);
  if (senderAllowed(rules, sender)) return;
  throw new JobRefusal('SENDER_NOT_ALLOWED', {
    userMessage: `This account may not send e-mail as ${sender}.`,
    detail: rules.length
      ? `Allowed senders: ${rules.join(', ')}.`
      : 'No sender is allowed for this account yet; the operator allows addresses or domains with the accounts CLI (allow-sender).',
  });
}

async function mailResult(deps: JobDeps, account: Account, outcome: MailOutcome | undefined): Promise<MailResult> {
  const record = outcome && (await deps.storage.mail.getSend(outcome.sendId, account.accountId));
  if (!outcome || !record)
    return { status: 'failed', message: 'The e-mail could not be sent: an internal error occurred; the reference finds it in the log.' };
  return { status: outcome.status, message: describe(outcome.status, record), send: sendView(record) };
}

function describe(status: MailOutcome['status'], r: SendRecord): string {
  if (status === 'queued') {
    return `The mail server has not accepted the e-mail yet${r.response ? ` (last reply: ${r.response})` : ''}; it is retried for up to 24 hours. GET /api/v1/delivery/sends shows how it ends.`;
  }
  if (status === 'failed') return `The e-mail was not sent: ${r.error?.message ?? r.response ?? 'an internal error occurred'}`;
  if (r.via === 'outbox') return `No SMTP server is configured: the e-mail was ${r.response}.`;
  const refused = r.rejected.length ? `; the server refused ${r.rejected.join(', ')}` : '';
  return `The mail server accepted the e-mail for ${r.accepted.length} recipient(s)${refused}.`;
}

export function sendView(r: SendRecord): SendRecordView {
  const iso = (ms: number) => new Date(ms).toISOString();
  return {
    sendId: r.id,
    status: r.status,
    via: r.via,
    documentId: r.documentId,
    resendOf: r.resendOf,
    messageId: r.messageId,
    sender: r.sender,
    receiver: r.recipients.to,
    cc: r.recipients.cc,
    bcc: r.recipients.bcc,
    subject: r.subject,
    attempts: r.attempts,
    response: r.response,
    accepted: r.accepted,
    rejected: r.rejected,
    error: r.error,
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
    sentAt: r.sentAt === null ? null : iso(r.sentAt),
  };
}
