import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { verifyToken } from '../../src/auth/tokens.js';
import type { Database } from '../../src/storage/database.js';
import { openDatabase } from '../../src/storage/open-database.js';
import { MIGRATIONS } from '../../src/storage/migrations.js';
import { BACKENDS, SETUP_TIMEOUT_MS, createTestEnv, type TestEnv } from '../storage/helpers.js';
import { compileCli, type CliResult, type CompiledCli } from './run-cli.js';

let compiled: CompiledCli;
const cli = (env: Record<string, string>, ...args: string[]): Promise<CliResult> => compiled.run(env, ...args);

async function cliJson<T>(env: Record<string, string>, ...args: string[]): Promise<T> {
  const result = await cli(env, ...args, '--json');
  expect(result, result.stderr).toMatchObject({ code: 0 });
  return JSON.parse(result.stdout) as T;
}

beforeAll(async () => {
  compiled = await compileCli('accounts');
}, SETUP_TIMEOUT_MS);
afterAll(() => compiled?.remove());

describe('accounts CLI usage', () => {
  it('prints help with --help and exits 0', async () => {
    const result = await cli({}, '--help');
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('create-token --account ID');
  });

  it.each([
    [[], /Usage:/],
    [['frobnicate'], /Unknown command: frobnicate/],
    [['create-account'], /--name is required/],
    [['create-account', '--name', '  '], /--name is required/],
    [['create-account', '--name', 'x'.repeat(201)], /at most 200/],
    [['create-account', '--nmae', 'typo'], /Unknown option '--nmae'/],
    [['create-token'], /--account is required/],
    [['revoke-token', 'extra', 'positional'], /Unexpected argument/],
    [['review-api-refusals', '--account', 'acc_x'], /exactly one of --on and --off/],
  ])('exits 2 for bad usage %j', async (args, message) => {
    const result = await cli({ EINVOICE_DATA_DIR: '/nonexistent/never-created' }, ...args);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('exits 1 when the database cannot be reached', async () => {
    const result = await cli({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, 'list-accounts');
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^Error: .*ECONNREFUSED/);
  });

  it('exits 2 for an invalid configuration', async () => {
    const result = await cli({ DATABASE_URL: 'mysql://nope' }, 'list-accounts');
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/DATABASE_URL/);
  });
});

describe.each(BACKENDS)('accounts CLI on %s', (backend) => {
  let env: TestEnv;
  let db: Database;

  beforeAll(async () => {
    env = await createTestEnv(backend);
    db = await openDatabase(env.config);
  }, SETUP_TIMEOUT_MS);

  afterAll(async () => {
    await db?.close();
    await env?.cleanup();
  });

  it('migrates once when several CLI processes start on a fresh database at the same time', async () => {
    const fresh = await createTestEnv(backend);
    const results = await Promise.all(Array.from({ length: 8 }, (_, i) => cli(fresh.env, 'create-account', '--name', `Concurrent ${i}`)));
    for (const r of results) expect(r, r.stderr).toMatchObject({ code: 0, stdout: expect.stringMatching(/^acc_[0-9a-f]{32}\n$/) });
    const freshDb = await openDatabase(fresh.config);
    try {
      expect((await freshDb.query('SELECT version FROM schema_migrations')).rowCount).toBe(MIGRATIONS.length);
      expect((await freshDb.query('SELECT id FROM accounts')).rowCount).toBe(8);
    } finally {
      await freshDb.close();
      await fresh.cleanup();
    }
  });

  it('creates and lists accounts', async () => {
    const human = await cli(env.env, 'create-account', '--name', 'Muster GmbH');
    expect(human).toMatchObject({ code: 0, stderr: '' });
    const id = human.stdout.trim();

    const created = await cliJson<{ id: string; name: string; createdAt: string }>(env.env, 'create-account', '--name', 'JSON AG');
    expect(created).toEqual({ id: expect.stringMatching(/^acc_/), name: 'JSON AG', createdAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT/) });

    const listed = await cliJson<{ id: string; name: string }[]>(env.env, 'list-accounts');
    expect(listed).toEqual(
      expect.arrayContaining([expect.objectContaining({ id, name: 'Muster GmbH' }), expect.objectContaining(created)]),
    );

    const table = await cli(env.env, 'list-accounts');
    expect(table.stdout.split('\n')[0]).toMatch(/^ID\s+CREATED\s+NAME$/);
    expect(table.stdout).toContain(`${id}  `);
  });

  it('creates a token shown once, lists tokens without secrets, rotates and revokes', async () => {
    const accountId = (await cliJson<{ id: string }>(env.env, 'create-account', '--name', 'Tokens')).id;

    const human = await cli(env.env, 'create-token', '--account', accountId, '--label', 'ci');
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/^einv_[0-9a-f]{24}_[A-Za-z0-9_-]{43}\n$/);
    expect(human.stderr).toMatch(/not shown again/);
    const first = human.stdout.trim();
    const firstId = (await verifyToken(db, first))?.tokenId;
    expect(firstId).toBeDefined();

    const second = await cliJson<{ token: string; tokenId: string; accountId: string; label: string }>(
      env.env,
      'create-token',
      '--account',
      accountId,
    );
    expect(second).toMatchObject({ accountId, label: 'default', tokenId: expect.any(String) });
    expect(await verifyToken(db, second.token)).toEqual({ accountId, tokenId: second.tokenId });

    const listed = await cli(env.env, 'list-tokens', '--account', accountId, '--json');
    const tokens = JSON.parse(listed.stdout) as { tokenId: string; label: string; revokedAt: string | null }[];
    expect(tokens.map((t) => [t.tokenId, t.label, t.revokedAt])).toEqual([
      [firstId, 'ci', null],
      [second.tokenId, 'default', null],
    ]);
    for (const secret of [first, second.token].map((t) => t.split('_').slice(2).join('_'))) expect(listed.stdout).not.toContain(secret);
    expect((await cli(env.env, 'list-tokens', '--account', accountId)).stdout).toMatch(
      /^TOKEN ID\s+LABEL\s+CREATED\s+LAST USED\s+REVOKED\n/,
    );

    const rotated = await cliJson<{ token: string; tokenId: string; label: string }>(env.env, 'rotate-token', '--token', firstId!);
    expect(rotated.label).toBe('ci');
    expect(await verifyToken(db, first)).toBeUndefined();
    expect(await verifyToken(db, rotated.token)).toEqual({ accountId, tokenId: rotated.tokenId });

    const revoked = await cli(env.env, 'revoke-token', '--token', second.tokenId);
    expect(revoked).toMatchObject({ code: 0, stdout: `Token ${second.tokenId} revoked\n` });
    expect(await verifyToken(db, second.token)).toBeUndefined();
    const after = await cliJson<{ tokenId: string; revokedAt: string | null }[]>(env.env, 'list-tokens', '--account', accountId);
    expect(after.filter((t) => t.revokedAt === null).map((t) => t.tokenId)).toEqual([rotated.tokenId]);
  });

  it.each([
    [['create-token', '--account', 'acc_missing'], /No account acc_missing/],
    [['list-tokens', '--account', 'acc_missing'], /No account acc_missing/],
    [['rotate-token', '--token', 'f'.repeat(24)], /No token/],
    [['revoke-token', '--token', 'f'.repeat(24)], /No token/],
  ])('exits 1 when %j names something that does not exist', async (args, message) => {
    const result = await cli(env.env, ...args);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(message);
    expect(result.stdout).toBe('');
  });

  it('exits 1 when rotating a revoked token', async () => {
    const accountId = (await cliJson<{ id: string }>(env.env, 'create-account', '--name', 'Revoked')).id;
    const { tokenId } = await cliJson<{ tokenId: string }>(env.env, 'create-token', '--account', accountId);
    await cliJson(env.env, 'revoke-token', '--token', tokenId);
    const result = await cli(env.env, 'rotate-token', '--token', tokenId);
    expect(result).toMatchObject({ code: 1, stderr: expect.stringMatching(/is revoked/) });
  });
});
