import { timingSafeEqual } from 'node:crypto';
import { z } from 'zod';
import { buildDraft, type EmailOrder } from '../../mail/compose.js';
import { loadDraft, saveDraft } from '../../mail/drafts.js';
import type { PlaceholderValues } from '../../mail/placeholders.js';
import { addressList, deliveryTransportSchema, LIMITS, mailResultSchema, sendRecordSchema, type MailResult, type SendRecordView, type TransportOrder } from '../../mail/schema.js';
import { senderAllowed } from '../../mail/sender-policy.js';
import type { MailDraft, MailOutcome, MailRequest } from '../../mail/types.js';
import { BlobNotFoundError } from '../../storage/blob-store.js';
import { InvalidSendCursorError, type SendRecord } from '../../storage/mail-records.js';
import { sendMessage } from '../../../workflows/mail.js';
import { errorResponses } from '../common-responses.js';
import { ApiError } from '../errors.js';
import { resendToken } from '../links.js';
import { defineRoute, type Principal, type RequestInfo } from '../route.js';
import { runWorkflow } from '../run-workflow.js';
import type { Services } from '../services.js';

/**
 * E-mail: the delivery endpoint, the resend operation, the list of sends, and `prepareMail`,
 * which every create endpoint uses for its optional `transport`.
 */

export interface PreparedMail {
  /** For the workflow input (deliverIfRequested); undefined when nothing is to be sent. */
  request: MailRequest | undefined;
  /** The response's `transport` value; undefined when the request had no transport. */
  result(outcome: MailOutcome | undefined): Promise<MailResult | undefined>;
}

/**
 * Checks and stores a request's e-mail before its workflow starts, so that a refused sender or
 * an oversized attachment is answered at once and nothing is created. `values` fill the
 * placeholders (the create endpoints pass invoicePlaceholders(invoice)).
 */
export async function prepareMail(services: Services, principal: Principal, order: TransportOrder | undefined, values: PlaceholderValues = {}): Promise<PreparedMail> {
  if (!order) return { request: undefined, result: async () => undefined };
  if (!order.useTransport) return { request: undefined, result: async () => SKIPPED };
  const draftKey = await storeDraft(services, principal, order.email, values);
  return { request: { draftKey }, result: (outcome) => mailResult(services, principal, outcome) };
}

const SKIPPED: MailResult = { status: 'skipped', message: 'Nothing to do: useTransport is false, so no e-mail was sent.' };

async function storeDraft(services: Services, principal: Principal, email: EmailOrder, values: PlaceholderValues): Promise<string> {
  await assertSenderAllowed(services, principal, email.from.address);
  email.attachments.forEach((a, i) => {
    if (a.content.byteLength > LIMITS.attachmentBytes) {
      throw new ApiError('ATTACHMENT_TOO_LARGE', {
        userMessage: `The attachment "${a.fileName}" is larger than ${LIMITS.attachmentBytes / 1024 / 1024} MiB.`,
        fields: [{ field: `attachments[${i}].fileBase64`, message: `${a.content.byteLength} bytes; at most ${LIMITS.attachmentBytes}` }],
      });
    }
  });
  const total = email.attachments.reduce((sum, a) => sum + a.content.byteLength, 0);
  if (total > LIMITS.messageAttachmentBytes) {
    throw new ApiError('ATTACHMENT_TOO_LARGE', { userMessage: `The attachments are larger than ${LIMITS.messageAttachmentBytes / 1024 / 1024} MiB together.` });
  }
  const attachments = [];
  for (const a of email.attachments) {
    const stored = await services.blobs.put(a.content);
    attachments.push({ fileName: a.fileName, blobKey: stored.key, size: stored.size });
  }
  return saveDraft(services.blobs, buildDraft(email, values, attachments));
}

async function assertSenderAllowed(services: Services, principal: Principal, sender: string): Promise<void> {
  const rules = (await services.storage.mail.senderRules(principal.accountId)).map((r) => r.rule);
  if (senderAllowed(rules, sender)) return;
  throw new ApiError('SENDER_NOT_ALLOWED', {
    userMessage: `This account may not send e-mail as ${sender}.`,
    detail: rules.length
      ? `Allowed senders: ${rules.join(', ')}.`
      : 'No sender is allowed for this account yet; the operator allows addresses or domains with the accounts CLI (allow-sender).',
  });
}

