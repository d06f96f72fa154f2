import { utimes } from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { saveDraft } from '../../src/storage/mail-drafts.js';
import type { MailDraft } from '../../src/mail/types.js';
import { BlobNotFoundError, BlobStore } from '../../src/storage/blob-store.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { applyRetention } from '../../src/storage/retention.js';
import { BACKENDS, createTestEnv, SETUP_TIMEOUT_MS, type TestEnv } from './helpers.js';

/**
 * The retention job's promise (README "Guarantees"): nothing outlives it, and nothing is taken
 * early. Everything is made three days in the past (files dated back too), then one pass runs.
 */

const HOUR = 60 * 60 * 1000;
const now = Date.now();
const longAgo = now - 72 * HOUR;

describe.each(BACKENDS)('retention on %s', (backend) => {
  let env: TestEnv;
  let storage: Storage;
  let blobs: BlobStore;
  let accountId: string;

  const blob = async (text: string, writtenAt = longAgo) => {
    const { key } = await blobs.put(Buffer.from(text));
    await utimes(path.join(blobs.root, key.slice(0, 2), key.slice(2, 4), key), new Date(writtenAt), new Date(writtenAt));
    return key;
  };
  const draft = async (attachments: string[], writtenAt = longAgo) => {
    const value: MailDraft = {
      from: { address: 'billing@acme.example', name: '' },
      to: [{ address: 'a@customer.example', name: '' }],
      cc: [],
      bcc: [],
      subject: 'Rechnung',
      text: 'Anbei.',
      attachments: attachments.map((blobKey) => ({ fileName: 'agb.pdf', blobKey, size: 3 })),
    };
    const key = await saveDraft(blobs, value);
    await utimes(path.join(blobs.root, key.slice(0, 2), key.slice(2, 4), key), new Date(writtenAt), new Date(writtenAt));
    return key;
  };
  const send = async (draftKey: string, over: { documentId?: string; resendOf?: string; at?: number; finished?: boolean } = {}) => {
    const id = randomUUID();
    const at = over.at ?? longAgo;
    await storage.mail.createSend(
      {
        id,
        accountId,
        documentId: over.documentId ?? null,
        resendOf: over.resendOf ?? null,
        requestId: 'r',
        draftKey,
        via: 'outbox',
        messageId: `<${id}@acme.example>`,
        sender: 'billing@acme.example',
        recipients: { to: ['a@customer.example'], cc: [], bcc: [] },
        subject: 'Rechnung',
      },
      at,
    );
    if (over.finished !== false)
      await storage.mail.markSent(id, { response: 'written', accepted: ['a@customer.example'], rejected: [] }, at + 1_000);
    return id;
  };
  const exists = (key: string) =>
    blobs.get(key).then(
      () => true,
      (err) => (err instanceof BlobNotFoundError ? false : Promise.reject(err)),
    );
  const document = async (blobKey: string, expiresAt: number | null = null) =>
    (
      await storage.documents.create({
        accountId,
        kind: 'xrechnung-xml',
        blobKey,
        fileName: 'RE-1.xml',
        contentType: 'application/xml',
        size: 1,
        sha256: 'x',
        expiresAt,
      })
    ).id;

  beforeAll(async () => {
    env = await createTestEnv(backend);
    storage = await openStorage(env.config);
    blobs = new BlobStore(env.config.dataDir);
    accountId = (await storage.accounts.create('Retention')).id;
  }, SETUP_TIMEOUT_MS);
  afterAll(async () => {
    await storage?.close();
    await env?.cleanup();
  });

  it('removes what its promise covers, once its time is up, and keeps the rest', async () => {
    await storage.idempotency.claim({ accountId, key: 'old', requestHash: 'h', ttlMs: 24 * HOUR }, longAgo);
    await storage.idempotency.claim({ accountId, key: 'fresh', requestHash: 'h', ttlMs: 24 * HOUR }, now - HOUR);

    const kept = await document(await blob('<Invoice/>'));
    const terms = await blob('AGB');
    const original = await draft([terms]);
    const originalSend = await send(original, { documentId: kept });
    await send(original, { documentId: kept, resendOf: originalSend }); // unchanged resend: shares the draft
    const changed = await draft([terms]);
    await send(changed, { documentId: kept, resendOf: originalSend }); // other recipients: its own draft, the same attachment

    const noticeAttachment = await blob('Mahnung');
    const notice = await draft([noticeAttachment]);
    await send(notice); // the delivery endpoint: nothing repeats it
    const recentNotice = await draft([], now - HOUR);
    await send(recentNotice, { at: now - HOUR });
    const stillQueued = await draft([]);
    await send(stillQueued, { finished: false });

    const expiredBlob = await blob('<Expired/>');
    const expired = await document(expiredBlob, now - 1);
    const expiredDraft = await draft([]);
    await send(expiredDraft, { documentId: expired });

    const orphan = await blob('upload of a crashed request');
    const young = await blob('upload of a running workflow', now - HOUR);

    // The review queue: a refused API call's upload while its entry waits, one whose time is up, and a labelled example.
    const waiting = await blob('upload waiting for review');
    await storage.reviews.keepFile({ reviewId: 'review-1', accountId, blobKey: waiting, expiresAt: now + 24 * HOUR });
    const reviewOver = await blob('upload whose review time is up');
    await storage.reviews.keepFile({ reviewId: 'review-2', accountId, blobKey: reviewOver, expiresAt: now - 1 });
    const example = await blob('%PDF reviewed');
    await storage.examples.add({ id: 'review-0', accountId, blobKey: example, fileName: 'RE-0.pdf', labels: [], createdAt: longAgo });

    const report = await applyRetention(storage, blobs, now);

    expect(await storage.idempotency.lookup(accountId, 'old', now)).toBeUndefined();
    expect(await storage.idempotency.lookup(accountId, 'fresh', now)).toBeDefined();
    expect(await storage.documents.get(expired)).toBeUndefined();
    expect(await exists(expiredBlob)).toBe(false);
    expect(await exists(expiredDraft)).toBe(false);
    expect(await exists(notice)).toBe(false);
    expect(await exists(noticeAttachment)).toBe(false);
    expect(await exists(changed)).toBe(false);
    expect(await exists(orphan)).toBe(false);

    expect(await storage.documents.get(kept)).toBeDefined();
    expect(await exists(original)).toBe(true); // the resend operation repeats it while the document exists
    expect(await exists(terms)).toBe(true);
    expect(await exists(recentNotice)).toBe(true);
    expect(await exists(stillQueued)).toBe(true);
    expect(await exists(young)).toBe(true);
    expect(await exists(waiting)).toBe(true);
    expect(await exists(reviewOver)).toBe(false);
    expect(await exists(example)).toBe(true);
    // The send records are the account's history: they all stay.
    expect((await storage.mail.listSends(accountId, { limit: 50 })).records).toHaveLength(7);
    expect(report).toMatchObject({ idempotencyKeys: 1, documents: 1, drafts: 2 });

    // A second pass finds nothing more to do.
    expect(await applyRetention(storage, blobs, now)).toEqual({ idempotencyKeys: 0, documents: 0, drafts: 0, blobs: 0 });
  });
});
