import { ApplicationFailure, Context } from '@temporalio/activity';
import { composeMessage, messageIdFor, type AttachmentContent } from '../src/mail/compose.js';
import { loadDraft } from '../src/storage/mail-drafts.js';
import { LIMITS } from '../src/mail/schema.js';
import { classifySendError } from '../src/mail/smtp-errors.js';
import type { MailDraft, MailRequest, SendError } from '../src/mail/types.js';
import type { BlobStorage } from '../src/storage/blob-storage.js';
import { BlobNotFoundError } from '../src/storage/blob-store.js';
import type { RequestContext } from '../src/operations/context.js';
import type { ActivityDeps } from './deps.js';

export interface RecordMailSendInput {
  ctx: RequestContext;
  /** Chosen by the workflow, so a retry finds the record the first attempt wrote. */
  sendId: string;
  request: MailRequest;
  documentId: string | undefined;
}

export function mailActivities({ blobs, storage, log, mail }: ActivityDeps) {
  return {
    /** Records the send (`queued`) before anything goes out: every send is listed, whatever becomes of it. */
    async recordMailSend(input: RecordMailSendInput): Promise<void> {
      const draft = await readDraft(blobs, input.request.draftKey);
      await storage.mail.createSend({
        id: input.sendId,
        accountId: input.ctx.accountId,
        documentId: input.documentId ?? null,
        resendOf: input.request.resendOf ?? null,
        requestId: input.ctx.requestId,
        draftKey: input.request.draftKey,
        via: mail.transport.kind,
        messageId: messageIdFor(input.sendId, draft.from.address),
        sender: draft.from.address,
        recipients: { to: draft.to.map((a) => a.address), cc: draft.cc.map((a) => a.address), bcc: draft.bcc.map((a) => a.address) },
        subject: draft.subject,
      });
    },

    /**
     * One SMTP transaction (or outbox write). Temporary failures (4xx, a lost connection) throw
     * a retryable failure, permanent ones (5xx, a message too large) a non-retryable one.
     *
     * No duplicate after acceptance: the record turns `sent` as soon as the server accepted, and
     * an attempt that finds it `sent` (the previous attempt was accepted but then failed, e.g. the
     * worker died before reporting) returns without sending. Only a crash in the instant between
     * the server's 250 and that write leaves the record `sending`; then the message goes again
     * with the same Message-ID, which lets receiving systems drop the copy.
     */
    async sendMail(input: { ctx: RequestContext; sendId: string }): Promise<void> {
      const { attempt } = Context.current().info;
      const logger = log.child({ requestId: input.ctx.requestId, sendId: input.sendId, attempt });
      const record = await storage.mail.getSend(input.sendId);
      if (!record) throw ApplicationFailure.nonRetryable(`no send record ${input.sendId}`, 'INTERNAL_ERROR');
      if (record.status === 'sent') {
        logger.info('an earlier attempt was accepted already; not sending again');
        return;
      }
      // Only a reset workflow could get here; a failed send stays failed (a resend is a new send).
      if (record.status === 'failed')
        throw ApplicationFailure.nonRetryable(record.error?.message ?? 'the send failed', record.error?.code ?? 'INTERNAL_ERROR');
      if (record.status === 'sending') logger.warn('an earlier attempt ended without a result; sending again with the same Message-ID');

      const draft = await readDraft(blobs, record.draftKey);
      const attachments = await loadAttachments(blobs, storage, draft, record.documentId);
      const total = attachments.reduce((sum, a) => sum + a.content.byteLength, 0);
      if (total > LIMITS.messageAttachmentBytes) {
        throw ApplicationFailure.nonRetryable(
          `The attachments have ${total} bytes together; at most ${LIMITS.messageAttachmentBytes} fit into one e-mail.`,
          'MAIL_TOO_LARGE',
        );
      }
      const date = new Date(record.createdAt);
      const message = composeMessage(draft, attachments, { messageId: record.messageId, date });

      await storage.mail.markSending(record.id, attempt);
      let receipt;
      try {
        receipt = await mail.transport.send(record.id, message, date);
      } catch (err) {
        const failure = classifySendError(err);
        await storage.mail.markAttemptFailed(record.id, failure.response);
        logger.warn({ response: failure.response, temporary: failure.temporary }, 'mail not accepted');
        if (failure.temporary) throw ApplicationFailure.retryable(failure.response, 'SMTP_TEMPORARY');
        throw ApplicationFailure.nonRetryable(failure.response, 'SMTP_REJECTED');
      }
      await storage.mail.markSent(record.id, receipt);
      logger.info({ response: receipt.response, via: mail.transport.kind }, 'mail accepted');

      // Test only (EINVOICE_TEST_FAULTS=mail-after-accept): the first attempt fails after the
      // server accepted, as when the worker dies before reporting; the retry must not send again.
      if (attempt === 1 && mail.testFaults.includes('mail-after-accept')) {
        throw ApplicationFailure.retryable('injected test fault: failing after the server accepted the message', 'TEST_FAULT');
      }
    },

    /** The end of a send that was not accepted: refused for good, or retried until the time ran out. */
    async failMailSend(input: { ctx: RequestContext; sendId: string; error: SendError }): Promise<void> {
      await storage.mail.markFailed(input.sendId, input.error, null);
      log.warn({ requestId: input.ctx.requestId, sendId: input.sendId, error: input.error }, 'mail failed');
    },
  };
}

async function readDraft(blobs: BlobStorage, key: string): Promise<MailDraft> {
  return missingIsPermanent(() => loadDraft(blobs, key), 'the message');
}

/** The created document first, then the request's own attachments. */
async function loadAttachments(
  blobs: BlobStorage,
  storage: ActivityDeps['storage'],
  draft: MailDraft,
  documentId: string | null,
): Promise<AttachmentContent[]> {
  const result: AttachmentContent[] = [];
  if (documentId) {
    const doc = await storage.documents.get(documentId);
    if (!doc) throw ApplicationFailure.nonRetryable(`The document ${documentId} no longer exists.`, 'MAIL_CONTENT_MISSING');
    result.push({ fileName: doc.fileName, content: await readBlob(blobs, doc.blobKey, 'the document'), contentType: doc.contentType });
  }
  for (const a of draft.attachments)
    result.push({ fileName: a.fileName, content: await readBlob(blobs, a.blobKey, `attachment ${a.fileName}`) });
  return result;
}

function readBlob(blobs: BlobStorage, key: string, what: string): Promise<Buffer> {
  return missingIsPermanent(() => blobs.get(key), what);
}

/** A missing blob does not come back: retrying for hours would only delay the failure. */
async function missingIsPermanent<T>(read: () => Promise<T>, what: string): Promise<T> {
  try {
    return await read();
  } catch (err) {
    if (err instanceof BlobNotFoundError)
      throw ApplicationFailure.nonRetryable(`The stored content of ${what} no longer exists.`, 'MAIL_CONTENT_MISSING');
    throw err;
  }
}
