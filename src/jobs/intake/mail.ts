import { hasEncodedWord } from '../../mail/address.js';
import { buildDraft, type EmailOrder } from '../../mail/compose.js';
import { saveDraft } from '../../storage/mail-drafts.js';
import type { PlaceholderValues } from '../../mail/placeholders.js';
import { LIMITS, type MailResult, type SendRecordView, type TransportOrder } from '../../mail/schema.js';
import { senderAllowed } from '../../mail/sender-policy.js';
import type { MailOutcome, MailRequest } from '../../mail/types.js';
import type { SendRecord } from '../../storage/mail-records.js';
import type { Account, IntakeDeps } from './job.js';
import { JobRefusal } from './refusal.js';

/**
 * A job's e-mail before any workflow: `prepareMail`, which every create job and a connector route's
 * report use for their optional transport, and what became of a sent one. Sending without a
 * document and resending are operations of their own (src/jobs/submit/mail.ts).
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
  deps: IntakeDeps,
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

/** The answer to an order with useTransport false. */
export const SKIPPED: MailResult = { status: 'skipped', message: 'Nothing to do: useTransport is false, so no e-mail was sent.' };

async function checkMail(deps: IntakeDeps, account: Account, email: EmailOrder, values: PlaceholderValues): Promise<void> {
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

async function storeDraft(deps: IntakeDeps, email: EmailOrder, values: PlaceholderValues): Promise<string> {
  const attachments = [];
  for (const a of email.attachments) {
    const stored = await deps.blobs.put(a.content);
    attachments.push({ fileName: a.fileName, blobKey: stored.key, size: stored.size });
  }
  return saveDraft(deps.blobs, buildDraft(email, values, attachments));
}

/** Refuses a sender the account's rules do not allow (checked again on a resend: the rules may have changed). */
export async function assertSenderAllowed(deps: IntakeDeps, account: Account, sender: string): Promise<void> {
  const rules = (await deps.storage.mail.senderRules(account.accountId)).map((r) => r.rule);
  if (senderAllowed(rules, sender)) return;
  throw new JobRefusal('SENDER_NOT_ALLOWED', {
    userMessage: `This account may not send e-mail as ${sender}.`,
    detail: rules.length
      ? `Allowed senders: ${rules.join(', ')}.`
      : 'No sender is allowed for this account yet; the operator allows addresses or domains with the accounts CLI (allow-sender).',
  });
}

/** What became of a job's e-mail, from its send record. */
export async function mailResult(deps: IntakeDeps, account: Account, outcome: MailOutcome | undefined): Promise<MailResult> {
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
