import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccount } from '../../src/storage/accounts.js';
import type { Database } from '../../src/storage/database.js';
import {
  claimIdempotencyKey,
  completeIdempotencyKey,
  deleteExpiredIdempotencyKeys,
  lookupIdempotencyKey,
  releaseIdempotencyKey,
  type ClaimInput,
} from '../../src/storage/idempotency.js';
import { BACKENDS, SETUP_TIMEOUT_MS, openTestDatabase } from './helpers.js';

describe.each(BACKENDS)('idempotency keys on %s', (backend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  let accountId: string;
  let n = 0;
  const claim = (key: string, overrides: Partial<ClaimInput> = {}): ClaimInput => ({
    accountId,
    key,
    requestHash: 'h1',
    ttlMs: 60_000,
    ...overrides,
  });
  const freshKey = () => `key-${++n}`;

  beforeAll(async () => {
    ({ db, cleanup } = await openTestDatabase(backend));
    accountId = (await createAccount(db, 'Idem')).id;
  }, SETUP_TIMEOUT_MS);

  afterAll(() => cleanup?.());

  it('lets exactly one of 20 concurrent claims win', async () => {
    const key = freshKey();
    const results = await Promise.all(Array.from({ length: 20 }, () => claimIdempotencyKey(db, claim(key))));
    const outcomes = results.map((r) => r.outcome);
    expect(outcomes.filter((o) => o === 'claimed')).toHaveLength(1);
    expect(outcomes.filter((o) => o === 'pending')).toHaveLength(19);
    // All of them name the same generation, so they run (or join) the same workflow.
    expect(new Set(results.map((r) => r.record.createdAt)).size).toBe(1);
  });

  it('lets exactly one of 20 concurrent claims win over an expired key', async () => {
    const key = freshKey();
    await claimIdempotencyKey(db, claim(key, { ttlMs: 10 }), 1_000);
    const results = await Promise.all(Array.from({ length: 20 }, () => claimIdempotencyKey(db, claim(key, { requestHash: 'h2' }), 5_000)));
    expect(results.filter((r) => r.outcome === 'claimed')).toHaveLength(1);
    expect((await lookupIdempotencyKey(db, accountId, key, 5_000))?.requestHash).toBe('h2');
  });

  it('replays a completed request and detects key reuse for another request', async () => {
    const key = freshKey();
    expect((await claimIdempotencyKey(db, claim(key), 1_000)).outcome).toBe('claimed');
    const response = { status: 201, body: { id: 'doc-1', total: '119.00' } };
    // Another generation of the key (one that expired meanwhile) cannot complete it.
    expect(await completeIdempotencyKey(db, { accountId, key, requestHash: 'h1', createdAt: 999, response })).toBe(false);
    expect(await completeIdempotencyKey(db, { accountId, key, requestHash: 'h1', createdAt: 1_000, response })).toBe(true);

    const replay = await claimIdempotencyKey(db, claim(key), 2_000);
    expect(replay.outcome).toBe('completed');
    expect(replay.record).toMatchObject({ state: 'done', response, createdAt: 1_000, expiresAt: 61_000 });

    expect((await claimIdempotencyKey(db, claim(key, { requestHash: 'other' }), 2_000)).outcome).toBe('mismatch');
    // Completing twice does nothing.
    expect(await completeIdempotencyKey(db, { accountId, key, requestHash: 'h1', createdAt: 1_000, response: 'x' })).toBe(false);
  });

  it('keeps keys per account', async () => {
    const key = freshKey();
    const otherAccount = (await createAccount(db, 'Other')).id;
    expect((await claimIdempotencyKey(db, claim(key))).outcome).toBe('claimed');
    expect((await claimIdempotencyKey(db, claim(key, { accountId: otherAccount }))).outcome).toBe('claimed');
  });

  it('a pending key is no lock: the same request claims it again and gets the same generation', async () => {
    const key = freshKey();
    const first = await claimIdempotencyKey(db, claim(key), 5_000);
    const again = await claimIdempotencyKey(db, claim(key), 9_000);
    expect(again).toMatchObject({ outcome: 'pending', record: { createdAt: first.record.createdAt } });
  });

  it('releases a pending claim so the client can retry', async () => {
    const key = freshKey();
    const { record } = await claimIdempotencyKey(db, claim(key));
    expect(await releaseIdempotencyKey(db, { accountId, key, requestHash: 'other', createdAt: record.createdAt })).toBe(false);
    expect(await releaseIdempotencyKey(db, { accountId, key, requestHash: 'h1', createdAt: record.createdAt - 1 })).toBe(false);
    expect(await releaseIdempotencyKey(db, { accountId, key, requestHash: 'h1', createdAt: record.createdAt })).toBe(true);
    expect(await lookupIdempotencyKey(db, accountId, key)).toBeUndefined();
    expect((await claimIdempotencyKey(db, claim(key))).outcome).toBe('claimed');
  });

  it('does not release a completed key', async () => {
    const key = freshKey();
    const { record } = await claimIdempotencyKey(db, claim(key));
    await completeIdempotencyKey(db, { accountId, key, requestHash: 'h1', createdAt: record.createdAt, response: null });
    expect(await releaseIdempotencyKey(db, { accountId, key, requestHash: 'h1', createdAt: record.createdAt })).toBe(false);
    expect((await lookupIdempotencyKey(db, accountId, key))?.state).toBe('done');
  });

  it('treats expired keys as absent and lets housekeeping delete them', async () => {
    const key = freshKey();
    await claimIdempotencyKey(db, claim(key, { ttlMs: 100 }), 10_000);
    expect(await lookupIdempotencyKey(db, accountId, key, 10_099)).toBeDefined();
    expect(await lookupIdempotencyKey(db, accountId, key, 10_100)).toBeUndefined();
    // A claim after expiry starts afresh, even for a different request.
    expect((await claimIdempotencyKey(db, claim(key, { requestHash: 'new', ttlMs: 100 }), 10_100)).outcome).toBe('claimed');

    const deleted = await deleteExpiredIdempotencyKeys(db, 10_200);
    expect(deleted).toBeGreaterThanOrEqual(1);
    expect(await lookupIdempotencyKey(db, accountId, key, 0)).toBeUndefined();
  });
});
