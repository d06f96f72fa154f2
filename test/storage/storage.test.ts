import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { BACKENDS, SETUP_TIMEOUT_MS, createTestEnv, type TestEnv } from './helpers.js';

describe.each(BACKENDS)('openStorage on %s', (backend) => {
  let env: TestEnv;
  let storage: Storage;

  beforeAll(async () => {
    env = await createTestEnv(backend);
    storage = await openStorage(env.config);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await storage?.close();
    await env?.cleanup();
  });

  it('binds the repositories to the database', async () => {
    const account = await storage.accounts.create('Bound');
    expect(await storage.accounts.get(account.id)).toEqual(account);
    const claim = { accountId: account.id, key: 'k', requestHash: 'h', ttlMs: 1_000 };
    expect(await storage.idempotency.claim(claim)).toMatchObject({
      outcome: 'claimed',
      record: { accountId: account.id, key: 'k', state: 'pending' },
    });
    await storage.usage.record({ accountId: account.id, operation: 'validate', units: 1 });
    expect(await storage.usage.sum(account.id)).toEqual({ validate: 1 });
  });

  it('records a document with its usage once, however often a retry repeats it', async () => {
    const account = await storage.accounts.create('Retrying');
    const input = {
      document: {
        id: randomUUID(),
        accountId: account.id,
        kind: 'zugferd-pdf',
        blobKey: randomUUID(),
        fileName: 'invoice.pdf',
        contentType: 'application/pdf',
        size: 10,
        sha256: 'c'.repeat(64),
        workflowId: 'wf-42',
        meta: { profile: 'EN16931' },
      },
      usage: { operation: 'convert', units: 1 },
    };
    const concurrent = await Promise.all(Array.from({ length: 5 }, () => storage.recordDocument(input)));
    const first = concurrent[0]!;
    expect(concurrent).toEqual(Array(5).fill(first));
    expect(await storage.recordDocument(input)).toEqual(first);

    expect(await storage.documents.get(input.document.id, account.id)).toEqual(first);
    const usage = await storage.usage.list(account.id);
    expect(usage).toEqual([expect.objectContaining({ operation: 'convert', units: 1, documentId: input.document.id })]);
  });

  it('records what is not kept: its usage once under its id, and document numbers no document has', async () => {
    const account = await storage.accounts.create('Passing through');
    const input = { accountId: account.id, usageId: randomUUID(), usage: { operation: 'createInvoicePdfFromJson', units: 1 }, reserve: 2 };
    const attempts = await Promise.all(Array.from({ length: 3 }, () => storage.recordUnkept(input)));
    const numbers = attempts.flat();
    expect(new Set(numbers).size).toBe(6);
    expect(await storage.usage.list(account.id)).toEqual([
      expect.objectContaining({ id: input.usageId, operation: 'createInvoicePdfFromJson', units: 1, documentId: null }),
    ]);
    const stored = await storage.recordDocument({
      document: {
        id: randomUUID(),
        accountId: account.id,
        kind: 'zugferd-pdf',
        blobKey: randomUUID(),
        fileName: 'x.pdf',
        contentType: 'application/pdf',
        size: 1,
        sha256: 'd'.repeat(64),
      },
      usage: { operation: 'x', units: 1 },
    });
    expect(numbers).not.toContain(stored.number);
    expect(stored.number).toBeGreaterThan(Math.max(...numbers));
  });
});
