import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/storage/accounts.js';
import type { Database } from '../../src/storage/database.js';
import { createDocument } from '../../src/storage/documents.js';
import { InvalidCursorError } from '../../src/storage/keyset.js';
import {
  addSenderRule,
  createSendRecord,
  getSendRecord,
  listSenderRules,
  listSendRecords,
  markAttemptFailed,
  markFailed,
  markSending,
  markSent,
  originalSendOfDocument,
  removeSenderRule,
  type NewSendRecord,
} from '../../src/storage/mail-records.js';
import { BACKENDS, openTestDatabase, SETUP_TIMEOUT_MS } from '../storage/helpers.js';

describe.each(BACKENDS)('mail records on %s', (backend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let accountId: string;
  let otherAccount: string;
  let documentId: string;

  const send = (over: Partial<NewSendRecord> = {}): NewSendRecord => ({
    id: randomUUID(),
    accountId,
    documentId: null,
    resendOf: null,
    requestId: 'req-1',
    draftKey: randomUUID(),
    via: 'smtp',
    messageId: '<x@acme.example>',
    sender: 'billing@acme.example',
    recipients: { to: ['a@customer.example'], cc: ['c@customer.example'], bcc: [] },
    subject: 'Invoice RE-1',
    ...over,
  });

  beforeAll(async () => {
    ({ db, cleanup } = await openTestDatabase(backend));
    accountId = (await createAccount(db, 'ACME')).id;
    otherAccount = (await createAccount(db, 'Other')).id;
    documentId = (
      await createDocument(db, {
        accountId,
        kind: 'xrechnung-xml',
        blobKey: randomUUID(),
        fileName: 'RE-1.xml',
        contentType: 'application/xml',
        size: 1,
        sha256: 'x',
      })
    ).id;
  }, SETUP_TIMEOUT_MS);
  afterAll(() => cleanup?.());

  it('creates a queued record once per id, whatever a retry passes again', async () => {
    const input = send({ documentId });
    const first = await createSendRecord(db, input, 1000);
    const again = await createSendRecord(db, { ...input, subject: 'changed' }, 2000);
    expect(again).toEqual(first);
    expect(first).toMatchObject({
      status: 'queued',
      attempts: 0,
      response: null,
      accepted: [],
      rejected: [],
      error: null,
      createdAt: 1000,
      sentAt: null,
      documentId,
    });
    expect(await getSendRecord(db, input.id, otherAccount)).toBeUndefined();
  });

  it('walks queued → sending → queued (temporary failure) → sending → sent, and a sent record is never failed afterwards', async () => {
    const { id } = await createSendRecord(db, send());
    await markSending(db, id, 1, 10);
    expect(await getSendRecord(db, id)).toMatchObject({ status: 'sending', attempts: 1 });
    await markAttemptFailed(db, id, '451 try later', 11);
    expect(await getSendRecord(db, id)).toMatchObject({ status: 'queued', response: '451 try later' });
    await markSending(db, id, 2, 12);
    const sent = await markSent(db, id, { response: '250 ok', accepted: ['a@customer.example'], rejected: ['c@customer.example'] }, 13);
    expect(sent).toMatchObject({
      status: 'sent',
      attempts: 2,
      response: '250 ok',
      accepted: ['a@customer.example'],
      rejected: ['c@customer.example'],
      sentAt: 13,
    });
    await markSending(db, id, 3, 14);
    expect(await markFailed(db, id, { code: 'SMTP_UNAVAILABLE', message: 'x' }, null, 15)).toMatchObject({
      status: 'sent',
      attempts: 2,
      error: null,
    });
  });

  it('records a final failure with its code, keeping the last reply', async () => {
    const { id } = await createSendRecord(db, send());
    await markSending(db, id, 1);
    await markAttemptFailed(db, id, '550 mailbox unknown');
    expect(await markFailed(db, id, { code: 'SMTP_REJECTED', message: '550 mailbox unknown' }, null)).toMatchObject({
      status: 'failed',
      response: '550 mailbox unknown',
      error: { code: 'SMTP_REJECTED', message: '550 mailbox unknown' },
    });
  });

  it("finds a document's original send, not its resends", async () => {
    const account = (await createAccount(db, 'Resender')).id;
    const doc = (
      await createDocument(db, {
        accountId: account,
        kind: 'xrechnung-xml',
        blobKey: randomUUID(),
        fileName: 'a.xml',
        contentType: 'application/xml',
        size: 1,
        sha256: 'x',
      })
    ).id;
    expect(await originalSendOfDocument(db, account, doc)).toBeUndefined();
    const original = await createSendRecord(db, send({ accountId: account, documentId: doc }), 100);
    await createSendRecord(db, send({ accountId: account, documentId: doc, resendOf: original.id }), 200);
    expect((await originalSendOfDocument(db, account, doc))?.id).toBe(original.id);
    expect(await originalSendOfDocument(db, otherAccount, doc)).toBeUndefined();
  });

  it('lists newest first in stable pages, optionally for one document', async () => {
    const account = (await createAccount(db, 'Lister')).id;
    const ids = [];
    for (let i = 0; i < 5; i++) ids.push((await createSendRecord(db, send({ accountId: account }), 1000 + Math.floor(i / 2))).id);
    const seen: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await listSendRecords(db, account, { limit: 2, ...(cursor ? { cursor } : {}) });
      seen.push(...page.records.map((r) => r.id));
      cursor = page.nextCursor ?? undefined;
    } while (cursor);
    expect(seen).toHaveLength(5);
    expect(new Set(seen)).toEqual(new Set(ids));
    expect((await listSendRecords(db, account, { documentId })).records).toEqual([]);
    expect((await listSendRecords(db, accountId, { documentId })).records.every((r) => r.documentId === documentId)).toBe(true);
    await expect(listSendRecords(db, account, { cursor: 'garbage' })).rejects.toBeInstanceOf(InvalidCursorError);
  });

  it('keeps sender rules per account, each once', async () => {
    expect(await listSenderRules(db, accountId)).toEqual([]);
    expect(await addSenderRule(db, accountId, 'acme.example', 5)).toBe(true);
    expect(await addSenderRule(db, accountId, 'acme.example', 6)).toBe(false);
    expect(await addSenderRule(db, accountId, 'billing@other.example', 7)).toBe(true);
    expect(await listSenderRules(db, accountId)).toEqual([
      { rule: 'acme.example', createdAt: 5 },
      { rule: 'billing@other.example', createdAt: 7 },
    ]);
    expect(await listSenderRules(db, otherAccount)).toEqual([]);
    expect(await removeSenderRule(db, accountId, 'acme.example')).toBe(true);
    expect(await removeSenderRule(db, accountId, 'acme.example')).toBe(false);
    expect((await listSenderRules(db, accountId)).map((r) => r.rule)).toEqual(['billing@other.example']);
  });
});
