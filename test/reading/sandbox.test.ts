import { execFile } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { UnreadableFileError } from '../../src/reading/decode-image.js';
import { SandboxLauncher } from '../../src/reading/sandbox-launcher.js';
import { DEFAULT_SANDBOX_LIMITS, SandboxedDocument, type SandboxLimits } from '../../src/reading/sandbox.js';
import { waitFor } from '../support/wait-for.js';
import { fixtureInvoice, invoicePdf } from './fixtures.js';

/**
 * The sandbox children as the service forks them (the compiled child, `npm run build` first):
 * one forked ahead of each document, a fresh one for every document, under the same limits.
 */

const run = promisify(execFile);

let pdf: Uint8Array;
let launcher: SandboxLauncher;

beforeAll(async () => {
  pdf = await invoicePdf(fixtureInvoice());
  launcher = new SandboxLauncher();
});
afterAll(() => launcher.close());

const open = (limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS) => SandboxedDocument.open(pdf, 'pdf', limits, launcher);

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** The child ahead, once it has loaded the reader. */
async function readyAhead(): Promise<number> {
  launcher.warmUp(DEFAULT_SANDBOX_LIMITS.heapMb);
  const ahead = launcher.ahead!;
  await ahead.ready;
  return ahead.pid!;
}

describe('the sandbox child forked ahead', () => {
  it('is handed out ready for the next document, and the one after it is forked at once', async () => {
    const pid = await readyAhead();
    const doc = await open();
    try {
      expect(doc.pid).toBe(pid);
      expect(doc.outline.textPages).toHaveLength(1);
      expect(launcher.ahead?.pid).toBeDefined();
      expect(launcher.ahead?.pid).not.toBe(pid);
    } finally {
      doc.close();
    }
  });

  it('reads one document only: every document gets a fresh child, ended after it', async () => {
    const pids: number[] = [];
    for (let i = 0; i < 3; i++) {
      const doc = await open();
      pids.push(doc.pid!);
      doc.close();
      await waitFor(`child ${doc.pid} to end`, async () => !alive(doc.pid!), 10_000, 50);
    }
    expect(new Set(pids).size).toBe(3);
  });

  it('is replaced when it dies while waiting, and never handed out dead', async () => {
    const dead = await readyAhead();
    process.kill(dead, 'SIGKILL');
    await waitFor('a new child ahead', async () => launcher.ahead !== undefined && launcher.ahead.pid !== dead, 10_000, 50);
    const replacement = await readyAhead();
    const doc = await open();
    try {
      expect(doc.pid).toBe(replacement);
      expect(doc.outline.textPages).toHaveLength(1);
    } finally {
      doc.close();
    }
  });

  it('runs under the limits: its heap cap, an empty environment, the open deadline', async () => {
    const pid = await readyAhead();
    const cmdline = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    expect(cmdline).toContain(`--max-old-space-size=${DEFAULT_SANDBOX_LIMITS.heapMb}`);
    // Only what Node itself sets for the IPC channel.
    const environment = readFileSync(`/proc/${pid}/environ`, 'utf8').split('\0').filter(Boolean);
    expect(environment.map((v) => v.split('=')[0]).sort()).toEqual(['NODE_CHANNEL_FD', 'NODE_CHANNEL_SERIALIZATION_MODE']);

    const err = await open({ ...DEFAULT_SANDBOX_LIMITS, openTimeoutMs: 1 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreadableFileError);
    expect((err as Error).message).toMatch(/took longer than/);
    await waitFor('the timed-out child to be killed', async () => !alive(pid), 10_000, 50);
  });

  it('gives a document with another heap limit a child with that limit', async () => {
    const doc = await open({ ...DEFAULT_SANDBOX_LIMITS, heapMb: 256 });
    try {
      expect(readFileSync(`/proc/${doc.pid}/cmdline`, 'utf8').split('\0')).toContain('--max-old-space-size=256');
    } finally {
      doc.close();
    }
  });

  it('is ended by close, and keeps no process alive while it waits', async () => {
    const closing = new SandboxLauncher();
    closing.warmUp(DEFAULT_SANDBOX_LIMITS.heapMb);
    await closing.ahead!.ready;
    const pid = closing.ahead!.pid!;
    closing.close();
    expect(closing.ahead).toBeUndefined();
    await waitFor('the child ahead to end', async () => !alive(pid), 10_000, 50);

    // A process that only warmed up ends by itself (within the timeout), and its child with it.
    const script = `
      import { SandboxLauncher } from ${JSON.stringify(path.join(repoRoot, 'dist/src/reading/sandbox-launcher.js'))};
      const launcher = new SandboxLauncher();
      launcher.warmUp(128);
      const waiting = setInterval(() => {}, 1000); // the child ahead does not keep this process alive, this does
      await launcher.ahead.ready;
      clearInterval(waiting);
      console.log(launcher.ahead.pid);`;
    const { stdout } = await run(process.execPath, ['--input-type=module', '-e', script], { timeout: 20_000 });
    const orphan = Number(stdout.trim());
    await waitFor('the child of a process that ended to end', async () => !alive(orphan), 10_000, 50);
  });
});
