import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, openSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import type { Logger } from 'pino';
import { SEARCH_ATTRIBUTES } from './search-attributes.js';

export interface DevServerOptions {
  cliPath: string;
  dataDir: string;
  namespace: string;
  port: number;
  uiPort: number;
  log: Logger;
}

export interface DevServer {
  address: string;
  uiUrl: string;
  stop(): Promise<void>;
}

const TYPE_NAMES: Record<string, string> = {
  KEYWORD: 'Keyword',
  TEXT: 'Text',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/**
 * Starts the Temporal CLI dev server as our child process: SQLite state in the
 * data folder so workflows survive restarts, the Web UI on a fixed port, our
 * namespace and search attributes registered at launch (a namespace registered
 * later takes seconds to become usable).
 */
export async function startDevServer(opts: DevServerOptions): Promise<DevServer> {
  if (!existsSync(opts.cliPath)) {
    throw new Error(
      `Temporal CLI not found at ${opts.cliPath}: run scripts/setup.sh, or set TEMPORAL_CLI, or point TEMPORAL_ADDRESS at a cluster`,
    );
  }
  mkdirSync(opts.dataDir, { recursive: true });
  if (await portInUse(opts.port)) {
    throw new Error(`Port ${opts.port} is in use: another Temporal server? Set TEMPORAL_DEV_PORT, or TEMPORAL_ADDRESS to use it`);
  }
  const args = devServerArgs({
    dbFile: path.join(opts.dataDir, 'temporal.sqlite'),
    port: opts.port,
    uiPort: opts.uiPort,
    namespace: opts.namespace,
  });
  const logPath = path.join(opts.dataDir, 'temporal.log');
  const logFile = openSync(logPath, 'a');
  const child = spawn(opts.cliPath, args, { stdio: ['ignore', logFile, logFile], detached: false });
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const address = `127.0.0.1:${opts.port}`;
  const ready = await Promise.race([waitForPort(opts.port, 60_000).then(() => true), exited.then(() => false)]);
  if (!ready) throw new Error(`Temporal dev server exited at start; the end of ${logPath}:\n${logTail(logPath)}`);
  opts.log.info({ address, ui: `http://127.0.0.1:${opts.uiPort}` }, 'Temporal dev server started');
  return { address, uiUrl: `http://127.0.0.1:${opts.uiPort}`, stop: () => stopChild(child, exited) };
}

/**
 * Write-ahead log, synced at checkpoints rather than at every commit: each workflow step is a
 * commit, and a sync per commit cost more than the step. A killed process loses nothing; a
 * power cut may lose the last moments of workflow state, not the stored documents.
 */
const SQLITE_PRAGMAS = ['journal_mode=wal', 'synchronous=normal'];

/**
 * The dev server's command line: its state in `dbFile` (SQLite; a server started again on the
 * same file goes on where the last one stopped), our namespace and search attributes registered
 * at launch.
 */
export function devServerArgs(opts: { dbFile: string; port: number; uiPort: number; namespace: string }): string[] {
  return [
    'server',
    'start-dev',
    '--db-filename',
    opts.dbFile,
    '--ip',
    '127.0.0.1',
    '--port',
    String(opts.port),
    '--ui-port',
    String(opts.uiPort),
    '--namespace',
    opts.namespace,
    '--log-level',
    'warn',
    ...SQLITE_PRAGMAS.flatMap((p) => ['--sqlite-pragma', p]),
    '--ui-disable-news-fetch',
    ...SEARCH_ATTRIBUTES.flatMap((k) => ['--search-attribute', `${k.name}=${TYPE_NAMES[k.type] ?? 'Keyword'}`]),
  ];
}

/** The end of the server's log, so that the error says why (a port taken, a locked file) on its own. */
function logTail(file: string): string {
  try {
    return readFileSync(file, 'utf8').trimEnd().split('\n').slice(-5).join('\n');
  } catch {
    return '(no log)';
  }
}

async function stopChild(child: ChildProcess, exited: Promise<number | null>): Promise<void> {
  if (child.exitCode !== null) return;
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await exited;
  clearTimeout(timer);
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: '127.0.0.1' });
    socket.once('connect', () => {
      socket.destroy();
      resolve(true);
    });
    socket.once('error', () => resolve(false));
  });
}

export async function waitForPort(port: number, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (await portInUse(port)) return;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`Temporal dev server did not open port ${port} within ${timeoutMs} ms`);
}
