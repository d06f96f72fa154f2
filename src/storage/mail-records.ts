import type { SendError, SendStatus, TransportKind } from '../mail/types.js';
import type { Queryable, SqlValue } from './database.js';
import { afterCursor, nextCursor, pageSize } from './keyset.js';

/**
 * E-mail sends and the sender rules of accounts.
 *
 * A send record is written before the first SMTP transaction and updated around each one, so a
 * retried activity can tell that an earlier attempt was already accepted (status `sent`) and
 * must not send again. Its draft (the message itself) lives in the blob store.
 */

export interface SendRecord {
  /** Chosen by the workflow (deterministic), so a retried activity finds the same row. */
  id: string;
  accountId: string;
  documentId: string | null;
  resendOf: string | null;
  requestId: string;
  draftKey: string;
  via: TransportKind;
  messageId: string;
  sender: string;
  recipients: { to: string[]; cc: string[]; bcc: string[] };
  subject: string;
  status: SendStatus;
  /** SMTP transactions started. */
  attempts: number;
  response: string | null;
  accepted: string[];
  rejected: string[];
  error: SendError | null;
  /** Epoch milliseconds. */
  createdAt: number;
  updatedAt: number;
  sentAt: number | null;
}

export type NewSendRecord = Pick<
  SendRecord,
  'id' | 'accountId' | 'documentId' | 'resendOf' | 'requestId' | 'draftKey' | 'via' | 'messageId' | 'sender' | 'recipients' | 'subject'
>;

export interface SendPage {
  records: SendRecord[];
  /** Pass as `cursor` for the next (older) page; null on the last page. */
  nextCursor: string | null;
}

interface SendRow {
  id: string;
  account_id: string;
  document_id: string | null;
  resend_of: string | null;
  request_id: string;
  draft_key: string;
  via: string;
  message_id: string;
  sender: string;
  recipients: string;
  subject: string;
  status: string;
  attempts: number;
  response: string | null;
  accepted: string;
  rejected: string;
  error_code: string | null;
  error_message: string | null;
  created_at: number;
  updated_at: number;
  sent_at: number | null;
}

const COLUMNS =
  'id, account_id, document_id, resend_of, request_id, draft_key, via, message_id, sender, recipients, subject, status, attempts, response, accepted, rejected, error_code, error_message, created_at, updated_at, sent_at';

const toRecord = (r: SendRow): SendRecord => ({
  id: r.id,
  accountId: r.account_id,
  documentId: r.document_id,
  resendOf: r.resend_of,
  requestId: r.request_id,
  draftKey: r.draft_key,
  via: r.via as TransportKind,
  messageId: r.message_id,
  sender: r.sender,
  recipients: JSON.parse(r.recipients) as SendRecord['recipients'],
  subject: r.subject,
  status: r.status as SendStatus,
  attempts: r.attempts,
  response: r.response,
  accepted: JSON.parse(r.accepted) as string[],
  rejected: JSON.parse(r.rejected) as string[],
  error: r.error_code === null ? null : { code: r.error_code, message: r.error_message ?? '' },
  createdAt: r.created_at,
  updatedAt: r.updated_at,
  sentAt: r.sent_at,
});

/** Idempotent on `id`: a retried activity gets the record the first attempt wrote. */
export async function createSendRecord(db: Queryable, input: NewSendRecord, now = Date.now()): Promise<SendRecord> {
  await db.query(
    `INSERT INTO mail_sends (${COLUMNS})
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, 'queued', 0, NULL, '[]', '[]', NULL, NULL, $12, $12, NULL)
     ON CONFLICT (id) DO NOTHING`,
    [
      input.id,
      input.accountId,
      input.documentId,
      input.resendOf,
      input.requestId,
      input.draftKey,
      input.via,
      input.messageId,
      input.sender,
      JSON.stringify(input.recipients),
      input.subject,
      now,
    ],
  );
  return (await getSendRecord(db, input.id))!;
}

/** With `accountId`, a send of another account is not found. */
export async function getSendRecord(db: Queryable, id: string, accountId?: string): Promise<SendRecord | undefined> {
  const params: SqlValue[] = accountId === undefined ? [id] : [id, accountId];
  const { rows } = await db.query<SendRow>(
    `SELECT ${COLUMNS} FROM mail_sends WHERE id = $1${accountId === undefined ? '' : ' AND account_id = $2'}`,
    params,
  );
  return rows[0] && toRecord(rows[0]);
}

