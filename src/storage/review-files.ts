import type { Queryable } from './database.js';

/**
 * The uploads of refused API conversions waiting in the review queue: nothing else refers to
 * them, and the blob store forgets what nothing refers to after 48 hours (retention.ts), so each
 * is kept here until its entry's time is up.
 */

/** Idempotent on the review: a retried call keeps the first file. */
export async function keepReviewFile(
  db: Queryable,
  f: { reviewId: string; accountId: string; blobKey: string; expiresAt: number },
): Promise<void> {
  await db.query(
    'INSERT INTO review_files (review_id, account_id, blob_key, expires_at) VALUES ($1, $2, $3, $4) ON CONFLICT (review_id) DO NOTHING',
    [f.reviewId, f.accountId, f.blobKey, f.expiresAt],
  );
}

/** The files still kept, for retention to leave alone. */
export async function keptReviewFiles(db: Queryable, now: number): Promise<string[]> {
  const { rows } = await db.query<{ blob_key: string }>('SELECT blob_key FROM review_files WHERE expires_at > $1', [now]);
  return rows.map((r) => r.blob_key);
}

/** Forgets the files whose time is up; their blobs are then unreferenced, and retention removes them. */
export async function forgetExpiredReviewFiles(db: Queryable, now: number): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM review_files WHERE expires_at <= $1', [now]);
  return rowCount;
}
