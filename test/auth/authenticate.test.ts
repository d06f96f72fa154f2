import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AuthError, authenticate, type RequestHeaders } from '../../src/auth/authenticate.js';
import { issueToken, revokeToken } from '../../src/auth/tokens.js';
import { createAccount } from '../../src/storage/accounts.js';
import type { Database } from '../../src/storage/database.js';
import { BACKENDS, SETUP_TIMEOUT_MS, openTestDatabase } from '../storage/helpers.js';

async function failure(promise: Promise<unknown>): Promise<{ status: number; code: string }> {
  const error = await promise.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(error).toBeInstanceOf(AuthError);
  const { status, code } = error as AuthError;
  return { status, code };
}

describe.each(BACKENDS)('authenticate on %s', (backend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let accountId: string;
  let token: string;
  let tokenId: string;
  let revoked: string;

  beforeAll(async () => {
    ({ db, cleanup } = await openTestDatabase(backend));
    accountId = (await createAccount(db, 'Auth')).id;
    ({
      token,
      record: { id: tokenId },
    } = await issueToken(db, accountId, 'live'));
    const old = await issueToken(db, accountId, 'old');
    await revokeToken(db, old.record.id);
    revoked = old.token;
  }, SETUP_TIMEOUT_MS);

  afterAll(() => cleanup?.());

  const ok: [string, () => RequestHeaders][] = [
    ['Authorization: Bearer <token>', () => ({ authorization: `Bearer ${token}` })],
    ['lower-case scheme (RFC 9110: case-insensitive)', () => ({ authorization: `bearer ${token}` })],
    ['upper-case scheme', () => ({ authorization: `BEARER ${token}` })],
    ['surrounding and repeated spaces', () => ({ authorization: `  Bearer   ${token}  ` })],
    ['a stray authtoken header next to a valid Authorization', () => ({ authorization: `Bearer ${token}`, authtoken: 'whatever' })],
    ['a single-element header array', () => ({ authorization: [`Bearer ${token}`] })],
  ];

  it.each(ok)('accepts %s', async (_, headers) => {
    expect(await authenticate(headers(), db)).toEqual({ accountId, tokenId });
  });

  const rejected: [string, () => RequestHeaders, number, string][] = [
    ['the raw token without scheme', () => ({ authorization: token }), 403, 'AUTH_SCHEME_INVALID'],
    ['the token in an authtoken header', () => ({ authtoken: token }), 403, 'AUTH_SCHEME_INVALID'],
    ['Bearer token in an authtoken header', () => ({ authtoken: `Bearer ${token}` }), 403, 'AUTH_SCHEME_INVALID'],
    ['another scheme', () => ({ authorization: `Basic ${Buffer.from(`x:${token}`).toString('base64')}` }), 403, 'AUTH_SCHEME_INVALID'],
    ['a scheme glued to the token', () => ({ authorization: `Bearer${token}` }), 403, 'AUTH_SCHEME_INVALID'],
    ['no credentials', () => ({}), 401, 'AUTH_MISSING'],
    ['empty headers', () => ({ authorization: '  ', authtoken: '' }), 401, 'AUTH_MISSING'],
    ['Bearer without token', () => ({ authorization: 'Bearer' }), 401, 'AUTH_INVALID'],
    ['Bearer with only spaces', () => ({ authorization: 'Bearer   ' }), 401, 'AUTH_INVALID'],
    ['an unknown token', () => ({ authorization: `Bearer einv_${'0'.repeat(24)}_${'a'.repeat(43)}` }), 401, 'AUTH_INVALID'],
    ['a malformed token', () => ({ authorization: 'Bearer not-a-token' }), 401, 'AUTH_INVALID'],
    ['a token with extra words', () => ({ authorization: `Bearer ${token} extra` }), 401, 'AUTH_INVALID'],
    ['a revoked token', () => ({ authorization: `Bearer ${revoked}` }), 401, 'AUTH_INVALID'],
    ['a repeated Authorization header', () => ({ authorization: [`Bearer ${token}`, `Bearer ${token}`] }), 401, 'AUTH_INVALID'],
  ];

  it.each(rejected)('rejects %s', async (_, headers, status, code) => {
    expect(await failure(authenticate(headers(), db))).toEqual({ status, code });
  });

  it('answers fast (SHA-256, no slow hash)', async () => {
    const headers = { authorization: `Bearer ${token}` };
    await authenticate(headers, db);
    const started = performance.now();
    for (let i = 0; i < 50; i++) await authenticate(headers, db);
    expect((performance.now() - started) / 50).toBeLessThan(20);
  });
});
