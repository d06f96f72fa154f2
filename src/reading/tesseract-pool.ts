import { rmSync, symlinkSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Worker as ThreadWorker } from 'node:worker_threads';
import Tesseract from 'tesseract.js';
import type { Word } from './page-text.js';
import { tempDirSync } from '../temp-dirs.js';
import { toPgm, type GrayBitmap } from './bitmap.js';
import { OCR_DPI } from './resolution.js';
import { ocrScript } from './scripts.js';
import { wordsFromTsv } from './tsv.js';
import { enqueuePage, takePage, type QueuedPage } from './page-queue.js';

/**
 * A fixed set of long-lived tesseract.js workers (one WASM engine per thread,
 * German and English loaded once) that pages queue for. Starting a worker
 * costs about half a second and 100+ MB, so workers are reused, never started
 * per request. A page that takes too long, or a worker that dies, costs that
 * page only: the worker is terminated and a fresh one starts for the next page.
 */

export interface OcrPoolOptions {
  /** Worker threads; each keeps one core busy while it reads a page. */
  size: number;
  /** Longest a single page may take once a worker has it. */
  pageTimeoutMs: number;
  /**
   * A worker is replaced after this many pages, or after a page that leaves the process above
   * `rssMarkBytes`: a WebAssembly engine's memory grows to its largest page and never shrinks.
   */
  recycle?: { maxPages: number; rssMarkBytes: number };
  /** Called with problems that do not fail a page (a worker restarting). */
  onWarning?: (message: string, err?: unknown) => void;
}

export class OcrTimeoutError extends Error {
  override readonly name = 'OcrTimeoutError';
}

export class OcrPoolClosedError extends Error {
  override readonly name = 'OcrPoolClosedError';
}

/** Tesseract's language codes; both packages ship in node_modules (see languageDir). */
const LANGUAGES = ['deu', 'eng'] as const;
const require = createRequire(import.meta.url);

type Job = QueuedPage<{ image: Uint8Array; size: { width: number; height: number } }>;

/** A started worker and a promise that rejects when its thread ends, whatever the reason. */
interface Engine {
  tesseract: Tesseract.Worker;
  exited: Promise<never>;
}

interface Slot {
  engine: Promise<Engine> | undefined;
  busy: boolean;
  /** Pages the current engine has read. */
  pages: number;
}

export class OcrPool {
  readonly engine = 'tesseract.js';
  private readonly slots: Slot[];
  private readonly queue: Job[] = [];
  private readonly langDir: string;
  private closed = false;
  private started = 0;

  constructor(private readonly opts: OcrPoolOptions) {
    if (!(opts.size >= 1)) throw new RangeError('An OCR pool needs at least one worker');
    this.slots = Array.from({ length: opts.size }, () => ({ engine: undefined, busy: false, pages: 0 }));
    this.langDir = languageDir();
    process.once('exit', this.removeLangDir);
  }

  /** Starts the workers ahead of the first page, so that the first request does not wait for them. */
  warmUp(): void {
    for (const slot of this.slots) {
      slot.engine ??= this.start(slot);
      slot.engine.catch((err: unknown) => this.opts.onWarning?.('OCR worker failed to start', err));
    }
  }

  /** Recognises one page; words in the bitmap's pixel coordinates, turned upright when the page was askew. */
  recognise(bitmap: GrayBitmap, signal?: AbortSignal): Promise<Word[]> {
    if (this.closed) return Promise.reject(new OcrPoolClosedError('The OCR pool is closed'));
    const page = { image: toPgm(bitmap), size: { width: bitmap.width, height: bitmap.height } };
    return enqueuePage(this.queue, page, signal, () => this.dispatch());
  }

  /** Number of workers: how many pages are read at once. */
  get size(): number {
    return this.slots.length;
  }

  /** Pages waiting for a worker. */
  get waiting(): number {
    return this.queue.length;
  }

  /** Workers started so far: the pool size once warm, one more for every worker replaced. */
  get workersStarted(): number {
    return this.started;
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.reject(new OcrPoolClosedError('The OCR pool is closed'));
    await Promise.all(this.slots.map((slot) => this.retire(slot)));
    process.off('exit', this.removeLangDir);
    this.removeLangDir();
  }

  private readonly removeLangDir = () => rmSync(this.langDir, { recursive: true, force: true });

