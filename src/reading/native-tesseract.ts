import { execFileSync, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Word } from './page-text.js';
import { toPgm, type GrayBitmap } from './bitmap.js';
import { OCR_DPI } from './resolution.js';
import { OcrPoolClosedError, OcrTimeoutError } from './tesseract-pool.js';
import { shiftTsv, wordsFromTsv } from './tsv.js';
import { splitIntoBands, type Band } from './bands.js';
import { enqueuePage, takePage, type QueuedPage } from './page-queue.js';
import { languageOf } from './language.js';

/**
 * Debian's Tesseract 5 binary, one process per page: it reads as well as tesseract.js's WASM
 * engine with a fraction of its time and memory (no JIT-less WebAssembly, native SIMD), and a
 * process per page cannot grow, leak or crash into the worker. The page goes in as a PGM on
 * stdin, the words come back as TSV on stdout, in the same single-block segmentation the WASM
 * engine uses, so table rows stay whole. A page alone in the pool is read in bands, a process
 * each, on the cores no other page needs (bands.ts).
 */

export interface NativeOcrOptions {
  /** Pages read at once; each process uses one core. */
  size: number;
  /** Longest a page may take; the process is killed after it. */
  pageTimeoutMs: number;
  /** Address-space limit per process (prlimit), so a hostile page cannot take the machine's memory. */
  memoryBytes?: number;
  binary?: string;
}

const LANGUAGES = 'deu+eng';
/**
 * A French page read with the German and English models loses its accents ("Malaucene" for
 * "Malaucène", "a l'ancienne"): it is read again with the French model first. On the degraded
 * scans of the French corpus invoices the accented words read right rose from 41 to 96 of 117;
 * German and English pages are read once, as before.
 */
const FRENCH_FIRST = 'fra+deu+eng';
const DEFAULT_MEMORY = 1024 * 1024 * 1024;
const PRLIMIT = '/usr/bin/prlimit';

const installed = new Map<string, string>();

