import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, openSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Connection } from '@temporalio/client';
import { devServerArgs, waitForPort } from '../../src/temporal/dev-server.js';
import { startRoleProcess, type RoleProcess } from './role-process.js';
import { freePort, repoRoot, spawnService, type SpawnedService } from './spawn-service.js';

/**
 * The service as an operator runs it at scale, each part a process of its own: the Temporal dev
 * server (its state in a SQLite file), the API (EINVOICE_ROLE=api) and the worker. Each part can
 * be killed (SIGKILL, as a crash) and started again on the same data, which is what the
 * fault-injection tests and scripts/fault-injection.ts do.
 */

export interface Part {
  readonly name: 'temporal' | 'api' | 'worker';
  running(): boolean;
  /** The process id while it runs. */
  pid(): number | undefined;
  /** SIGKILL; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM, as an operator stops it; resolves once the process is gone. */
  stop(): Promise<void>;
  /** Starts it again on the same data; resolves once it serves. */
  start(): Promise<void>;
}

export interface SplitService {
  /** The API: url, token, account, data folder (shared with the worker). */
  api: SpawnedService;
  parts: { temporal: Part; api: Part; worker: Part };
  /** The Temporal dev server's state. */
  temporalDbFile: string;
  stop(): Promise<void>;
}

export interface SplitOptions {
  name: string;
  /** For API and worker, e.g. DATABASE_URL, SOURCE_DATE_EPOCH, WORKFLOW_WAIT_SECONDS. */
  env?: Record<string, string>;
  /** For the worker only (e.g. SMTP_URL pointing at a test server). */
  workerEnv?: Record<string, string>;
}

const NAMESPACE = 'einvoice';

export async function startSplitService(opts: SplitOptions): Promise<SplitService> {
  const temporalDir = mkdtempSync(path.join(os.tmpdir(), `einvoice-${opts.name}-temporal-`));
  const temporal = await temporalPart(temporalDir);
  let api: SpawnedService | undefined;
  let worker: Part | undefined;
  try {
    api = await spawnService({
      name: opts.name,
      namespace: NAMESPACE,
      env: { ...opts.env, EINVOICE_ROLE: 'api', TEMPORAL_ADDRESS: temporal.address },
    });
    worker = await workerPart(api, opts.workerEnv ?? {});
  } catch (err) {
    await api?.stop();
    await temporal.kill();
    throw err;
  }
  const service = api;
  let apiRunning = true;
  // Once stopping, nothing starts again (a fault injector may be restarting a part just then).
  let stopping = false;
  const guard = (part: Part): Part => ({
    ...part,
    start: () => (stopping ? Promise.reject(new Error(`${part.name}: the service is stopping`)) : part.start()),
  });
  const apiPart: Part = {
    name: 'api',
    running: () => apiRunning,
    pid: () => (apiRunning ? service.pid() : undefined),
    kill: async () => {
      apiRunning = false;
      await service.kill();
    },
    stop: async () => {
      apiRunning = false;
      await service.terminate();
    },
    start: async () => {
      await service.start();
      apiRunning = true;
    },
  };
  return {
    api: service,
    parts: { temporal: guard(temporal), api: guard(apiPart), worker: guard(worker) },
    temporalDbFile: path.join(temporalDir, 'temporal.sqlite'),
    async stop() {
      stopping = true;
      await worker.kill();
      await service.stop();
      await temporal.kill();
      if (!process.env.KEEP_TEST_DATA) rmSync(temporalDir, { recursive: true, force: true });
    },
  };
}

async function temporalPart(dir: string): Promise<Part & { address: string }> {
  const port = await freePort();
  const uiPort = await freePort();
  const cli = path.join(repoRoot, '.tools/temporal/bin/temporal');
  const args = devServerArgs({ dbFile: path.join(dir, 'temporal.sqlite'), port, uiPort, namespace: NAMESPACE });
  const log = path.join(dir, 'temporal.log');
  let child: ChildProcess | undefined;
  const part = {
    name: 'temporal' as const,
    address: `127.0.0.1:${port}`,
    running: () => alive(child),
    pid: () => child?.pid,
    kill: () => killChild(child),
    stop: () => killChild(child, 'SIGTERM'),
    async start() {
      child = spawn(cli, args, { stdio: ['ignore', openSync(log, 'a'), openSync(log, 'a')] });
      await waitForPort(port, 60_000);
      await waitForNamespace(`127.0.0.1:${port}`, 60_000);
    },
  };
  await part.start();
  return part;
}

async function workerPart(api: SpawnedService, env: Record<string, string>): Promise<Part> {
  let n = 0;
  let current: RoleProcess | undefined;
  const part: Part = {
    name: 'worker',
    running: () => alive(current?.child),
    pid: () => current?.child.pid,
    kill: async () => current?.kill(),
    stop: async () => current?.stop(),
    async start() {
      // A log file per start: the start is seen in the file's own lines.
      current = await startRoleProcess(api, 'worker', `worker-${++n}`, env);
    },
  };
  await part.start();
  return part;
}

/** An open port is not yet a server that answers: the API exits at start when it cannot connect. */
async function waitForNamespace(address: string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      const connection = await Connection.connect({ address, connectTimeout: 2_000 });
      try {
        await connection.workflowService.describeNamespace({ namespace: NAMESPACE });
        return;
      } finally {
        await connection.close();
      }
    } catch (err) {
      if (Date.now() > deadline)
        throw new Error(`Temporal at ${address} did not serve namespace ${NAMESPACE} within ${timeoutMs} ms: ${(err as Error).message}`);
      await new Promise((r) => setTimeout(r, 250));
    }
  }
}

const alive = (child: ChildProcess | undefined) => child !== undefined && child.exitCode === null && child.signalCode === null;

async function killChild(child: ChildProcess | undefined, signal: NodeJS.Signals = 'SIGKILL'): Promise<void> {
  if (!child || !alive(child)) return;
  const exited = new Promise((r) => child.once('exit', r));
  child.kill(signal);
  await exited;
}
