import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openPostgres, openSqlite, sqlitePath, toSqlitePlaceholders, type Database } from '../../src/storage/database.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { migrate, type Migration } from '../../src/storage/migrate.js';
import { MIGRATIONS } from '../../src/storage/migrations.js';
import { BACKENDS, SETUP_TIMEOUT_MS, createTestEnv, type TestEnv } from './helpers.js';

describe('toSqlitePlaceholders', () => {
  it('numbers placeholders so repeats and reordering bind by index', () => {
    expect(toSqlitePlaceholders('SELECT $2, $1, $10, $1')).toBe('SELECT ?2, ?1, ?10, ?1');
  });

  it('leaves string literals alone', () => {
    expect(toSqlitePlaceholders(`SELECT '$1', 'it''s $2', $3`)).toBe(`SELECT '$1', 'it''s $2', ?3`);
  });
});

const TEST_MIGRATIONS: Migration[] = [
  { version: 2, name: 'second', statements: ['ALTER TABLE t ADD COLUMN b TEXT'] },
  { version: 1, name: 'first', statements: ['CREATE TABLE t (a INTEGER PRIMARY KEY)'] },
];

function openRaw(env: TestEnv): Database {
  return env.config.databaseUrl ? openPostgres(env.config.databaseUrl) : openSqlite(sqlitePath(env.config.dataDir));
}

describe.each(BACKENDS)('database on %s', (backend) => {
  let env: TestEnv;
  let db: Database;

  beforeAll(async () => {
    env = await createTestEnv(backend);
    db = openRaw(env);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await db?.close();
    await env?.cleanup();
  });

  it('reports its dialect', () => {
    expect(db.dialect).toBe(backend);
  });

  it('applies migrations in version order, once, and records them', async () => {
    expect(await migrate(db, TEST_MIGRATIONS)).toEqual([1, 2]);
    expect(await migrate(db, TEST_MIGRATIONS)).toEqual([]);
    const { rows } = await db.query<{ version: number; name: string; applied_at: number }>(
      'SELECT version, name, applied_at FROM schema_migrations ORDER BY version',
    );
    expect(rows.map((r) => [r.version, r.name])).toEqual([
      [1, 'first'],
      [2, 'second'],
    ]);
    expect(typeof rows[0]?.applied_at).toBe('number');
  });

  it('applies only migrations added later', async () => {
    const third: Migration = { version: 3, name: 'third', statements: ['CREATE TABLE t3 (x INTEGER)'] };
    expect(await migrate(db, [...TEST_MIGRATIONS, third])).toEqual([3]);
  });

  it('rolls a failing migration run back completely', async () => {
    const broken: Migration[] = [
      { version: 4, name: 'good', statements: ['CREATE TABLE t4 (x INTEGER)'] },
      { version: 5, name: 'bad', statements: ['CREATE TABLE t5 (x INTEGER)', 'THIS IS NOT SQL'] },
    ];
    await expect(migrate(db, broken)).rejects.toThrow();
    const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations WHERE version >= 4');
    expect(rows).toEqual([]);
    // t4 was created before the failure, inside the same transaction.
    await expect(db.query('SELECT x FROM t4')).rejects.toThrow();
  });

  it('rejects duplicate or invalid versions before touching the database', async () => {
    await expect(migrate(db, [TEST_MIGRATIONS[0]!, { ...TEST_MIGRATIONS[0]!, name: 'again' }])).rejects.toThrow(/unique positive integer/);
    await expect(migrate(db, [{ version: 0, name: 'zero', statements: [] }])).rejects.toThrow(/unique positive integer/);
  });

  it('binds $n parameters, including repeated and reordered ones', async () => {
    await db.query('INSERT INTO t (a, b) VALUES ($2, $1)', ['x', 7]);
    const { rows } = await db.query<{ a: number; b: string; c: string }>('SELECT a, b, $1 AS c FROM t WHERE a = $2 AND b = $1', ['x', 7]);
    expect(rows).toEqual([{ a: 7, b: 'x', c: 'x' }].map((r) => expect.objectContaining(r)));
  });

  it('returns BIGINT values as numbers', async () => {
    const big = 1_767_225_600_123; // an epoch-ms timestamp
    const { rows } = await db.query<{ v: number }>('SELECT CAST($1 AS BIGINT) AS v', [big]);
    expect(rows[0]?.v).toBe(big);
  });

  it('reports changed rows for statements without RETURNING, and returned rows with it', async () => {
    await db.query('INSERT INTO t (a) VALUES (100), (101), (102)');
    expect((await db.query('UPDATE t SET b = $1 WHERE a >= 100', ['y'])).rowCount).toBe(3);
    const deleted = await db.query<{ a: number }>('DELETE FROM t WHERE a = $1 RETURNING a', [100]);
    expect(deleted).toEqual({ rows: [expect.objectContaining({ a: 100 })], rowCount: 1 });
  });

  it('commits a transaction', async () => {
    const result = await db.transaction(async (tx) => {
      await tx.query('INSERT INTO t (a) VALUES ($1)', [200]);
      return 'ok';
    });
    expect(result).toBe('ok');
    expect((await db.query('SELECT a FROM t WHERE a = 200')).rowCount).toBe(1);
  });

  it('rolls back a failing transaction and rethrows its error', async () => {
    const failure = new Error('boom');
    await expect(
      db.transaction(async (tx) => {
        await tx.query('INSERT INTO t (a) VALUES ($1)', [300]);
        throw failure;
      }),
    ).rejects.toBe(failure);
    expect((await db.query('SELECT a FROM t WHERE a = 300')).rowCount).toBe(0);
    // The connection is usable afterwards.
    expect((await db.query('SELECT 1 AS one')).rows).toEqual([expect.objectContaining({ one: 1 })]);
  });

  it('keeps concurrent transactions apart', async () => {
    await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        db
          .transaction(async (tx) => {
            await tx.query('INSERT INTO t (a) VALUES ($1)', [400 + i]);
            if (i % 2 === 1) throw new Error('odd');
          })
          .catch(() => undefined),
      ),
    );
    const { rows } = await db.query<{ a: number }>('SELECT a FROM t WHERE a >= 400 AND a < 500 ORDER BY a');
    expect(rows.map((r) => r.a)).toEqual([400, 402, 404, 406, 408]);
  });

  it(
    'enforces foreign keys',
    async () => {
      // A database of its own: this one's schema_migrations holds the test migrations' versions, so the real schema would not be created.
      const fresh = await createTestEnv(backend);
      const schema = openRaw(fresh);
      try {
        await migrate(schema, MIGRATIONS);
        await expect(
          schema.query('INSERT INTO api_tokens (id, account_id, label, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
            'x',
            'acc_missing',
            'l',
            'h',
            1,
          ]),
        ).rejects.toThrow(/foreign key/i);
      } finally {
        await schema.close();
        await fresh.cleanup();
      }
    },
    SETUP_TIMEOUT_MS,
  );
});

