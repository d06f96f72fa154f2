import type { Queryable } from './database.js';

/** A stored API token. The secret itself is never stored, only its SHA-256 (hex). */
export interface ApiTokenRecord {
  id: string;
  accountId: string;
  label: string;
  secretHash: string;
  /** Epoch milliseconds, like every timestamp below. */
  createdAt: number;
  lastUsedAt: number | null;
  revokedAt: number | null;
}

interface ApiTokenRow {
  id: string;
  account_id: string;
  label: string;
  secret_hash: string;
  created_at: number;
  last_used_at: number | null;
  revoked_at: number | null;
}

const COLUMNS = 'id, account_id, label, secret_hash, created_at, last_used_at, revoked_at';

const toRecord = (r: ApiTokenRow): ApiTokenRecord => ({
  id: r.id,
  accountId: r.account_id,
  label: r.label,
  secretHash: r.secret_hash,
  createdAt: r.created_at,
  lastUsedAt: r.last_used_at,
  revokedAt: r.revoked_at,
});

export async function insertApiToken(db: Queryable, token: Omit<ApiTokenRecord, 'lastUsedAt' | 'revokedAt'>): Promise<ApiTokenRecord> {
  await db.query('INSERT INTO api_tokens (id, account_id, label, secret_hash, created_at) VALUES ($1, $2, $3, $4, $5)', [
    token.id,
    token.accountId,
    token.label,
    token.secretHash,
    token.createdAt,
  ]);
  return { ...token, lastUsedAt: null, revokedAt: null };
}

export async function getApiToken(db: Queryable, id: string): Promise<ApiTokenRecord | undefined> {
  const { rows } = await db.query<ApiTokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE id = $1`, [id]);
  return rows[0] && toRecord(rows[0]);
}

/** Oldest first, revoked ones included (an operator wants to see them). */
export async function listApiTokens(db: Queryable, accountId: string): Promise<ApiTokenRecord[]> {
  const { rows } = await db.query<ApiTokenRow>(`SELECT ${COLUMNS} FROM api_tokens WHERE account_id = $1 ORDER BY created_at, id`, [
    accountId,
  ]);
  return rows.map(toRecord);
}

/** Returns false when the token does not exist or was already revoked (the first revocation time is kept). */
export async function revokeApiToken(db: Queryable, id: string, now = Date.now()): Promise<boolean> {
  const { rowCount } = await db.query('UPDATE api_tokens SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL', [now, id]);
  return rowCount > 0;
}

/** Conditional so that concurrent requests on one token do not all write. */
export async function touchApiToken(db: Queryable, id: string, now: number, notBefore: number): Promise<void> {
  await db.query('UPDATE api_tokens SET last_used_at = $1 WHERE id = $2 AND (last_used_at IS NULL OR last_used_at < $3)', [
    now,
    id,
    notBefore,
  ]);
}
