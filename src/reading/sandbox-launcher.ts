import { fork, type ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { ChildMessage } from './sandbox-protocol.js';
import { ocrScript } from './scripts.js';

/**
 * Forks the sandbox children (sandbox.ts), one ahead of need. Starting Node and loading pdfjs
 * and the reader takes longer than reading a text PDF, so the next document's child does that
 * while nobody waits. A child still reads one document only: the one ahead has seen none.
 * Waiting, it keeps no process alive; one that dies while waiting is replaced, never handed out.
 */

/** The last part of the child's stderr says why it died (V8 prints its out-of-memory report there). */
const STDERR_TAIL = 2_000;

export interface LaunchedChild {
  process: ChildProcess;
  /** Resolves once the child has loaded the reader and waits for its document. */
  ready: Promise<void>;
  stderrTail(): string;
}

export class SandboxLauncher {
  private spare: { child: LaunchedChild; heapMb: number } | undefined;
  private closed = false;

  /** Starts a child ahead, unless there is one. */
  warmUp(heapMb: number): void {
    if (!this.spare && !this.closed) this.prepare(heapMb);
  }

  /**
   * A child for one document, its V8 heap capped at `heapMb`: the one ahead when it has that
   * limit and is alive, else a new one. The next one starts at once, with the same limit.
   */
  take(heapMb: number): LaunchedChild {
    const spare = this.spare;
    this.spare = undefined;
    let child: LaunchedChild;
    if (spare && spare.heapMb === heapMb && running(spare.child.process)) child = spare.child;
    else {
      spare?.child.process.kill('SIGKILL');
      child = launch(heapMb);
    }
    hold(child.process, true);
    if (!this.closed) this.prepare(heapMb);
    return child;
  }

  /** The child ahead, if there is one: its process id, and when it is ready. */
  get ahead(): { pid: number | undefined; ready: Promise<void> } | undefined {
    return this.spare && { pid: this.spare.child.process.pid, ready: this.spare.child.ready };
  }

  /** Ends the child ahead and starts no other (shutdown); children handed out are their documents' to end. */
  close(): void {
    this.closed = true;
    this.spare?.child.process.kill('SIGKILL');
    this.spare = undefined;
  }

  private prepare(heapMb: number): void {
    const spare = { child: launch(heapMb), heapMb };
    this.spare = spare;
    hold(spare.child.process, false);
    let wasReady = false;
    void spare.child.ready.then(() => (wasReady = true));
    // Only one that got ready is replaced: a child that cannot start is not forked again and
    // again (the next document forks its own and reports why it failed).
    spare.child.process.once('exit', () => {
      if (this.spare !== spare) return;
      this.spare = undefined;
      if (wasReady && !this.closed) this.prepare(heapMb);
    });
  }
}

/** The children of the service's documents. */
export const sandboxLauncher = new SandboxLauncher();

function launch(heapMb: number): LaunchedChild {
  const child = fork(ocrScript('sandbox-child'), [], {
    execArgv: [`--max-old-space-size=${heapMb}`],
    serialization: 'advanced', // typed arrays cross as bytes, not as JSON arrays of numbers
    stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    env: {},
  });
  // A child that cannot be started or reached is ended: unheard, the error would take the service down.
  child.on('error', () => child.kill('SIGKILL'));
  let stderr = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => {
    stderr = (stderr + chunk).slice(-STDERR_TAIL);
  });
  const ready = new Promise<void>((resolve) => child.once('message', (message: ChildMessage) => message.kind === 'ready' && resolve()));
  return { process: child, ready, stderrTail: () => stderr };
}

/** Whether the child keeps this process alive: one waiting for a document must not, one reading it does (as any work under way). */
function hold(child: ChildProcess, held: boolean): void {
  for (const handle of [child, child.channel, child.stderr as Socket | null]) {
    if (held) handle?.ref();
    else handle?.unref();
  }
}

function running(child: ChildProcess): boolean {
  return child.exitCode === null && child.signalCode === null;
}
