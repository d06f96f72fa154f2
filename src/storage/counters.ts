import type { Queryable } from './database.js';

/**
 * Named, increasing counters (table `counters`, migration 3). Call `nextValue` inside the
 * transaction that stores the value: on PostgreSQL the UPDATE locks the counter's row until
 * that transaction ends, so concurrent callers get distinct values in commit order and a
 * rolled-back transaction gives its value back; on SQLite the transaction already holds the
 * write lock (BEGIN IMMEDIATE).
 */
export async function nextValue(tx: Queryable, name: string): Promise<number> {
  const { rows } = await tx.query<{ value: number | string }>('UPDATE counters SET value = value + 1 WHERE name = $1 RETURNING value', [
    name,
  ]);
  const value = rows[0]?.value;
  if (value === undefined) throw new Error(`No counter "${name}" (is the database migrated?)`);
  return Number(value);
}
