import type { ChildProcess } from 'node:child_process';
import type { FileType } from '../files/file-type.js';
import type { GrayBitmap } from './bitmap.js';
import { UnreadableFileError } from './decode-image.js';
import type { DocumentOutline } from './document-reader.js';
import { sandboxLauncher, type SandboxLauncher } from './sandbox-launcher.js';
import type { ChildMessage, ParentMessage } from './sandbox-protocol.js';

/**
 * One untrusted document, opened in a child process of its own. A file built
 * to exhaust memory, loop forever or crash a native decoder takes that child
 * down, never the service: the child gets a bounded heap, every step a
 * deadline, and it is killed when the document is done or anything goes wrong.
 * No environment (database URLs, secrets) is passed to it. The child was
 * forked before the document arrived (sandbox-launcher.ts), and has read no
 * other.
 *
 * The parent asks for pages one by one, so pages are rendered only as fast as
 * OCR consumes them and at most a few bitmaps exist at any time.
 */

export interface SandboxLimits {
  /** V8 heap of the child. Canvas pixels live outside it and are bounded by the pixel limits in resolution.ts. */
  heapMb: number;
  /** Opening: parsing, the text layer of every page. */
  openTimeoutMs: number;
  /** Rendering or decoding one page. */
  renderTimeoutMs: number;
}

export const DEFAULT_SANDBOX_LIMITS: SandboxLimits = { heapMb: 1024, openTimeoutMs: 60_000, renderTimeoutMs: 30_000 };

export class SandboxedDocument {
  private readonly pending = new Map<number, { resolve(bitmap: GrayBitmap): void; reject(err: Error): void }>();
  private failure: Error | undefined;

  private constructor(
    private readonly child: ChildProcess,
    private readonly limits: SandboxLimits,
    readonly outline: DocumentOutline,
  ) {
    child.on('message', (message: ChildMessage) => {
      if (message.kind === 'rendered') this.settle(message.page, message.bitmap);
      else if (message.kind === 'failed') this.fail(new UnreadableFileError(message.message));
    });
  }

  static async open(
    bytes: Uint8Array,
    type: FileType,
    limits: SandboxLimits = DEFAULT_SANDBOX_LIMITS,
    launcher: SandboxLauncher = sandboxLauncher,
  ): Promise<SandboxedDocument> {
    const { process: child, ready, stderrTail } = launcher.take(limits.heapMb);
    const exited = new Promise<never>((_, reject) =>
      child.once('exit', (code, signal) => reject(new UnreadableFileError(describeExit(code, signal, stderrTail())))),
    );
    exited.catch(() => undefined);
    try {
      const opened = ready.then(() => openIn(child, bytes, type));
      const outline = await deadline(Promise.race([opened, exited]), limits.openTimeoutMs, 'Opening the document');
      const doc = new SandboxedDocument(child, limits, outline);
      // Later deaths carry the same explanation.
      exited.catch((err: Error) => doc.fail(err));
      return doc;
    } catch (err) {
      child.kill('SIGKILL');
      throw err;
    }
  }

  /** The child's process id. */
  get pid(): number | undefined {
    return this.child.pid;
  }

  /** Renders (PDF) or decodes (images) a page listed in `outline.scanPages`. */
  render(page: number): Promise<GrayBitmap> {
    if (this.failure) return Promise.reject(this.failure);
    if (this.pending.has(page)) return Promise.reject(new Error(`Page ${page} is being rendered already`));
    const rendered = new Promise<GrayBitmap>((resolve, reject) => this.pending.set(page, { resolve, reject }));
    this.child.send({ kind: 'render', page } satisfies ParentMessage);
    return deadline(rendered, this.limits.renderTimeoutMs, `Rendering page ${page}`).catch((err: Error) => {
      this.fail(err);
      throw err;
    });
  }

  /** Ends the child; safe to call more than once. */
  close(): void {
    this.fail(new Error('The document is closed'));
  }

  private settle(page: number, bitmap: GrayBitmap): void {
    this.pending.get(page)?.resolve(bitmap);
    this.pending.delete(page);
  }

  private fail(err: Error): void {
    this.failure ??= err;
    for (const { reject } of this.pending.values()) reject(this.failure);
    this.pending.clear();
    if (this.child.exitCode === null && this.child.signalCode === null) this.child.kill('SIGKILL');
  }
}

/** Hands the document to a child that is ready for it; resolves with what the child found. */
function openIn(child: ChildProcess, bytes: Uint8Array, type: FileType): Promise<DocumentOutline> {
  const opened = new Promise<DocumentOutline>((resolve, reject) => {
    child.once('message', (message: ChildMessage) => {
      if (message.kind === 'opened') resolve(message.outline);
      else reject(new UnreadableFileError(message.kind === 'failed' ? message.message : 'The document reader answered out of turn.'));
    });
  });
  child.send({ kind: 'open', bytes, type } satisfies ParentMessage);
  return opened;
}

function describeExit(code: number | null, signal: NodeJS.Signals | null, stderr: string): string {
  if (/heap limit|out of memory/i.test(stderr)) return 'The document needs more memory to read than a document may use.';
  return `The document reader stopped (${signal ?? `exit code ${code}`}) while reading the document.`;
}

async function deadline<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new UnreadableFileError(`${what} took longer than ${ms / 1000} s.`)), ms);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
