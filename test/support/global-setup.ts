import { spawn, execFile, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { TestProject } from 'vitest/node';
import { freePort } from './ports.js';

/**
 * Starts the real, built service as child processes, exactly as an operator runs
 * it: one with the embedded defaults (SQLite, its own Temporal dev server) and
 * one on PostgreSQL that connects to that same Temporal server via
 * TEMPORAL_ADDRESS (its own task queue), so both configurations are exercised.
 */

export interface ServiceHandle {
  name: 'sqlite' | 'postgres';
  url: string;
  v2Url: string;
  token: string;
  accountId: string;
  dataDir: string;
  temporalAddress: string;
  temporalUiUrl: string;
  namespace: string;
  taskQueue: string;
  env: Record<string, string>;
}

declare module 'vitest' {
  export interface ProvidedContext {
    services: ServiceHandle[];
  }
}

const root = path.resolve(import.meta.dirname, '../..');
const node = process.execPath;
const run = promisify(execFile);

export default async function setup(project: TestProject) {
  if (!existsSync(path.join(root, 'dist/src/main.js')) || !existsSync(path.join(root, 'dist/workflow-bundle.js'))) {
    throw new Error('The service is not built: run `npm run build` (scripts/test.sh does it).');
  }
  const databaseUrl = process.env.TEST_DATABASE_URL;
  if (!databaseUrl) throw new Error('TEST_DATABASE_URL is not set: run the tests with scripts/test.sh, which starts a private PostgreSQL.');

  const children: ChildProcess[] = [];
  const dirs: string[] = [];
  const temporalPort = await freePort();
  const uiPort = await freePort();
  const namespace = 'einvoice-test';

  const start = async (name: ServiceHandle['name'], extra: Record<string, string>): Promise<ServiceHandle> => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), `einvoice-${name}-`));
    dirs.push(dataDir);
    const port = await freePort();
    const v2Port = await freePort();
    const env: Record<string, string> = {
      PATH: process.env.PATH ?? '',
      EINVOICE_DATA_DIR: dataDir,
      PORT: String(port),
      V2_PORT: String(v2Port),
      TEMPORAL_NAMESPACE: namespace,
      TEMPORAL_TASK_QUEUE: `einvoice-${name}`,
      TEMPORAL_CLI: path.join(root, '.tools/temporal/bin/temporal'),
      LOG_LEVEL: 'info',
      ...extra,
    };
    const log = openSync(path.join(dataDir, 'service.log'), 'a');
    const child = spawn(node, [path.join(root, 'dist/src/main.js')], { cwd: root, env, stdio: ['ignore', log, log] });
    children.push(child);
    const url = `http://127.0.0.1:${port}`;
    await waitForHealth(url, child, path.join(dataDir, 'service.log'));
    const cli = (...args: string[]) => run(node, [path.join(root, 'dist/src/cli/accounts.js'), ...args, '--json'], { cwd: root, env });
    const account = JSON.parse((await cli('create-account', '--name', `test ${name}`)).stdout) as { id: string };
    const token = JSON.parse((await cli('create-token', '--account', account.id, '--label', 'tests')).stdout) as { token: string };
    return {
      name,
      url,
      v2Url: `http://127.0.0.1:${v2Port}`,
      token: token.token,
      accountId: account.id,
      dataDir,
      temporalAddress: `127.0.0.1:${temporalPort}`,
      temporalUiUrl: `http://127.0.0.1:${uiPort}`,
      namespace,
      taskQueue: env.TEMPORAL_TASK_QUEUE!,
      env,
    };
  };

  try {
    const sqlite = await start('sqlite', { TEMPORAL_DEV_PORT: String(temporalPort), TEMPORAL_UI_PORT: String(uiPort) });
    const postgres = await start('postgres', { DATABASE_URL: databaseUrl, TEMPORAL_ADDRESS: sqlite.temporalAddress });
    project.provide('services', [sqlite, postgres]);
  } catch (err) {
    await stopAll(children);
    throw err;
  }

  return async () => {
    await stopAll(children);
    if (!process.env.KEEP_TEST_DATA) for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  };
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`The service exited with ${child.exitCode} at start; see ${logFile}`);
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The service did not answer /health within 90 s; see ${logFile}`);
}

/** Reverse order: the service that borrows the Temporal server stops before the one that owns it. */
async function stopAll(children: ChildProcess[]): Promise<void> {
  for (const child of [...children].reverse()) {
    if (child.exitCode !== null) continue;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
    await exited;
    clearTimeout(timer);
  }
}
