import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { getAccount } from '../storage/accounts.js';
import { getApiToken, insertApiToken, revokeApiToken, touchApiToken, type ApiTokenRecord } from '../storage/api-tokens.js';
import type { Database, Queryable } from '../storage/database.js';

/**
 * API tokens look like `einv_<tokenId>_<secret>`: the id locates the row, the secret (32 random
 * bytes, base64url) proves possession. Only SHA-256(secret) is stored.
 *
 * A plain SHA-256 (no bcrypt/scrypt) is the right tool here: slow hashes protect low-entropy
 * passwords against guessing, but a 256-bit random secret cannot be guessed, and a fast hash
 * keeps authentication cheap on every request.
 */

export interface TokenIdentity {
  accountId: string;
  tokenId: string;
}

export interface IssuedToken {
  /** The full token. Shown once; it cannot be recovered from the database. */
  token: string;
  record: ApiTokenRecord;
}

export class TokenError extends Error {
  constructor(
    readonly code: 'ACCOUNT_NOT_FOUND' | 'TOKEN_NOT_FOUND' | 'TOKEN_REVOKED',
    message: string,
  ) {
    super(message);
  }
}

const PREFIX = 'einv_';
const SECRET_BYTES = 32;
// Hex ids cannot contain '_', so the first '_' after the prefix ends the id (base64url secrets may contain '_').
const TOKEN_PATTERN = /^einv_([0-9a-f]{24})_([A-Za-z0-9_-]{43})$/;
/** last_used_at is informational: writing it on every request would make each read a write. */
export const LAST_USED_RESOLUTION_MS = 60_000;

export function hashSecret(secret: string): string {
  return createHash('sha256').update(secret).digest('hex');
}

/**
 * Constant-time: the presented secret is hashed to 32 bytes like the stored hash, so the lengths
 * match, timingSafeEqual applies, and timing reveals nothing about how much of it was right.
 */
export function secretMatches(secret: string, storedHash: string): boolean {
  const presented = createHash('sha256').update(secret).digest();
  const stored = Buffer.from(storedHash, 'hex');
  return stored.length === presented.length && timingSafeEqual(presented, stored);
}

export function parseToken(token: string): { tokenId: string; secret: string } | undefined {
  const match = TOKEN_PATTERN.exec(token);
  return match?.[1] && match[2] ? { tokenId: match[1], secret: match[2] } : undefined;
}

export async function issueToken(db: Queryable, accountId: string, label: string, now = Date.now()): Promise<IssuedToken> {
  if (!(await getAccount(db, accountId))) throw new TokenError('ACCOUNT_NOT_FOUND', `No account ${accountId}`);
  const tokenId = randomBytes(12).toString('hex');
  const secret = randomBytes(SECRET_BYTES).toString('base64url');
  const record = await insertApiToken(db, { id: tokenId, accountId, label, secretHash: hashSecret(secret), createdAt: now });
  return { token: `${PREFIX}${tokenId}_${secret}`, record };
}

/**
 * The identity behind a valid, unrevoked token; undefined for anything else. An unknown id
 * returns before any hash comparison: token ids are not secret (they are listed and logged).
 */
export async function verifyToken(db: Queryable, token: string, now = Date.now()): Promise<TokenIdentity | undefined> {
  const parsed = parseToken(token);
  if (!parsed) return undefined;
  const record = await getApiToken(db, parsed.tokenId);
  if (!record || !secretMatches(parsed.secret, record.secretHash) || record.revokedAt !== null) return undefined;
  if (record.lastUsedAt === null || record.lastUsedAt < now - LAST_USED_RESOLUTION_MS) {
    await touchApiToken(db, record.id, now, now - LAST_USED_RESOLUTION_MS);
  }
  return { accountId: record.accountId, tokenId: record.id };
}

/** Revoking an already revoked token is a no-op (the first revocation time is kept). */
export async function revokeToken(db: Queryable, tokenId: string, now = Date.now()): Promise<void> {
  if (!(await revokeApiToken(db, tokenId, now)) && !(await getApiToken(db, tokenId))) {
    throw new TokenError('TOKEN_NOT_FOUND', `No token ${tokenId}`);
  }
}

/** Revokes the token and issues a new one for the same account and label, atomically. */
export async function rotateToken(db: Database, tokenId: string, now = Date.now()): Promise<IssuedToken> {
  return db.transaction(async (tx) => {
    const old = await getApiToken(tx, tokenId);
    if (!old) throw new TokenError('TOKEN_NOT_FOUND', `No token ${tokenId}`);
    // The conditional UPDATE makes two concurrent rotations of one token produce one successor.
    if (!(await revokeApiToken(tx, tokenId, now))) throw new TokenError('TOKEN_REVOKED', `Token ${tokenId} is revoked`);
    return issueToken(tx, old.accountId, old.label, now);
  });
}