  private dispatch(): void {
    for (const slot of this.slots) {
      if (slot.busy || this.queue.length === 0) continue;
      const job = takePage(this.queue)!;
      slot.busy = true;
      void this.run(slot, job).finally(() => {
        slot.busy = false;
        if (!this.closed) this.dispatch();
      });
    }
  }

  private async run(slot: Slot, job: Job): Promise<void> {
    let timer: NodeJS.Timeout | undefined;
    try {
      const engine = await (slot.engine ??= this.start(slot));
      const timeout = new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new OcrTimeoutError(`OCR of a page took longer than ${this.opts.pageTimeoutMs / 1000} s`)),
          this.opts.pageTimeoutMs,
        );
      });
      const result = await Promise.race([
        engine.tesseract.recognize(job.page.image, {}, { text: false, tsv: true }),
        timeout,
        engine.exited,
      ]);
      job.resolve(wordsFromTsv(result.data.tsv ?? '', job.page.size));
      const { recycle } = this.opts;
      if (recycle && (++slot.pages >= recycle.maxPages || process.memoryUsage.rss() > recycle.rssMarkBytes)) await this.retire(slot);
    } catch (err) {
      // Whatever went wrong, this worker's state is unknown: the next page gets a fresh one.
      await this.retire(slot);
      job.reject(err);
    } finally {
      clearTimeout(timer);
    }
  }

  private start(slot: Slot): Promise<Engine> {
    const forget = () => {
      if (slot.engine === started && !slot.busy) slot.engine = undefined;
    };
    const started: Promise<Engine> = this.createEngine().then(
      (engine) => {
        // A thread that dies while idle is replaced on the next page.
        engine.exited.catch(forget);
        return engine;
      },
      (err: unknown) => {
        forget(); // a failed start is tried again on the next page
        throw err;
      },
    );
    return started;
  }

  private async createEngine(): Promise<Engine> {
    this.started++;
    const tesseract = await Tesseract.createWorker([...LANGUAGES], Tesseract.OEM.LSTM_ONLY, {
      langPath: this.langDir,
      // The data is local; the default would also write an ungzipped copy into the working directory.
      cacheMethod: 'none',
      gzip: true,
      workerPath: ocrScript('tesseract-worker'),
      errorHandler: (err: unknown) => this.opts.onWarning?.('OCR worker reported an error', err),
    });
    // Our bitmaps are rendered at this resolution; it also stops tesseract guessing (and logging its guess).
    await tesseract.setParameters({ user_defined_dpi: String(OCR_DPI) });
    const thread = threadOf(tesseract);
    // An uncaught error in a thread is re-emitted on its Worker object; unhandled, it would end this process.
    thread.on('error', (err) => this.opts.onWarning?.('OCR worker thread failed', err));
    const exited = new Promise<never>((_, reject) =>
      thread.once('exit', (code) => reject(new Error(`The OCR worker thread exited (code ${code})`))),
    );
    exited.catch(() => undefined); // observed by whoever races it; never an unhandled rejection
    // Idle workers must not keep a finishing process alive.
    thread.unref();
    return { tesseract, exited };
  }

  private async retire(slot: Slot): Promise<void> {
    const starting = slot.engine;
    slot.engine = undefined;
    slot.pages = 0;
    const engine = await starting?.catch(() => undefined);
    await engine?.tesseract.terminate().catch((err: unknown) => this.opts.onWarning?.('OCR worker did not terminate cleanly', err));
  }
}

/** tesseract.js keeps the thread on its worker object; the typings leave it out. */
function threadOf(worker: Tesseract.Worker): ThreadWorker {
  return (worker as unknown as { worker: ThreadWorker }).worker;
}

/**
 * tesseract.js reads every language from one folder, but each language comes in
 * its own npm package. A private folder of symbolic links joins them without
 * copying 4 MB or touching the network. The LSTM-only integer models
 * (`4.0.0_best_int`) are the ones tesseract.js itself picks for LSTM-only use.
 */
function languageDir(): string {
  const dir = tempDirSync('tessdata');
  for (const lang of LANGUAGES) {
    const pkg = path.dirname(require.resolve(`@tesseract.js-data/${lang}/package.json`));
    symlinkSync(path.join(pkg, '4.0.0_best_int', `${lang}.traineddata.gz`), path.join(dir, `${lang}.traineddata.gz`));
  }
  return dir;
}