async function mailResult(services: Services, principal: Principal, outcome: MailOutcome | undefined): Promise<MailResult> {
  const record = outcome && (await services.storage.mail.getSend(outcome.sendId, principal.accountId));
  if (!outcome || !record) return { status: 'failed', message: 'The e-mail could not be sent: an internal error occurred; the reference finds it in the log.' };
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

/** The resend token is `<documentId>.<MAC>` (links.ts); the document id if the MAC is right. */
function documentOfResendToken(services: Services, token: string): string | undefined {
  const id = token.slice(0, token.indexOf('.'));
  if (!/^[0-9a-f-]{36}$/.test(id)) return undefined;
  const expected = Buffer.from(resendToken(services, id));
  const given = Buffer.from(token);
  return expected.length === given.length && timingSafeEqual(expected, given) ? id : undefined;
}

export function deliveryRoutes(services: Services) {
  const { config } = services;

  /** Runs the send workflow; the answer is 202 while the e-mail is still being retried. */
  async function send(principal: Principal, request: RequestInfo, operation: string, mail: MailRequest, documentId?: string) {
    const outcome = await runWorkflow(sendMessage, {
      client: services.temporal,
      taskQueue: config.temporal.taskQueue,
      operation,
      principal,
      request,
      args: [{ ctx: { requestId: request.requestId, accountId: principal.accountId }, mail, ...(documentId ? { documentId } : {}) }],
      summary: mail.resendOf ? 'Resend e-mail' : 'Send e-mail',
    });
    const result = await mailResult(services, principal, outcome);
    return { status: result.status === 'queued' ? 202 : 200, body: result };
  }

  /** 200 and 202 of one operation share a schema object; each operation needs its own (one OpenAPI component per operation). */
  const mailResponses = (schema: typeof mailResultSchema) => ({
    200: { description: 'The e-mail was sent (`sent`), not sent (`failed`), or there was nothing to do (`skipped`)', schema },
    202: { description: 'The mail server has not accepted the e-mail yet (`queued`); it is retried in the background', schema },
  });

  const delivery = defineRoute({
    method: 'POST',
    path: '/api/v1/delivery',
    operationId: 'delivery',
    summary: 'Send an e-mail without creating a document',
    description:
      'Sends an e-mail with the given attachments. Placeholders in subject and message are filled from `transport.email.content`. With `useTransport: false` nothing is sent and the answer says so.',
    tags: ['E-mail'],
    auth: 'bearer',
    body: z.object({ transport: deliveryTransportSchema }).strict(),
    responses: { ...mailResponses(mailResultSchema.meta({ description: 'What happened to the e-mail' })), ...errorResponses(400, 401, 403, 413, 415, 503, 504) },
    async handle({ body, principal, request }) {
      const prepared = await prepareMail(services, principal, body.transport);
      if (!prepared.request) return { body: await prepared.result(undefined) };
      return send(principal, request, 'delivery', prepared.request);
    },
  });

  const resend = defineRoute({
    method: 'POST',
    path: '/api/v1/delivery/resend',
    operationId: 'resendEmail',
    summary: 'Send the e-mail of a created document again',
    description:
      'Sends the e-mail that a create endpoint sent with its document once more: same sender, subject, message and attachments, the document attached again, a new Message-ID. Each of receiver, cc and bcc, when given, replaces the original list (an empty string empties it).',
    tags: ['E-mail'],
    auth: 'bearer',
    body: z
      .object({
        resendToken: z.string().min(1).max(200).meta({ description: 'The resendToken a create endpoint returned' }),
        receiver: addressList.optional().meta({ description: 'Other recipients instead of the original ones' }),
        cc: addressList.optional(),
        bcc: addressList.optional(),
      })
      .strict(),
    responses: { ...mailResponses(mailResultSchema.meta({ description: 'What happened to the repeated e-mail' })), ...errorResponses(400, 401, 403, 404, 409, 503, 504) },
    async handle({ body, principal, request }) {
      const documentId = documentOfResendToken(services, body.resendToken);
      if (!documentId) throw new ApiError('RESEND_TOKEN_INVALID');
      if (!(await services.storage.documents.get(documentId, principal.accountId))) throw new ApiError('NOT_FOUND', { detail: 'The document no longer exists.' });
      const original = await services.storage.mail.originalSendOfDocument(principal.accountId, documentId);
      if (!original) throw new ApiError('NOTHING_TO_RESEND');
      let draft: MailDraft;
      try {
        draft = await loadDraft(services.blobs, original.draftKey);
      } catch (err) {
        if (err instanceof BlobNotFoundError) throw new ApiError('NOT_FOUND', { detail: 'The original e-mail is no longer stored.' });
        throw err;
      }
      const again = { ...draft, to: body.receiver ?? draft.to, cc: body.cc ?? draft.cc, bcc: body.bcc ?? draft.bcc };
      if (again.to.length === 0) throw new ApiError('VALIDATION_ERROR', { fields: [{ field: 'receiver', message: 'the e-mail needs at least one receiver' }] });
      if (again.to.length + again.cc.length + again.bcc.length > LIMITS.recipients) {
        throw new ApiError('VALIDATION_ERROR', { fields: [{ field: 'receiver', message: `at most ${LIMITS.recipients} recipients (receiver, cc and bcc together)` }] });
      }
      // The rules may have changed since the first send.
      await assertSenderAllowed(services, principal, draft.from.address);
      const unchanged = !body.receiver && !body.cc && !body.bcc;
      const draftKey = unchanged ? original.draftKey : await saveDraft(services.blobs, again);
      return send(principal, request, 'resendEmail', { draftKey, resendOf: original.id }, documentId);
    },
  });

  const sends = defineRoute({
    method: 'GET',
    path: '/api/v1/delivery/sends',
    operationId: 'listEmailSends',
    summary: "List the account's e-mail sends, newest first",
    description: 'Every send of the create endpoints, the delivery endpoint and the resend operation: recipients, subject, status, the server response and times.',
    tags: ['E-mail'],
    auth: 'bearer',
    query: z
      .object({
        limit: z.coerce.number().int().min(1).max(200).default(50),
        cursor: z.string().max(200).optional().meta({ description: 'nextCursor of the previous page' }),
        documentId: z.uuid().optional().meta({ description: "Only this document's sends" }),
      })
      .strict(),
    responses: {
      200: { description: 'One page of sends', schema: z.object({ sends: z.array(sendRecordSchema), nextCursor: z.string().nullable() }) },
      ...errorResponses(400, 401, 403),
    },
    async handle({ query, principal }) {
      try {
        const page = await services.storage.mail.listSends(principal.accountId, query);
        return { body: { sends: page.records.map(sendView), nextCursor: page.nextCursor } };
      } catch (err) {
        if (err instanceof InvalidSendCursorError) throw new ApiError('VALIDATION_ERROR', { fields: [{ field: 'cursor', message: 'invalid cursor' }] });
        throw err;
      }
    },
  });

  return [delivery, resend, sends];
}
