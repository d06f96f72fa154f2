import { createHash } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  LAST_USED_RESOLUTION_MS,
  TokenError,
  hashSecret,
  issueToken,
  parseToken,
  revokeToken,
  rotateToken,
  secretMatches,
  verifyToken,
} from '../../src/auth/tokens.js';
import { createAccount } from '../../src/storage/accounts.js';
import { getApiToken, listApiTokens } from '../../src/storage/api-tokens.js';
import type { Database } from '../../src/storage/database.js';
import { BACKENDS, SETUP_TIMEOUT_MS, openTestDatabase } from '../storage/helpers.js';

describe('token format and hashing', () => {
  it('parses einv_<id>_<secret>, where the secret may itself contain underscores', () => {
    const secret = `${'A'.repeat(20)}_-${'b'.repeat(21)}`;
    expect(parseToken(`einv_${'0'.repeat(24)}_${secret}`)).toEqual({ tokenId: '0'.repeat(24), secret });
  });

  it.each([
    '',
    'einv_',
    'einv_abc_def',
    `einv_${'0'.repeat(24)}_${'a'.repeat(42)}`,
    `EINV_${'0'.repeat(24)}_${'a'.repeat(43)}`,
    `einv_${'0'.repeat(24)}_${'a'.repeat(42)}=`,
    `einv_${'g'.repeat(24)}_${'a'.repeat(43)}`,
  ])('rejects the malformed token %j', (token) => {
    expect(parseToken(token)).toBeUndefined();
  });

  it('stores SHA-256 of the secret, hex', () => {
    expect(hashSecret('s3cret')).toBe(createHash('sha256').update('s3cret').digest('hex'));
  });

  it('compares in constant time through equal-length digests, whatever the input length', () => {
    const stored = hashSecret('right');
    expect(secretMatches('right', stored)).toBe(true);
    expect(secretMatches('wrong', stored)).toBe(false);
    // timingSafeEqual throws on unequal lengths; hashing first means it is never reached with them.
    expect(secretMatches('', stored)).toBe(false);
    expect(secretMatches('x'.repeat(10_000), stored)).toBe(false);
    // A corrupt stored hash is a mismatch, not a crash.
    expect(secretMatches('right', 'abcd')).toBe(false);
  });
});

describe.each(BACKENDS)('tokens on %s', (backend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let accountId: string;

  beforeAll(async () => {
    ({ db, cleanup } = await openTestDatabase(backend));
    accountId = (await createAccount(db, 'Token Test')).id;
  }, SETUP_TIMEOUT_MS);

  afterAll(() => cleanup?.());

  it('issues a token shown once, storing only the hash of its secret', async () => {
    const { token, record } = await issueToken(db, accountId, 'ci', 1_000);
    expect(token).toMatch(/^einv_[0-9a-f]{24}_[A-Za-z0-9_-]{43}$/);
    const { tokenId, secret } = parseToken(token)!;
    expect(Buffer.from(secret, 'base64url')).toHaveLength(32);
    expect(record).toEqual({
      id: tokenId,
      accountId,
      label: 'ci',
      secretHash: hashSecret(secret),
      createdAt: 1_000,
      lastUsedAt: null,
      revokedAt: null,
    });
    const stored = await db.query<Record<string, unknown>>('SELECT * FROM api_tokens WHERE id = $1', [tokenId]);
    expect(JSON.stringify(stored.rows)).not.toContain(secret);
  });

  it('verifies a valid token', async () => {
    const { token, record } = await issueToken(db, accountId, 'ci');
    expect(await verifyToken(db, token)).toEqual({ accountId, tokenId: record.id });
  });

  it('refuses unknown, tampered and malformed tokens', async () => {
    const { token } = await issueToken(db, accountId, 'ci');
    const { tokenId, secret } = parseToken(token)!;
    const flipped = secret.slice(0, -1) + (secret.endsWith('A') ? 'B' : 'A');
    expect(await verifyToken(db, `einv_${tokenId}_${flipped}`)).toBeUndefined();
    expect(await verifyToken(db, `einv_${'f'.repeat(24)}_${secret}`)).toBeUndefined();
    expect(await verifyToken(db, token.slice(0, -1))).toBeUndefined();
    expect(await verifyToken(db, `${token} `)).toBeUndefined();
    expect(await verifyToken(db, '')).toBeUndefined();
  });

  it('refuses a token for a missing account', async () => {
    await expect(issueToken(db, 'acc_missing', 'x')).rejects.toMatchObject({ code: 'ACCOUNT_NOT_FOUND' });
  });

  it('records the last use at most once per resolution period', async () => {
    const { token, record } = await issueToken(db, accountId, 'usage', 0);
    await verifyToken(db, token, 100_000);
    expect((await getApiToken(db, record.id))?.lastUsedAt).toBe(100_000);
    await verifyToken(db, token, 100_000 + LAST_USED_RESOLUTION_MS - 1);
    expect((await getApiToken(db, record.id))?.lastUsedAt).toBe(100_000);
    await verifyToken(db, token, 100_000 + LAST_USED_RESOLUTION_MS + 1);
    expect((await getApiToken(db, record.id))?.lastUsedAt).toBe(100_000 + LAST_USED_RESOLUTION_MS + 1);
  });

  it('revokes: the token stops working, revoking again is harmless, unknown ids are an error', async () => {
    const { token, record } = await issueToken(db, accountId, 'revoke-me');
    await revokeToken(db, record.id, 5_000);
    expect(await verifyToken(db, token)).toBeUndefined();
    await revokeToken(db, record.id, 9_000);
    expect((await getApiToken(db, record.id))?.revokedAt).toBe(5_000);
    await expect(revokeToken(db, 'f'.repeat(24))).rejects.toMatchObject({ code: 'TOKEN_NOT_FOUND' });
  });

  it('rotates: the old token is revoked, the new one works for the same account and label', async () => {
    const old = await issueToken(db, accountId, 'rotating');
    const fresh = await rotateToken(db, old.record.id);
    expect(fresh.record).toMatchObject({ accountId, label: 'rotating', revokedAt: null });
    expect(fresh.record.id).not.toBe(old.record.id);
    expect(await verifyToken(db, old.token)).toBeUndefined();
    expect(await verifyToken(db, fresh.token)).toEqual({ accountId, tokenId: fresh.record.id });
  });

  it('refuses to rotate a revoked or unknown token', async () => {
    const { record } = await issueToken(db, accountId, 'gone');
    await revokeToken(db, record.id);
    await expect(rotateToken(db, record.id)).rejects.toMatchObject({ code: 'TOKEN_REVOKED' });
    await expect(rotateToken(db, 'f'.repeat(24))).rejects.toBeInstanceOf(TokenError);
  });

  it('gives concurrent rotations of one token a single successor', async () => {
    const account = (await createAccount(db, 'Rotations')).id;
    const { record } = await issueToken(db, account, 'race');
    const results = await Promise.allSettled(Array.from({ length: 5 }, () => rotateToken(db, record.id)));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results) if (r.status === 'rejected') expect(r.reason).toMatchObject({ code: 'TOKEN_REVOKED' });
    const live = (await listApiTokens(db, account)).filter((t) => t.revokedAt === null);
    expect(live).toHaveLength(1);
  });
});
