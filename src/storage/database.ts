import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { DatabaseSync, type StatementSync } from 'node:sqlite';
import pg from 'pg';

/**
 * One small SQL interface over two back-ends: embedded SQLite (node:sqlite) and PostgreSQL.
 *
 * SQL is written once, in PostgreSQL's `$1` placeholder style, using only what both dialects
 * share (TEXT, INTEGER, BIGINT, ON CONFLICT, RETURNING). Timestamps are stored as epoch
 * milliseconds in BIGINT columns on both back-ends, so comparisons and TTL arithmetic are
 * plain integer operations; repositories expose them as numbers (epoch ms).
 */

export type SqlValue = string | number | null;
export type Row = Record<string, SqlValue>;

export interface QueryResult<T> {
  rows: T[];
  /** Rows returned, or rows changed by a statement without RETURNING. */
  rowCount: number;
}

export interface Queryable {
  query<T extends object = Row>(sql: string, params?: readonly SqlValue[]): Promise<QueryResult<T>>;
}

export interface Transaction extends Queryable {
  /**
   * Serialises transactions that take the same named lock, across processes, until commit.
   * On SQLite every transaction already holds the database-wide write lock (BEGIN IMMEDIATE).
   */
  lock(name: string): Promise<void>;
}

export interface Database extends Queryable {
  readonly dialect: 'sqlite' | 'postgres';
  /** Inside `fn` use only `tx`: on SQLite the connection is exclusively the transaction's. */
  transaction<T>(fn: (tx: Transaction) => Promise<T>): Promise<T>;
  close(): Promise<void>;
}

/**
 * Runs `fn` atomically: in a new transaction when given the Database, inside the caller's
 * transaction when given a Transaction (transactions do not nest).
 */
export function atomically<T>(db: Queryable, fn: (tx: Queryable) => Promise<T>): Promise<T> {
  return isDatabase(db) ? db.transaction(fn) : fn(db);
}

function isDatabase(db: Queryable): db is Database {
  return typeof (db as Partial<Database>).transaction === 'function';
}

export function sqlitePath(dataDir: string): string {
  return path.join(dataDir, 'einvoice.sqlite');
}

/** The transaction failed and so did its ROLLBACK: the connection is in an unknown state. */
class RollbackFailedError extends Error {
  constructor(cause: unknown, rollbackError: unknown) {
    super(`ROLLBACK failed (${String(rollbackError)}) after: ${String(cause)}`, { cause });
  }
}

/** Runs BEGIN … COMMIT around `fn`, rolling back on any error. */
async function inTransaction<T>(tx: Transaction, begin: string, fn: (tx: Transaction) => Promise<T>): Promise<T> {
  await tx.query(begin);
  try {
    const result = await fn(tx);
    await tx.query('COMMIT');
    return result;
  } catch (err) {
    await tx.query('ROLLBACK').catch((rollbackError: unknown) => {
      throw new RollbackFailedError(err, rollbackError);
    });
    throw err;
  }
}

// ---------------------------------------------------------------- SQLite

const SQLITE_BUSY_TIMEOUT_MS = 10_000;

/** `$1` → `?1` (numbered, so repeated and reordered placeholders bind correctly); string literals are left alone. */
export function toSqlitePlaceholders(sql: string): string {
  return sql.replace(/'(?:[^']|'')*'|\$(\d+)/g, (match, index: string | undefined) => (index ? `?${index}` : match));
}

/** Serialises async critical sections: one SQLite connection must never interleave two transactions. */
class Mutex {
  private tail: Promise<unknown> = Promise.resolve();

  run<T>(fn: () => Promise<T>): Promise<T> {
    const result = this.tail.then(fn);
    this.tail = result.catch(() => undefined);
    return result;
  }
}

export function openSqlite(file: string): Database {
  mkdirSync(path.dirname(file), { recursive: true });
  const conn = new DatabaseSync(file);
  // The busy timeout makes concurrent writers (other processes) wait instead of failing with
  // SQLITE_BUSY; it comes first because switching a new file to WAL already needs a lock.
  // WAL lets readers in other processes (API and worker roles) run while one writes.
  conn.exec(
    `PRAGMA busy_timeout = ${SQLITE_BUSY_TIMEOUT_MS}; PRAGMA journal_mode = WAL; PRAGMA foreign_keys = ON; PRAGMA synchronous = NORMAL;`,
  );

  const statements = new Map<string, StatementSync>();
  const prepare = (sql: string): StatementSync => {
    let stmt = statements.get(sql);
    if (!stmt) {
      stmt = conn.prepare(toSqlitePlaceholders(sql));
      statements.set(sql, stmt);
    }
    return stmt;
  };
  const exec = async <T extends object>(sql: string, params: readonly SqlValue[] = []): Promise<QueryResult<T>> => {
    const stmt = prepare(sql);
    if (stmt.columns().length > 0) {
      const rows = stmt.all(...params) as T[];
      return { rows, rowCount: rows.length };
    }
    return { rows: [], rowCount: Number(stmt.run(...params).changes) };
  };

  const mutex = new Mutex();
  const tx: Transaction = { query: exec, lock: async () => undefined };
  return {
    dialect: 'sqlite',
    query: (sql, params) => mutex.run(() => exec(sql, params)),
    // IMMEDIATE takes the write lock up front: a deferred transaction that later upgrades to a
    // writer can fail with SQLITE_BUSY without waiting for the busy timeout.
    transaction: (fn) => mutex.run(() => inTransaction(tx, 'BEGIN IMMEDIATE', fn)),
    close: () =>
      mutex.run(async () => {
        if (conn.isOpen) conn.close();
      }),
  };
}

// ---------------------------------------------------------------- PostgreSQL

/** BIGINT (epoch ms, counts) as JS numbers: every value we store fits in 2^53. */
const pgTypes: pg.CustomTypesConfig = {
  getTypeParser: ((oid: number, format?: string) =>
    oid === pg.types.builtins.INT8 ? Number : pg.types.getTypeParser(oid, format as 'text')) as typeof pg.types.getTypeParser,
};

/** Advisory locks take a 64-bit key: derive it from the lock name. */
function advisoryLockKey(name: string): string {
  return createHash('sha256').update(name).digest().readBigInt64BE(0).toString();
}

function pgQueryable(client: pg.Pool | pg.PoolClient): Queryable['query'] {
  return async <T extends object>(sql: string, params: readonly SqlValue[] = []) => {
    const result = await client.query(sql, params as SqlValue[]);
    return { rows: result.rows as T[], rowCount: result.rowCount ?? result.rows.length };
  };
}

export function openPostgres(connectionString: string): Database {
  const pool = new pg.Pool({ connectionString, types: pgTypes });
  // An idle client losing its connection (server restart) must not crash the process;
  // the pool replaces it and the next query reports any lasting problem.
  pool.on('error', () => undefined);
  return {
    dialect: 'postgres',
    query: pgQueryable(pool),
    transaction: async (fn) => {
      const client = await pool.connect();
      let brokenConnection = false;
      const query = pgQueryable(client);
      const tx: Transaction = {
        query,
        lock: async (name) => {
          await query('SELECT pg_advisory_xact_lock($1::bigint)', [advisoryLockKey(name)]);
        },
      };
      try {
        return await inTransaction(tx, 'BEGIN', fn);
      } catch (err) {
        brokenConnection = err instanceof RollbackFailedError;
        throw err;
      } finally {
        // A connection left mid-transaction must not go back to the pool.
        client.release(brokenConnection);
      }
    },
    close: () => pool.end(),
  };
}
