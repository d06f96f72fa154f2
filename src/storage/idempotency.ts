import type { Queryable } from './database.js';

/**
 * Idempotency-Key records. A row is not a lock: it fixes what a key means (the hash of the
 * request first sent with it) and, once an answer was given, keeps that answer for replay. The
 * work itself belongs to the key's workflow (src/jobs/submit/idempotency.ts), which Temporal runs at
 * most once per key generation, whichever process dies in between.
 *
 * A key's *generation* is the `createdAt` of its row: a key that expired and is used again
 * starts a new generation, and with it a new workflow.
 */

export interface IdempotencyRecord {
  accountId: string;
  key: string;
  requestHash: string;
  state: 'pending' | 'done';
  /** The stored response (any JSON value) once `done`. */
  response: unknown;
  /** Epoch milliseconds; also the key's generation. */
  createdAt: number;
  expiresAt: number;
}

export type ClaimResult =
  /** The first request with this key (or the first after it expired): a new generation. */
  | { outcome: 'claimed'; record: IdempotencyRecord }
  /** Same key, same request, no answer kept yet: run (or join) the key's workflow. */
  | { outcome: 'pending'; record: IdempotencyRecord }
  /** Same key, same request, answered: replay `record.response`. */
  | { outcome: 'completed'; record: IdempotencyRecord }
  /** Same key reused for a different request. */
  | { outcome: 'mismatch'; record: IdempotencyRecord };

export interface ClaimInput {
  accountId: string;
  key: string;
  /** A hash of what identifies the request (operation, body), to detect key reuse. */
  requestHash: string;
  ttlMs: number;
}

/** One generation of a key, as complete and release name it. */
export interface KeyGeneration {
  accountId: string;
  key: string;
  requestHash: string;
  createdAt: number;
}

interface IdempotencyRow {
  account_id: string;
  key: string;
  request_hash: string;
  state: 'pending' | 'done';
  response: string | null;
  created_at: number | string;
  expires_at: number | string;
}

const toRecord = (r: IdempotencyRow): IdempotencyRecord => ({
  accountId: r.account_id,
  key: r.key,
  requestHash: r.request_hash,
  state: r.state,
  response: r.response === null ? null : JSON.parse(r.response),
  createdAt: Number(r.created_at),
  expiresAt: Number(r.expires_at),
});

/** A lookup can miss a row that expired and was taken over in between: retry the claim then. */
const CLAIM_ATTEMPTS = 3;

export async function claimIdempotencyKey(db: Queryable, input: ClaimInput, now = Date.now()): Promise<ClaimResult> {
  for (let attempt = 0; attempt < CLAIM_ATTEMPTS; attempt++) {
    const claimed = await insertClaim(db, input, now);
    if (claimed) return { outcome: 'claimed', record: claimed };
    const record = await lookupIdempotencyKey(db, input.accountId, input.key, now);
    if (record) return { outcome: classify(record, input.requestHash), record } as ClaimResult;
  }
  throw new Error(`Idempotency key ${input.key} kept changing hands; giving up`);
}

/**
 * One atomic statement on both back-ends: the unique (account_id, key) key decides the single
 * first request among concurrent ones, and an expired row is taken over as if it did not exist.
 */
async function insertClaim(db: Queryable, input: ClaimInput, now: number): Promise<IdempotencyRecord | undefined> {
  const { rows } = await db.query<IdempotencyRow>(
    `INSERT INTO idempotency_keys (account_id, key, request_hash, state, response, created_at, expires_at)
     VALUES ($1, $2, $3, 'pending', NULL, $4, $5)
     ON CONFLICT (account_id, key) DO UPDATE SET
       request_hash = excluded.request_hash, state = 'pending', response = NULL,
       created_at = excluded.created_at, expires_at = excluded.expires_at
     WHERE idempotency_keys.expires_at <= $4
     RETURNING account_id, key, request_hash, state, response, created_at, expires_at`,
    [input.accountId, input.key, input.requestHash, now, now + input.ttlMs],
  );
  return rows[0] && toRecord(rows[0]);
}

function classify(record: IdempotencyRecord, requestHash: string): Exclude<ClaimResult['outcome'], 'claimed'> {
  if (record.requestHash !== requestHash) return 'mismatch';
  return record.state === 'done' ? 'completed' : 'pending';
}

/** Expired keys are treated as absent. */
export async function lookupIdempotencyKey(
  db: Queryable,
  accountId: string,
  key: string,
  now = Date.now(),
): Promise<IdempotencyRecord | undefined> {
  const { rows } = await db.query<IdempotencyRow>(
    `SELECT account_id, key, request_hash, state, response, created_at, expires_at
     FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND expires_at > $3`,
    [accountId, key, now],
  );
  return rows[0] && toRecord(rows[0]);
}

/**
 * Keeps the answer of a generation. Returns false when another request kept one first (its
 * answer is the one to give) or the generation is gone (expired and taken over, or released).
 */
export async function completeIdempotencyKey(db: Queryable, input: KeyGeneration & { response: unknown }): Promise<boolean> {
  const { rowCount } = await db.query(
    `UPDATE idempotency_keys SET state = 'done', response = $5
     WHERE account_id = $1 AND key = $2 AND request_hash = $3 AND created_at = $4 AND state = 'pending'`,
    [input.accountId, input.key, input.requestHash, input.createdAt, JSON.stringify(input.response ?? null)],
  );
  return rowCount === 1;
}

/**
 * Forgets a generation whose request was refused before anything was created, so that the
 * client may send a corrected request under the same key.
 */
export async function releaseIdempotencyKey(db: Queryable, input: KeyGeneration): Promise<boolean> {
  const { rowCount } = await db.query(
    `DELETE FROM idempotency_keys WHERE account_id = $1 AND key = $2 AND request_hash = $3 AND created_at = $4 AND state = 'pending'`,
    [input.accountId, input.key, input.requestHash, input.createdAt],
  );
  return rowCount === 1;
}

/** Retention: keys are only taken over on reuse, so never-reused expired keys need purging. */
export async function deleteExpiredIdempotencyKeys(db: Queryable, now = Date.now()): Promise<number> {
  const { rowCount } = await db.query('DELETE FROM idempotency_keys WHERE expires_at <= $1', [now]);
  return rowCount;
}
