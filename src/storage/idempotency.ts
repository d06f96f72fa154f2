import type { Queryable } from './database.js';

/**
 * Idempotency-Key support. A request first *claims* (account, key); only the claimer executes
 * the operation, then *completes* the key with the response (or *releases* it on failure so the
 * client may retry). Duplicates see the stored state instead of executing again.
 */

export interface IdempotencyRecord {
  accountId: string;
  key: string;
  requestHash: string;
  state: 'pending' | 'done';
  /** The stored response (any JSON value) once `done`. */
  response: unknown;
  /** Epoch milliseconds. */
  createdAt: number;
  expiresAt: number;
}

export type ClaimResult =
  /** This caller owns the key and must execute the request, then complete or release it. */
  | { outcome: 'claimed' }
  /** Same key, same request, still executing elsewhere. */
  | { outcome: 'in_progress'; record: IdempotencyRecord }
  /** Same key, same request, finished: replay `record.response`. */
  | { outcome: 'completed'; record: IdempotencyRecord }
  /** Same key reused for a different request. */
  | { outcome: 'mismatch'; record: IdempotencyRecord };

export interface ClaimInput {
  accountId: string;
  key: string;
  /** A hash of what identifies the request (method, path, body), to detect key reuse. */
  requestHash: string;
  ttlMs: number;
}

interface IdempotencyRow {
  account_id: string;
  key: string;
  request_hash: string;
  state: 'pending' | 'done';
  response: string | null;
  created_at: number;
  expires_at: number;
}

const toRecord = (r: IdempotencyRow): IdempotencyRecord => ({
  accountId: r.account_id,
  key: r.key,
  requestHash: r.request_hash,
  state: r.state,
  response: r.response === null ? null : JSON.parse(r.response),
  createdAt: r.created_at,
  expiresAt: r.expires_at,
});

/** A lookup can miss a row that expired and was taken over in between: retry the claim then. */
const CLAIM_ATTEMPTS = 3;

export async function claimIdempotencyKey(db: Queryable, input: ClaimInput, now = Date.now()): Promise<ClaimResult> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    if (await insertClaim(db, input, now)) return { outcome: 'claimed' };
    const record = await lookupIdempotencyKey(db, input.accountId, input.key, now);
    if (record) return { outcome: classify(record, input.requestHash), record };
  }
  throw new Error(`Idempotency key ${input.key} kept changing hands; giving up`);
}

/**
 * One atomic statement on both back-ends: the unique (account_id, key) key decides the single
 * winner among concurrent claims, and an expired row is taken over as if it did not exist.
 */
async function insertClaim(db: Queryable, input: ClaimInput, now: number): Promise<boolean> {
  const { rowCount } = await db.query(
    `INSERT INTO idempotency_keys (account_id, key, request_hash, state, response, created_at, expires_at)
     VALUES ($1, $2, $3, 'pending', NULL, $4, $5)
     ON CONFLICT (account_id, key) DO UPDATE SET
       request_hash = excluded.request_hash, state = 'pending', response = NULL,
       created_at = excluded.created_at, expires_at = excluded.expires_at
     WHERE idempotency_keys.expires_at <= $4
     RETURNING key`,
    [input.accountId, input.key, input.requestHash, now, now + input.ttlMs],
  );
  return rowCount === 1;
}

function classify(record: IdempotencyRecord, requestHash: string): Exclude<ClaimResult['outcome'], 'claimed'> {
  if (record.requestHash !== requestHash) return 'mismatch';
  return record.state === 'done' ? 'completed' : 'in_progress';
}

/** Expired keys are treated as absent. */
export async function lookupIdempotencyKey(db: Queryable, accountId: string, key: string, now = Date.now()): Promise<IdempotencyRecord | undefined> {
  const { rows } = await db.query<IdempotencyRow>(
    `SELECT account_id, key, request_hash, state, response, created_at, expires_at
     FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND expires_at > $3`,
    [accountId, key, now],
  );
  return rows[0] && toRecord(rows[0]);
}

/** Stores the response of a claimed request. Returns false if the claim was lost (e.g. it expired and was taken over). */
export async function completeIdempotencyKey(
  db: Queryable,
  input: { accountId: string; key: string; requestHash: string; response: unknown },
): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE idempotency_keys SET state = 'done', response = $4
     WHERE account_id = $1 AND key = $2 AND request_hash = $3 AND state = 'pending'`,
    [input.accountId, input.key, input.requestHash, JSON.stringify(input.response ?? null)],
  );
  return rowCount === 1;
}

/** Drops a pending claim whose request failed, so that the client can retry with the same key. */
export async function releaseIdempotencyKey(db: Queryable, input: { accountId: string; key: string; requestHash: string }): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND request_hash = $3 AND state = 'pending'`,
    [input.accountId, input.key, input.requestHash],
  );
  return rowCount === 1;
}

/** Housekeeping: keys are only taken over on reuse, so never-reused expired keys need purging. */
export async function deleteExpiredIdempotencyKeys(db: Queryable, now = Date.now()): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
  return rowCount;
}
