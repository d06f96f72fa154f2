import { execFile } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount, type Account } from '../../src/storage/accounts.js';
import { openPostgres, openSqlite, sqlitePath, type Database } from '../../src/storage/database.js';
import { openDatabase } from '../../src/storage/open-database.js';
import {
  createDocument,
  documentNumbers,
  getDocument,
  getDocumentByNumber,
  listDocuments,
  type NewDocument,
} from '../../src/storage/documents.js';
import { recordDocument } from '../../src/storage/index.js';
import { migrate } from '../../src/storage/migrate.js';
import { MIGRATIONS } from '../../src/storage/migrations.js';
import { BACKENDS, SETUP_TIMEOUT_MS, createTestEnv, openTestDatabase, type TestEnv } from './helpers.js';

/** Document numbers (migration 3): per-installation integer ids, assigned at insert. */

const run = promisify(execFile);
const HERE = import.meta.dirname;

function newDocument(accountId: string, overrides: Partial<NewDocument> = {}): NewDocument {
  return {
    accountId,
    kind: 'zugferd-pdf',
    blobKey: randomUUID(),
    fileName: 'a.pdf',
    contentType: 'application/pdf',
    size: 1,
    sha256: 'a'.repeat(64),
    ...overrides,
  };
}

const numbersOf = async (db: Database): Promise<number[]> =>
  (await db.query<{ number: number }>('SELECT number FROM documents ORDER BY number')).rows.map((r) => Number(r.number));

describe.each(BACKENDS)('document numbers on %s', (backend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let env: TestEnv;
  let account: Account;
  let other: Account;

  beforeAll(async () => {
    ({ db, cleanup, env } = await openTestDatabase(backend));
    account = await createAccount(db, 'Numbered', 1);
    other = await createAccount(db, 'Other', 2);
  }, SETUP_TIMEOUT_MS);

  afterAll(() => cleanup?.());

  it('numbers documents 1, 2, 3 … at insert, also inside a caller’s transaction, and reads them back', async () => {
    const first = await createDocument(db, newDocument(account.id));
    const second = await db.transaction((tx) => createDocument(tx, newDocument(account.id)));
    const third = await recordDocument(db, {
      document: { ...newDocument(other.id), id: randomUUID() },
      usage: { operation: 'x', units: 1 },
    });
    expect([first.number, second.number, third.number]).toEqual([1, 2, 3]);
    expect(await getDocument(db, second.id)).toEqual(second);
    expect(await getDocumentByNumber(db, 2)).toEqual(second);
    expect(await getDocumentByNumber(db, 2, account.id)).toEqual(second);
    expect(await getDocumentByNumber(db, 3, account.id)).toBeUndefined(); // another account's
    expect(await getDocumentByNumber(db, 999)).toBeUndefined();
    expect(await getDocumentByNumber(db, 0)).toBeUndefined();
    expect(await documentNumbers(db, [first.id, second.id, third.id, randomUUID()], account.id)).toEqual(
      new Map([
        [first.id, 1],
        [second.id, 2],
      ]),
    );
    expect(await documentNumbers(db, [], account.id)).toEqual(new Map());
  });

  it('gives a rolled-back number back and never hands one out twice, even after a delete', async () => {
    const before = await createDocument(db, newDocument(account.id));
    await expect(
      db.transaction(async (tx) => {
        await createDocument(tx, newDocument(account.id));
        throw new Error('abort');
      }),
    ).rejects.toThrow('abort');
    // A failing insert (duplicate id) rolls its own transaction back.
    await expect(createDocument(db, newDocument(account.id, { id: before.id }))).rejects.toThrow();
    const after = await createDocument(db, newDocument(account.id));
    expect(after.number).toBe(before.number + 1);

    await db.query('DELETE FROM documents WHERE id = $1', [after.id]);
    expect((await createDocument(db, newDocument(account.id))).number).toBe(after.number + 1);
  });

  it('rejects a duplicate number (UNIQUE)', async () => {
    const doc = await createDocument(db, newDocument(account.id));
    await expect(
      db.query('UPDATE documents SET number = $1 WHERE id <> $2 AND number = $3', [doc.number, doc.id, doc.number - 1]),
    ).rejects.toThrow();
  });

  it('gives concurrent inserts on one handle distinct, gapless numbers', async () => {
    const start = Math.max(0, ...(await numbersOf(db)));
    const created = await Promise.all(
      Array.from({ length: 40 }, (_, i) =>
        i % 2 ? createDocument(db, newDocument(account.id)) : db.transaction((tx) => createDocument(tx, newDocument(other.id))),
      ),
    );
    expect(created.map((d) => d.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 40 }, (_, i) => start + i + 1));
  });

  it('gives concurrent inserts from several processes distinct, gapless numbers', async () => {
    // Separate processes with their own connections, as the API and worker roles run: SQLite's
    // write lock and PostgreSQL's row lock on the counter are what keep them apart.
    const start = Math.max(0, ...(await numbersOf(db)));
    const startAt = Date.now() + 1_500;
    const children = Array.from({ length: 3 }, () =>
      run(process.execPath, [path.join(HERE, 'insert-documents.child.mjs'), account.id, '20', String(startAt)], {
        env: { ...process.env, ...env.env },
      }),
    );
    const numbers = (await Promise.all(children)).flatMap((c) => JSON.parse(c.stdout) as number[]);
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => start + i + 1));
    expect((await numbersOf(db)).slice(-60)).toEqual(numbers);
  }, 60_000);

  // PostgreSQL only: node:sqlite connections block synchronously, so several in one process would wait on
  // each other forever; the service keeps one per process, and the test above covers several processes.
  if (backend === 'postgres')
    it('gives concurrent inserts from several pools distinct numbers', async () => {
      const handles = [db, await openDatabase(env.config), await openDatabase(env.config)];
      try {
        const start = Math.max(0, ...(await numbersOf(db)));
        const created = await Promise.all(
          Array.from({ length: 60 }, (_, i) => {
            const handle = handles[i % handles.length]!;
            return i % 2
              ? createDocument(handle, newDocument(account.id))
              : handle.transaction((tx) => createDocument(tx, newDocument(other.id)));
          }),
        );
        expect(created.map((d) => d.number).sort((a, b) => a - b)).toEqual(Array.from({ length: 60 }, (_, i) => start + i + 1));
      } finally {
        await Promise.all(handles.slice(1).map((h) => h.close()));
      }
    });

  it('lists one kind with the filter before the limit: full pages while more exist', async () => {
    const { db: fresh, cleanup: done } = await openTestDatabase(backend);
    try {
      const owner = await createAccount(fresh, 'Lister');
      const invoices: string[] = [];
      for (let i = 0; i < 5; i++) invoices.push((await createDocument(fresh, newDocument(owner.id, { kind: 'invoice' }), 1_000 + i)).id);
      // Newer documents of another kind: more of them than any page size below.
      for (let i = 0; i < 30; i++) await createDocument(fresh, newDocument(owner.id), 2_000 + i);
      await createDocument(fresh, newDocument((await createAccount(fresh, 'Stranger')).id, { kind: 'invoice' }), 3_000);

      const pages: string[][] = [];
      let cursor: string | undefined;
      do {
        const page = await listDocuments(fresh, owner.id, { kind: 'invoice', limit: 2, cursor });
        pages.push(page.documents.map((d) => d.id));
        expect(page.documents.every((d) => d.kind === 'invoice')).toBe(true);
        cursor = page.nextCursor ?? undefined;
      } while (cursor);
      expect(pages.map((p) => p.length)).toEqual([2, 2, 1]);
      expect(pages.flat()).toEqual([...invoices].reverse());
      expect((await listDocuments(fresh, owner.id, { limit: 1 })).documents[0]?.kind).toBe('zugferd-pdf');
    } finally {
      await done();
    }
  });
});

