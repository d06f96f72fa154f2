import { execFile, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, openSync, readFileSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

/**
 * Runs the built service as a child process, exactly as an operator starts it,
 * with an account and a token made by the accounts CLI. Shared by the
 * integration tests and the benchmarks.
 */

export interface SpawnedService {
  name: string;
  url: string;
  v2Url: string;
  token: string;
  accountId: string;
  dataDir: string;
  temporalAddress: string;
  namespace: string;
  taskQueue: string;
  env: Record<string, string>;
  /** The service's log file (every start appends to it). */
  logFile: string;
  /** SIGTERM, wait for exit; resolves with the exit code (null when killed by a signal). Removes the data folder. */
  stop(): Promise<number | null>;
  /** SIGKILL, as a crash; the data folder stays, for `start`. */
  kill(): Promise<void>;
  /** SIGTERM, as an operator stops it; the data folder stays, for `start`. */
  terminate(): Promise<void>;
  /** Starts the process again (same environment, ports and data) after `kill`; resolves once /health answers. */
  start(): Promise<void>;
  pid(): number | undefined;
}

export interface SpawnOptions {
  name: string;
  /** Extra environment, e.g. DATABASE_URL or TEMPORAL_ADDRESS. */
  env?: Record<string, string>;
  temporalPort?: number;
  uiPort?: number;
  namespace?: string;
}

export const repoRoot = findRoot(path.dirname(fileURLToPath(import.meta.url)));

/**
 * The service as scripts/start.sh, the Dockerfile and the systemd unit run it, young generation
 * bound included (README, "Memory"), so that the tests measure the memory users get.
 */
export const serviceCommand = (): [string, string[]] => [
  process.execPath,
  ['--max-semi-space-size=4', path.join(repoRoot, 'dist/src/main.js')],
];

const run = promisify(execFile);

function findRoot(dir: string): string {
  while (!existsSync(path.join(dir, 'package.json'))) {
    const up = path.dirname(dir);
    if (up === dir) throw new Error('package.json not found above ' + dir);
    dir = up;
  }
  return dir;
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/**
 * Starts the built service. A free port can be taken by another process between the look and the
 * service's listen (tests start services and dev servers in parallel): such a start is tried
 * again on other ports.
 */
export async function spawnService(opts: SpawnOptions): Promise<SpawnedService> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await spawnOnce(opts);
    } catch (err) {
      if (attempt >= 3 || !/EADDRINUSE|address already in use|Port \d+ is in use/.test(String((err as Error).message))) throw err;
    }
  }
}

async function spawnOnce(opts: SpawnOptions): Promise<SpawnedService> {
  for (const built of ['dist/src/main.js', 'dist/workflow-bundle.js']) {
    if (!existsSync(path.join(repoRoot, built))) throw new Error(`${built} is missing: run \`npm run build\` (scripts/setup.sh does it).`);
  }
  const dataDir = mkdtempSync(path.join(os.tmpdir(), `einvoice-${opts.name}-`));
  const port = await freePort();
  const v2Port = await freePort();
  const temporalPort = opts.temporalPort ?? (await freePort());
  const namespace = opts.namespace ?? 'einvoice';
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? '',
    EINVOICE_DATA_DIR: dataDir,
    PORT: String(port),
    V2_PORT: String(v2Port),
    TEMPORAL_NAMESPACE: namespace,
    TEMPORAL_TASK_QUEUE: `einvoice-${opts.name}`,
    TEMPORAL_CLI: path.join(repoRoot, '.tools/temporal/bin/temporal'),
    TEMPORAL_DEV_PORT: String(temporalPort),
    TEMPORAL_UI_PORT: String(opts.uiPort ?? (await freePort())),
    LOG_LEVEL: 'info',
    // e.g. SERVICE_NODE_OPTIONS='--cpu-prof --cpu-prof-dir=/tmp/prof' to profile the service process
    ...(process.env.SERVICE_NODE_OPTIONS ? { NODE_OPTIONS: process.env.SERVICE_NODE_OPTIONS } : {}),
    ...opts.env,
  };
  const logFile = path.join(dataDir, 'service.log');
  const url = `http://127.0.0.1:${port}`;
  const launch = () =>
    spawn(...serviceCommand(), {
      cwd: repoRoot,
      env,
      stdio: ['ignore', openSync(logFile, 'a'), openSync(logFile, 'a')],
    });
  let child = launch();
  const stop = async () => {
    const code = await stopChild(child);
    if (!process.env.KEEP_TEST_DATA) rmSync(dataDir, { recursive: true, force: true });
    return code;
  };
  const kill = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((r) => child.once('exit', r));
    child.kill('SIGKILL');
    await exited;
  };
  const terminate = async () => {
    await stopChild(child);
  };
  const start = async () => {
    if (child.exitCode === null && child.signalCode === null) throw new Error(`${opts.name} is still running`);
    child = launch();
    await waitForHealth(url, child, logFile);
  };
  try {
    await waitForHealth(url, child, logFile);
    const cli = async (...args: string[]) =>
      JSON.parse(
        (await run(process.execPath, [path.join(repoRoot, 'dist/src/cli/accounts.js'), ...args, '--json'], { cwd: repoRoot, env })).stdout,
      );
    const account = (await cli('create-account', '--name', `${opts.name} account`)) as { id: string };
    const token = (await cli('create-token', '--account', account.id, '--label', opts.name)) as { token: string };
    return {
      name: opts.name,
      url,
      v2Url: `http://127.0.0.1:${v2Port}`,
      token: token.token,
      accountId: account.id,
      dataDir,
      temporalAddress: env.TEMPORAL_ADDRESS ?? `127.0.0.1:${temporalPort}`,
      namespace,
      taskQueue: env.TEMPORAL_TASK_QUEUE!,
      env,
      logFile,
      stop,
      kill,
      terminate,
      start,
      pid: () => child.pid,
    };
  } catch (err) {
    await stop();
    throw err;
  }
}

async function waitForHealth(url: string, child: ChildProcess, logFile: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      // The embedded Temporal dev server logs beside the service: its bind errors are port races too.
      const temporalLog = path.join(path.dirname(logFile), 'temporal.log');
      const temporal = existsSync(temporalLog) ? `\nthe end of ${temporalLog}:\n${logTail(temporalLog, 5)}` : '';
      throw new Error(`The service exited with ${child.exitCode} at start; the end of ${logFile}:\n${logTail(logFile)}${temporal}`);
    }
    try {
      if ((await fetch(`${url}/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  throw new Error(`The service did not answer /health within 90 s; see ${logFile}`);
}

/** The last lines of a log, so that a failure in CI says why without the (removed) data folder. */
function logTail(file: string, lines = 20): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-lines).join('\n');
  } catch {
    return '(no log)';
  }
}

async function stopChild(child: ChildProcess): Promise<number | null> {
  if (child.exitCode !== null) return child.exitCode;
  const exited = new Promise<number | null>((r) => child.once('exit', (code) => r(code)));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 30_000);
  const code = await exited;
  clearTimeout(timer);
  return code;
}