/** The languages the binary lists, '' where it does not run (asked once per binary: the service and its worker both ask). */
function languagesOf(binary: string): string {
  let known = installed.get(binary);
  if (known === undefined) {
    try {
      known = execFileSync(binary, ['--list-langs'], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'], timeout: 5000 });
    } catch {
      known = '';
    }
    installed.set(binary, known);
  }
  return known;
}

const hasAll = (binary: string, languages: string) =>
  languages.split('+').every((l) => new RegExp(`^${l}$`, 'm').test(languagesOf(binary)));

/** Whether the binary runs and has the languages we read. */
export function nativeTesseractAvailable(binary = 'tesseract'): boolean {
  return hasAll(binary, LANGUAGES);
}

export class NativeOcr {
  readonly engine = 'tesseract-native';
  private readonly queue: Array<QueuedPage<GrayBitmap>> = [];
  private running = 0;
  private closed = false;
  private processes = 0;
  /** prlimit is part of util-linux; looked for once, not per page. */
  private readonly limited = existsSync(PRLIMIT);

  constructor(private readonly opts: NativeOcrOptions) {
    if (!(opts.size >= 1)) throw new RangeError('An OCR pool needs at least one worker');
  }

  /** Nothing to start ahead: a process costs milliseconds. */
  warmUp(): void {}

  get size(): number {
    return this.opts.size;
  }

  get waiting(): number {
    return this.queue.length;
  }

  /** Processes started so far (one per page). */
  get workersStarted(): number {
    return this.processes;
  }

  recognise(bitmap: GrayBitmap, signal?: AbortSignal): Promise<Word[]> {
    if (this.closed) return Promise.reject(new OcrPoolClosedError('The OCR pool is closed'));
    return enqueuePage(this.queue, bitmap, signal, () => this.dispatch());
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new OcrPoolClosedError('The OCR pool is closed'));
  }

  private dispatch(): void {
    while (this.running < this.opts.size && this.queue.length > 0) {
      const job = takePage(this.queue)!;
      // With no other page waiting, the cores left idle read bands of this one.
      const idle = this.queue.length === 0 ? this.opts.size - this.running - 1 : 0;
      const bands = idle > 0 ? splitIntoBands(job.page, idle + 1) : [{ top: 0, bitmap: job.page }];
      this.running += bands.length;
      this.readPage(job.page, bands, job.signal)
        .then(job.resolve, job.reject)
        .finally(() => {
          this.running -= bands.length;
          if (!this.closed) this.dispatch();
        });
    }
  }

  /** The page's words, read again with the French model first where they are French and the binary has it. */
  private async readPage(page: GrayBitmap, bands: Band[], signal: AbortSignal | undefined): Promise<Word[]> {
    const words = await this.readBands(page, bands, signal, LANGUAGES);
    const french = languageOf(words.map((w) => w.text)) === 'fr' && hasAll(this.opts.binary ?? 'tesseract', FRENCH_FIRST);
    return french ? this.readBands(page, bands, signal, FRENCH_FIRST) : words;
  }

  /** The page's words from its bands, read at once; one band failing stops the others. */
  private async readBands(page: GrayBitmap, bands: Band[], signal: AbortSignal | undefined, languages: string): Promise<Word[]> {
    const stop = new AbortController();
    const either = signal ? AbortSignal.any([signal, stop.signal]) : stop.signal;
    try {
      const tsvs = await Promise.all(bands.map((b, i) => this.read(b.bitmap, either, languages).then((tsv) => shiftTsv(tsv, b.top, i))));
      return wordsFromTsv(tsvs.join('\n'), page);
    } finally {
      stop.abort();
    }
  }

  /** Tesseract's TSV for one bitmap, from a process of its own. */
  private read(bitmap: GrayBitmap, signal: AbortSignal, languages: string): Promise<string> {
    this.processes++;
    const binary = this.opts.binary ?? 'tesseract';
    const args = ['stdin', 'stdout', '-l', languages, '--oem', '1', '--psm', '6', '--dpi', String(OCR_DPI), 'tsv'];
    const [command, argv] = this.limited
      ? [PRLIMIT, [`--as=${this.opts.memoryBytes ?? DEFAULT_MEMORY}`, '--', binary, ...args]]
      : [binary, args];
    return new Promise<string>((resolve, reject) => {
      // One thread per process: the pool's size is the parallelism.
      const child = spawn(command, argv, { stdio: ['pipe', 'pipe', 'pipe'], env: { ...process.env, OMP_THREAD_LIMIT: '1' } });
      const out: Buffer[] = [];
      const err: Buffer[] = [];
      const fail = (e: Error) => {
        child.kill('SIGKILL');
        reject(e);
      };
      const timer = setTimeout(
        () => fail(new OcrTimeoutError(`OCR of a page took longer than ${this.opts.pageTimeoutMs / 1000} s`)),
        this.opts.pageTimeoutMs,
      );
      const onAbort = () => fail(signal.reason instanceof Error ? signal.reason : new Error('OCR aborted'));
      signal.addEventListener('abort', onAbort, { once: true });
      child.stdout.on('data', (b: Buffer) => out.push(b));
      child.stderr.on('data', (b: Buffer) => err.push(b));
      child.stdin.on('error', () => undefined); // a process that dies early closes its stdin; the exit says why
      child.on('error', (e) => fail(e));
      child.on('close', (code, killed) => {
        clearTimeout(timer);
        signal.removeEventListener('abort', onAbort);
        if (code === 0) resolve(Buffer.concat(out).toString('utf8'));
        else reject(new Error(`tesseract exited with ${code ?? killed}: ${Buffer.concat(err).toString('utf8').trim().slice(0, 300)}`));
      });
      child.stdin.end(toPgm(bitmap));
    });
  }
}
