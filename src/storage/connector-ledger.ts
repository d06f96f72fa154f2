import type { Queryable } from './database.js';

/**
 * What the folder connectors have done with every file, by route and content hash. Temporal
 * forgets a workflow after its retention period; the ledger does not, so the same invoice
 * dropped again a year later is still recognised as processed. It also answers the status
 * listing (seen, processed, failed, waiting per route).
 */

export type LedgerStatus = 'processing' | 'done' | 'refused' | 'failed';

export interface LedgerEntry {
  route: string;
  contentHash: string;
  workflowId: string;
  fileName: string;
  status: LedgerStatus;
  /** The result's path on its source, once written. */
  resultPath: string | null;
  /** Epoch milliseconds. */
  firstSeenAt: number;
  finishedAt: number | null;
}

interface LedgerRow {
  route: string;
  content_hash: string;
  workflow_id: string;
  file_name: string;
  status: LedgerStatus;
  result_path: string | null;
  first_seen_at: number | string;
  finished_at: number | string | null;
}

const toEntry = (r: LedgerRow): LedgerEntry => ({
  route: r.route,
  contentHash: r.content_hash,
  workflowId: r.workflow_id,
  fileName: r.file_name,
  status: r.status,
  resultPath: r.result_path,
  // PostgreSQL returns BIGINT as text.
  firstSeenAt: Number(r.first_seen_at),
  finishedAt: r.finished_at === null ? null : Number(r.finished_at),
});

export type ClaimedEntry =
  /** First time this content arrives on this route: process it. */
  | { outcome: 'new'; entry: LedgerEntry }
  /** Seen before and still being processed (a crash resumed, or a copy dropped meanwhile). */
  | { outcome: 'processing'; entry: LedgerEntry }
  /** Seen before and finished: the new copy is a duplicate. */
  | { outcome: 'finished'; entry: LedgerEntry };

/** Records a claimed file; the unique (route, content_hash) key decides which copy is the first, also across replicas. */
export async function enterConnectorFile(
  db: Queryable,
  input: { route: string; contentHash: string; workflowId: string; fileName: string },
  now = Date.now(),
): Promise<ClaimedEntry> {
  const inserted = await db.query<LedgerRow>(
    `INSERT INTO connector_files (route, content_hash, workflow_id, file_name, status, result_path, first_seen_at, finished_at)
     VALUES ($1, $2, $3, $4, 'processing', NULL, $5, NULL)
     ON CONFLICT (route, content_hash) DO NOTHING
     RETURNING *`,
    [input.route, input.contentHash, input.workflowId, input.fileName, now],
  );
  if (inserted.rows[0]) return { outcome: 'new', entry: toEntry(inserted.rows[0]) };
  const entry = await getConnectorFile(db, input.route, input.contentHash);
  if (!entry) throw new Error(`connector_files lost the row of ${input.route}/${input.contentHash}`);
  return { outcome: entry.status === 'processing' ? 'processing' : 'finished', entry };
}

export async function getConnectorFile(db: Queryable, route: string, contentHash: string): Promise<LedgerEntry | undefined> {
  const { rows } = await db.query<LedgerRow>(`SELECT * FROM connector_files WHERE route = $1 AND content_hash = $2`, [route, contentHash]);
  return rows[0] && toEntry(rows[0]);
}

/** Marks the file finished; idempotent, so a retried activity writes the same row again. */
export async function finishConnectorFile(
  db: Queryable,
  input: { route: string; contentHash: string; status: Exclude<LedgerStatus, 'processing'>; resultPath: string | null },
  now = Date.now(),
): Promise<void> {
  await db.query(
    `UPDATE connector_files SET status = $3, result_path = $4, finished_at = COALESCE(finished_at, $5) WHERE route = $1 AND content_hash = $2`,
    [input.route, input.contentHash, input.status, input.resultPath, now],
  );
}

export type RouteCounts = Record<LedgerStatus, number>;

/** How many files of each route are in each state. */
export async function connectorCounts(db: Queryable): Promise<Map<string, RouteCounts>> {
  const { rows } = await db.query<{ route: string; status: LedgerStatus; n: number | string }>(
    `SELECT route, status, COUNT(*) AS n FROM connector_files GROUP BY route, status`,
  );
  const out = new Map<string, RouteCounts>();
  for (const r of rows) {
    const counts = out.get(r.route) ?? { processing: 0, done: 0, refused: 0, failed: 0 };
    counts[r.status] = Number(r.n);
    out.set(r.route, counts);
  }
  return out;
}
