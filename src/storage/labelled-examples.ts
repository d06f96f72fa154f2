import type { FieldLabel } from '../conversion/labels.js';
import type { Queryable } from './database.js';

/**
 * What people confirmed in the review queue, kept as labelled examples for retraining the
 * analysis on an installation's own suppliers (README, "Labelled examples"): per created
 * e-invoice, its pages with the confirmed invoice XML embedded (the form `train-models --wild`
 * reads) and each value confirmed: the field, the value, what was read and where it stood. Only for accounts that keep them (the default);
 * `examples keep --off` stops it and `examples remove` deletes what was kept.
 */

export interface LabelledExample {
  /** The review's workflow id: one example per review, however often its step runs. */
  id: string;
  accountId: string;
  blobKey: string;
  fileName: string;
  /** Every value the person confirmed, with what was read, where, and whether it was changed. */
  labels: FieldLabel[];
  /** Epoch milliseconds. */
  createdAt: number;
}

interface ExampleRow {
  id: string;
  account_id: string;
  blob_key: string;
  file_name: string;
  labels: string;
  created_at: number | string;
}

const toExample = (r: ExampleRow): LabelledExample => ({
  id: r.id,
  accountId: r.account_id,
  blobKey: r.blob_key,
  fileName: r.file_name,
  labels: JSON.parse(r.labels) as FieldLabel[],
  createdAt: Number(r.created_at),
});

/** Idempotent on the example's id: answers whether it was added now. */
export async function addExample(db: Queryable, e: LabelledExample): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO labelled_examples (id, account_id, blob_key, file_name, labels, created_at)
     VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
    [e.id, e.accountId, e.blobKey, e.fileName, JSON.stringify(e.labels), e.createdAt],
  );
  return (rowCount ?? 0) > 0;
}

/** Oldest first. */
export async function listExamples(db: Queryable, accountId: string): Promise<LabelledExample[]> {
  const { rows } = await db.query<ExampleRow>(
    'SELECT id, account_id, blob_key, file_name, labels, created_at FROM labelled_examples WHERE account_id = $1 ORDER BY created_at, id',
    [accountId],
  );
  return rows.map(toExample);
}

/** Deletes the account's examples; answers their files' keys, for the caller to delete. */
export async function removeExamples(db: Queryable, accountId: string): Promise<string[]> {
  const { rows } = await db.query<{ blob_key: string }>('DELETE FROM labelled_examples WHERE account_id = $1 RETURNING blob_key', [
    accountId,
  ]);
  return rows.map((r) => r.blob_key);
}

/** Every example's file: what retention keeps. */
export async function exampleBlobKeys(db: Queryable): Promise<string[]> {
  const { rows } = await db.query<{ blob_key: string }>('SELECT blob_key FROM labelled_examples');
  return rows.map((r) => r.blob_key);
}
