import { randomUUID } from 'node:crypto';
import type { JobSource } from '../operations/context.js';
import type { Queryable, SqlValue } from './database.js';

export interface UsageRecord {
  id: string;
  accountId: string;
  /** e.g. 'validate', 'convert'. */
  operation: string;
  units: number;
  documentId: string | null;
  /** The request or connector file the operation ran for; null on records older than the column. */
  source: JobSource | null;
  /** Epoch milliseconds. */
  createdAt: number;
}

/** A time window [from, to) in epoch milliseconds; either end may be open. */
export interface UsageWindow {
  from?: number;
  to?: number;
}

interface UsageRow {
  id: string;
  account_id: string;
  operation: string;
  units: number;
  document_id: string | null;
  source: string | null;
  created_at: number;
}

const MAX_LIST = 1000;

const toUsage = (r: UsageRow): UsageRecord => ({
  id: r.id,
  accountId: r.account_id,
  operation: r.operation,
  units: r.units,
  documentId: r.document_id,
  source: r.source === null ? null : (JSON.parse(r.source) as JobSource),
  createdAt: r.created_at,
});

export async function recordUsage(
  db: Queryable,
  input: { accountId: string; operation: string; units: number; documentId?: string | null; source?: JobSource | null; id?: string },
  now = Date.now(),
): Promise<UsageRecord> {
  if (!Number.isSafeInteger(input.units) || input.units < 0)
    throw new RangeError(`units must be a non-negative integer, got ${input.units}`);
  const record: UsageRecord = {
    ...input,
    id: input.id ?? randomUUID(),
    documentId: input.documentId ?? null,
    source: input.source ?? null,
    createdAt: now,
  };
  await db.query(
    'INSERT INTO usage_records (id, account_id, operation, units, document_id, source, created_at) VALUES ($1, $2, $3, $4, $5, $6, $7)',
    [
      record.id,
      record.accountId,
      record.operation,
      record.units,
      record.documentId,
      record.source && JSON.stringify(record.source),
      record.createdAt,
    ],
  );
  return record;
}

/** Newest first, at most `limit` (default 100, at most 1000) records. */
export async function listUsage(db: Queryable, accountId: string, window: UsageWindow & { limit?: number } = {}): Promise<UsageRecord[]> {
  const { where, params } = windowFilter(accountId, window);
  const limit = Math.min(Math.max(Math.trunc(window.limit ?? 100), 1), MAX_LIST);
  params.push(limit);
  const { rows } = await db.query<UsageRow>(
    `SELECT id, account_id, operation, units, document_id, source, created_at FROM usage_records
     WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $${params.length}`,
    params,
  );
  return rows.map(toUsage);
}

/** Total units per operation in the window, by operation name. */
export async function sumUsage(db: Queryable, accountId: string, window: UsageWindow = {}): Promise<Record<string, number>> {
  const { where, params } = windowFilter(accountId, window);
  const { rows } = await db.query<{ operation: string; units: number }>(
    // CAST: PostgreSQL's SUM(integer) is a BIGINT, SQLite's an INTEGER; both parse to a number.
    `SELECT operation, CAST(SUM(units) AS BIGINT) AS units FROM usage_records WHERE ${where} GROUP BY operation ORDER BY operation`,
    params,
  );
  return Object.fromEntries(rows.map((r) => [r.operation, r.units]));
}

function windowFilter(accountId: string, window: UsageWindow): { where: string; params: SqlValue[] } {
  const params: SqlValue[] = [accountId];
  const clauses = ['account_id = $1'];
  if (window.from !== undefined) clauses.push(`created_at >= $${params.push(window.from)}`);
  if (window.to !== undefined) clauses.push(`created_at < $${params.push(window.to)}`);
  return { where: clauses.join(' AND '), params };
}