describe.each(BACKENDS)('openDatabase on %s', (backend) => {
  let env: TestEnv;

  beforeAll(async () => {
    env = await createTestEnv(backend);
  }, SETUP_TIMEOUT_MS);

  afterAll(() => env?.cleanup());

  it('migrates on open and is idempotent across restarts', async () => {
    for (let restart = 0; restart < 3; restart++) {
      const db = await openDatabase(env.config);
      const { rows } = await db.query<{ version: number }>('SELECT version FROM schema_migrations ORDER BY version');
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
      await db.close();
    }
  });
});

describe('openDatabase on sqlite', () => {
  it('uses WAL mode and a busy timeout, in <dataDir>/einvoice.sqlite', async () => {
    const env = await createTestEnv('sqlite');
    const db = await openDatabase(env.config);
    try {
      expect((await db.query('PRAGMA journal_mode')).rows).toEqual([expect.objectContaining({ journal_mode: 'wal' })]);
      expect((await db.query('PRAGMA busy_timeout')).rows[0]).toEqual(expect.objectContaining({ timeout: 10000 }));
      const { rows } = await db.query<{ file: string }>('SELECT file FROM pragma_database_list WHERE name = $1', ['main']);
      expect(rows[0]?.file).toBe(sqlitePath(env.config.dataDir));
    } finally {
      await db.close();
      await env.cleanup();
    }
  });
});

describe('migrations on postgres started concurrently', () => {
  it(
    'are applied exactly once when several pools (separate connections) migrate at the same time',
    async () => {
      const env = await createTestEnv('postgres');
      const pools = Array.from({ length: 5 }, () => openRaw(env));
      try {
        const applied = await Promise.all(pools.map((db) => migrate(db, TEST_MIGRATIONS)));
        expect(applied.flat().sort()).toEqual([1, 2]);
        const { rows } = await pools[0]!.query('SELECT version FROM schema_migrations');
        expect(rows).toHaveLength(2);
      } finally {
        await Promise.all(pools.map((db) => db.close()));
        await env.cleanup();
      }
    },
    SETUP_TIMEOUT_MS,
  );
});
