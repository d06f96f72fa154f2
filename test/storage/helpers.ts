import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import type { Database } from '../../src/storage/database.js';
import { openDatabase } from '../../src/storage/open-database.js';

/**
 * Test back-ends. Every storage test runs against both: SQLite in a fresh temporary data dir,
 * and a fresh PostgreSQL database on TEST_DATABASE_URL, or, when that is unset, on the
 * throwaway cluster of scripts/test-postgres.sh (started on demand; never skipped).
 */

export const BACKENDS = ['sqlite', 'postgres'] as const;
export type Backend = (typeof BACKENDS)[number];

export const REPO_ROOT = path.resolve(import.meta.dirname, '../..');
/** Starting the cluster (or installing PostgreSQL) can take a while on a fresh machine. */
export const SETUP_TIMEOUT_MS = 180_000;

const run = promisify(execFile);

export interface TestEnv {
  backend: Backend;
  /** What loadConfig() would give for this back-end. */
  config: { dataDir: string; databaseUrl: string | undefined };
  /** The environment variables that select this back-end (for child processes). */
  env: Record<string, string>;
  cleanup(): Promise<void>;
}

let serverUrl: Promise<string> | undefined;

export function postgresServerUrl(): Promise<string> {
  serverUrl ??= process.env['TEST_DATABASE_URL']
    ? Promise.resolve(process.env['TEST_DATABASE_URL'])
    : run('bash', [path.join(REPO_ROOT, 'scripts/test-postgres.sh'), 'start'], { timeout: SETUP_TIMEOUT_MS }).then((r) => r.stdout.trim());
  return serverUrl;
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: await postgresServerUrl() });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** A fresh, empty database on the test server, dropped by cleanup. */
async function freshPostgresDatabase(): Promise<{ url: string; drop(): Promise<void> }> {
  const name = `einv_test_${randomBytes(6).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(await postgresServerUrl());
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}

/** A fresh data dir, plus a fresh PostgreSQL database for the postgres back-end. Nothing is opened. */
export async function createTestEnv(backend: Backend): Promise<TestEnv> {
  const dataDir = await mkdtemp(path.join(tmpdir(), 'einv-test-'));
  const removeDir = () => rm(dataDir, { recursive: true, force: true });
  if (backend === 'sqlite') {
    return { backend, config: { dataDir, databaseUrl: undefined }, env: { EINVOICE_DATA_DIR: dataDir }, cleanup: removeDir };
  }
  const database = await freshPostgresDatabase();
  return {
    backend,
    config: { dataDir, databaseUrl: database.url },
    env: { EINVOICE_DATA_DIR: dataDir, DATABASE_URL: database.url },
    cleanup: async () => {
      await database.drop();
      await removeDir();
    },
  };
}

/** A migrated database on a fresh test environment; cleanup closes it first. */
export async function openTestDatabase(backend: Backend): Promise<{ db: Database; env: TestEnv; cleanup(): Promise<void> }> {
  const env = await createTestEnv(backend);
  const db = await openDatabase(env.config);
  return {
    db,
    env,
    cleanup: async () => {
      await db.close();
      await env.cleanup();
    },
  };
}