/** The send a create call made for a document (not a resend): what the resend operation repeats. */
export async function originalSendOfDocument(db: Queryable, accountId: string, documentId: string): Promise<SendRecord | undefined> {
  const { rows } = await db.query<SendRow>(
    `SELECT ${COLUMNS} FROM mail_sends WHERE account_id = $1 AND document_id = $2 AND resend_of IS NULL ORDER BY created_at, id LIMIT 1`,
    [accountId, documentId],
  );
  return rows[0] && toRecord(rows[0]);
}

/** Newest first (keyset.ts), optionally one document's sends. */
export async function listSendRecords(
  db: Queryable,
  accountId: string,
  options: { limit?: number; cursor?: string; documentId?: string } = {},
): Promise<SendPage> {
  const limit = pageSize(options.limit);
  const params: SqlValue[] = [accountId];
  const clauses = ['account_id = $1'];
  if (options.documentId !== undefined) clauses.push(`document_id = $${params.push(options.documentId)}`);
  if (options.cursor !== undefined) clauses.push(afterCursor(options.cursor, params));
  params.push(limit + 1);
  const { rows } = await db.query<SendRow>(
    `SELECT ${COLUMNS} FROM mail_sends WHERE ${clauses.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  const records = rows.slice(0, limit).map(toRecord);
  return { records, nextCursor: nextCursor(rows, records) };
}

/** An SMTP transaction starts. From here until markSent, a crash leaves it `sending`: accepted or not, nobody knows. */
export async function markSending(db: Queryable, id: string, attempt: number, now = Date.now()): Promise<void> {
  await db.query(
    `UPDATE mail_sends SET status = 'sending', attempts = $2, updated_at = $3 WHERE id = $1 AND status IN ('queued', 'sending')`,
    [id, attempt, now],
  );
}

export async function markSent(
  db: Queryable,
  id: string,
  receipt: { response: string; accepted: string[]; rejected: string[] },
  now = Date.now(),
): Promise<SendRecord> {
  await db.query(
    `UPDATE mail_sends SET status = 'sent', response = $2, accepted = $3, rejected = $4, updated_at = $5, sent_at = $5 WHERE id = $1`,
    [id, receipt.response, JSON.stringify(receipt.accepted), JSON.stringify(receipt.rejected), now],
  );
  return (await getSendRecord(db, id))!;
}

/** A temporary failure: back to `queued` with the server's reply, for the next attempt. */
export async function markAttemptFailed(db: Queryable, id: string, response: string, now = Date.now()): Promise<void> {
  await db.query(`UPDATE mail_sends SET status = 'queued', response = $2, updated_at = $3 WHERE id = $1 AND status = 'sending'`, [
    id,
    response,
    now,
  ]);
}

/** Final failure. A send that was accepted stays `sent`: nothing downgrades it. */
export async function markFailed(
  db: Queryable,
  id: string,
  error: SendError,
  response: string | null,
  now = Date.now(),
): Promise<SendRecord> {
  await db.query(
    `UPDATE mail_sends SET status = 'failed', error_code = $2, error_message = $3, response = COALESCE($4, response), updated_at = $5 WHERE id = $1 AND status <> 'sent'`,
    [id, error.code, error.message, response, now],
  );
  return (await getSendRecord(db, id))!;
}

// ---------------------------------------------------------------- sender rules (see src/mail/sender-policy.ts)

export interface SenderRule {
  rule: string;
  createdAt: number;
}

export async function listSenderRules(db: Queryable, accountId: string): Promise<SenderRule[]> {
  const { rows } = await db.query<{ rule: string; created_at: number }>(
    'SELECT rule, created_at FROM mail_sender_rules WHERE account_id = $1 ORDER BY rule',
    [accountId],
  );
  return rows.map((r) => ({ rule: r.rule, createdAt: r.created_at }));
}

/** `rule` is normalised (parseSenderRule). Returns false when the account had it already. */
export async function addSenderRule(db: Queryable, accountId: string, rule: string, now = Date.now()): Promise<boolean> {
  const { rowCount } = await db.query(
    'INSERT INTO mail_sender_rules (account_id, rule, created_at) VALUES ($1, $2, $3) ON CONFLICT (account_id, rule) DO NOTHING',
    [accountId, rule, now],
  );
  return rowCount > 0;
}

/** Returns false when the account had no such rule. */
export async function removeSenderRule(db: Queryable, accountId: string, rule: string): Promise<boolean> {
  const { rowCount } = await db.query('DELETE FROM mail_sender_rules WHERE account_id = $1 AND rule = $2', [accountId, rule]);
  return rowCount > 0;
}