describe.each(BACKENDS)('migration 3 on %s', (backend) => {
  let env: TestEnv;
  let raw: Database;

  beforeAll(async () => {
    env = await createTestEnv(backend);
    raw = env.config.databaseUrl ? openPostgres(env.config.databaseUrl) : openSqlite(sqlitePath(env.config.dataDir));
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await raw?.close();
    await env?.cleanup();
  });

  it('numbers existing documents in created_at order (id breaks ties) and continues after them', async () => {
    expect(
      await migrate(
        raw,
        MIGRATIONS.filter((m) => m.version <= 2),
      ),
    ).toEqual([1, 2]);
    await raw.query(`INSERT INTO accounts (id, name, created_at) VALUES ('acc_old', 'Old', 1)`);
    // Inserted out of order; two share a timestamp.
    const rows = [
      { id: 'c0000000-0000-4000-8000-000000000000', createdAt: 300 },
      { id: 'a0000000-0000-4000-8000-000000000000', createdAt: 100 },
      { id: 'b2000000-0000-4000-8000-000000000000', createdAt: 200 },
      { id: 'b1000000-0000-4000-8000-000000000000', createdAt: 200 },
    ];
    for (const r of rows) {
      await raw.query(
        `INSERT INTO documents (id, account_id, kind, blob_key, file_name, content_type, size, sha256, workflow_id, created_at, expires_at, meta)
         VALUES ($1, 'acc_old', 'invoice', 'k', 'f.json', 'application/json', 1, 's', NULL, $2, NULL, '{}')`,
        [r.id, r.createdAt],
      );
    }

    expect(await migrate(raw, MIGRATIONS)).toEqual(MIGRATIONS.filter((m) => m.version > 2).map((m) => m.version));
    const { rows: numbered } = await raw.query<{ id: string; number: number }>('SELECT id, number FROM documents ORDER BY number');
    expect(numbered.map((r) => [r.id.slice(0, 2), Number(r.number)])).toEqual([
      ['a0', 1],
      ['b1', 2],
      ['b2', 3],
      ['c0', 4],
    ]);
    expect((await getDocumentByNumber(raw, 3))?.id).toBe('b2000000-0000-4000-8000-000000000000');
    expect((await createDocument(raw, newDocument('acc_old'))).number).toBe(5);
  });
});
