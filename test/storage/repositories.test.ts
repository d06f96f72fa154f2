import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, getAccount, listAccounts, type Account } from '../../src/storage/accounts.js';
import { getApiToken, insertApiToken, listApiTokens, revokeApiToken, touchApiToken } from '../../src/storage/api-tokens.js';
import type { Database } from '../../src/storage/database.js';
import { createDocument, getDocument, listDocuments, type NewDocument } from '../../src/storage/documents.js';
import { InvalidCursorError } from '../../src/storage/keyset.js';
import { listUsage, recordUsage, sumUsage } from '../../src/storage/usage.js';
import { BACKENDS, SETUP_TIMEOUT_MS, openTestDatabase } from './helpers.js';

function newDocument(accountId: string, overrides: Partial<NewDocument> = {}): NewDocument {
  return {
    accountId,
    kind: 'xrechnung-xml',
    blobKey: randomUUID(),
    fileName: 'invoice.xml',
    contentType: 'application/xml',
    size: 1234,
    sha256: 'a'.repeat(64),
    ...overrides,
  };
}

describe.each(BACKENDS)('repositories on %s', (backend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let account: Account;
  let other: Account;

  beforeAll(async () => {
    ({ db, cleanup } = await openTestDatabase(backend));
    account = await createAccount(db, 'Muster GmbH', 1_000);
    other = await createAccount(db, 'Other AG', 2_000);
  }, SETUP_TIMEOUT_MS);

  afterAll(() => cleanup?.());

  describe('accounts', () => {
    it('creates accounts with opaque random ids', async () => {
      expect(account.id).toMatch(/^acc_[0-9a-f]{32}$/);
      expect(account.id).not.toContain('Muster');
      expect(other.id).not.toBe(account.id);
    });

    it('gets and lists them, oldest first', async () => {
      expect(await getAccount(db, account.id)).toEqual({ id: account.id, name: 'Muster GmbH', createdAt: 1_000 });
      expect(await getAccount(db, 'acc_unknown')).toBeUndefined();
      expect((await listAccounts(db)).map((a) => a.id)).toEqual([account.id, other.id]);
    });
  });

  describe('api tokens', () => {
    it('inserts, gets, lists, touches and revokes', async () => {
      const base = { accountId: account.id, label: 'ci', secretHash: 'b'.repeat(64), createdAt: 5_000 };
      await insertApiToken(db, { ...base, id: 'tok1' });
      await insertApiToken(db, { ...base, id: 'tok2', createdAt: 6_000 });
      expect(await getApiToken(db, 'tok1')).toEqual({ ...base, id: 'tok1', lastUsedAt: null, revokedAt: null });
      expect((await listApiTokens(db, account.id)).map((t) => t.id)).toEqual(['tok1', 'tok2']);
      expect(await listApiTokens(db, other.id)).toEqual([]);

      await touchApiToken(db, 'tok1', 10_000, 9_000);
      await touchApiToken(db, 'tok1', 10_500, 9_500); // last use 10_000 is newer than 9_500: no write
      expect((await getApiToken(db, 'tok1'))?.lastUsedAt).toBe(10_000);

      expect(await revokeApiToken(db, 'tok1', 20_000)).toBe(true);
      expect(await revokeApiToken(db, 'tok1', 30_000)).toBe(false);
      expect((await getApiToken(db, 'tok1'))?.revokedAt).toBe(20_000);
      expect(await revokeApiToken(db, 'nope', 30_000)).toBe(false);
    });
  });

  describe('documents', () => {
    it('creates a document with defaults and reads it back', async () => {
      const created = await createDocument(db, newDocument(account.id), 42_000);
      expect(created).toMatchObject({ accountId: account.id, createdAt: 42_000, workflowId: null, expiresAt: null, meta: {} });
      expect(created.id).toMatch(/^[0-9a-f-]{36}$/);
      expect(await getDocument(db, created.id)).toEqual(created);
    });

    it('keeps the given id, workflow, expiry and JSON meta', async () => {
      const id = randomUUID();
      const meta = { invoiceNumber: 'R-1', nested: { lines: [1, 2] }, umlaut: 'Größe' };
      const created = await createDocument(
        db,
        newDocument(account.id, { id, workflowId: 'wf-1', expiresAt: 99_000, meta, kind: 'zugferd-pdf' }),
      );
      expect(created.id).toBe(id);
      expect(await getDocument(db, id, account.id)).toEqual({ ...created, meta });
    });

    it('scopes get to the account when one is given', async () => {
      const doc = await createDocument(db, newDocument(account.id));
      expect(await getDocument(db, doc.id, other.id)).toBeUndefined();
      expect(await getDocument(db, doc.id, account.id)).toBeDefined();
      expect(await getDocument(db, randomUUID())).toBeUndefined();
    });

    it('refuses a duplicate id', async () => {
      const doc = await createDocument(db, newDocument(account.id));
      await expect(createDocument(db, newDocument(account.id, { id: doc.id }))).rejects.toThrow();
    });

    it('lists newest first in stable pages', async () => {
      const { db: fresh, cleanup: done } = await openTestDatabase(backend);
      try {
        const owner = await createAccount(fresh, 'Lister');
        const stranger = await createAccount(fresh, 'Stranger');
        await createDocument(fresh, newDocument(stranger.id), 1);
        // Several documents share a timestamp: the id breaks the tie.
        const ids: string[] = [];
        for (let i = 0; i < 7; i++) ids.push((await createDocument(fresh, newDocument(owner.id), 1_000 + Math.floor(i / 2))).id);
        const expected = ids
          .map((id, i) => ({ id, createdAt: 1_000 + Math.floor(i / 2) }))
          .sort((a, b) => b.createdAt - a.createdAt || (a.id < b.id ? 1 : -1));

        const seen: string[] = [];
        let cursor: string | undefined;
        do {
          const page = await listDocuments(fresh, owner.id, { limit: 3, cursor });
          expect(page.documents.length).toBeLessThanOrEqual(3);
          seen.push(...page.documents.map((d) => d.id));
          cursor = page.nextCursor ?? undefined;
        } while (cursor);
        expect(seen).toEqual(expected.map((e) => e.id));

        const all = await listDocuments(fresh, owner.id);
        expect(all.nextCursor).toBeNull();
        expect(all.documents).toHaveLength(7);
        expect(all.documents.every((d) => d.accountId === owner.id)).toBe(true);
      } finally {
        await done();
      }
    });

    it('rejects a forged cursor', async () => {
      await expect(listDocuments(db, account.id, { cursor: 'not-a-cursor' })).rejects.toBeInstanceOf(InvalidCursorError);
      const injection = Buffer.from("1:' OR 1=1 --").toString('base64url');
      await expect(listDocuments(db, account.id, { cursor: injection })).rejects.toBeInstanceOf(InvalidCursorError);
    });
  });

  describe('usage', () => {
    it('records usage, lists newest first and sums per operation within a window', async () => {
      const doc = await createDocument(db, newDocument(other.id));
      await recordUsage(db, { accountId: other.id, operation: 'convert', units: 2, documentId: doc.id }, 100);
      await recordUsage(db, { accountId: other.id, operation: 'validate', units: 1 }, 200);
      await recordUsage(db, { accountId: other.id, operation: 'convert', units: 3 }, 300);
      await recordUsage(db, { accountId: account.id, operation: 'convert', units: 50 }, 300);

      const listed = await listUsage(db, other.id);
      expect(listed.map((u) => [u.operation, u.units, u.createdAt])).toEqual([
        ['convert', 3, 300],
        ['validate', 1, 200],
        ['convert', 2, 100],
      ]);
      expect(listed[2]?.documentId).toBe(doc.id);
      expect(listed[1]?.documentId).toBeNull();
      expect(await listUsage(db, other.id, { limit: 1 })).toHaveLength(1);
      expect((await listUsage(db, other.id, { from: 150, to: 300 })).map((u) => u.createdAt)).toEqual([200]);

      expect(await sumUsage(db, other.id)).toEqual({ convert: 5, validate: 1 });
      expect(await sumUsage(db, other.id, { from: 200 })).toEqual({ convert: 3, validate: 1 });
      expect(await sumUsage(db, other.id, { to: 200 })).toEqual({ convert: 2 });
      expect(await sumUsage(db, 'acc_nobody')).toEqual({});
    });

    it('rejects negative or fractional units', async () => {
      await expect(recordUsage(db, { accountId: other.id, operation: 'x', units: -1 })).rejects.toThrow(RangeError);
      await expect(recordUsage(db, { accountId: other.id, operation: 'x', units: 1.5 })).rejects.toThrow(RangeError);
    });
  });
});
