import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { PageText } from '../../src/reading/page-text.js';
import { createOcr, ocrEngineName, readDocument, type PageOcr } from '../../src/reading/index.js';
import { imageOnlyPdf, scanPdf, scanProfile, seedOf } from './scan-simulation.js';
import { quantile } from './quantile.js';

/**
 * The `ocr-degraded` page source of scripts/bench-analysis.ts: each PDF is
 * printed and scanned in simulation (scan-simulation.ts, a profile per file),
 * the scanned pages are put together as a scanner that scans to PDF does (one
 * JPEG per page, no text), and the document goes through the service's OCR
 * path exactly as an uploaded one does (sandbox, resolution normalisation,
 * despeckling and rule removal, the tesseract pool). The benchmark's per-page timing includes the
 * simulation; the OCR path alone is timed here and summarised when the run
 * ends, per page as the document's time over its pages.
 */

/** Invoices are read from their first pages; long appendices would only stretch the run. */
const MAX_PAGES = 3;

let pool: PageOcr | undefined;
/** The engine the service would pick here: the cache keeps each engine's words apart. */
const engine = ocrEngineName();
const ocrSeconds: number[] = [];

/**
 * `pdf`: the scanned pages as one image-only PDF, read whole; `jpeg`: each
 * page uploaded as a JPEG of its own (the benchmark's path before image-only
 * PDFs; pdfjs renders an embedded scan a little less sharply than the JPEG
 * decoder, so the two differ by more than the OCR).
 */
export type ScanUpload = 'pdf' | 'jpeg';

export async function degradedScanPages(
  pdf: Uint8Array,
  file: string,
  cacheDir?: string,
  upload: ScanUpload = 'pdf',
  engines = 1,
): Promise<PageText[]> {
  // The scan simulation is deterministic per file, so the OCR words of a file can be kept and reused.
  const key = createHash('sha256').update(pdf).digest('hex').slice(0, 24);
  // Banded reading is its own engine for the cache: its words may differ at the cuts.
  const name = engines > 1 && engine === 'tesseract-native' ? `${engine}-bands` : engine;
  const cached = cacheDir ? path.join(cacheDir, name === 'tesseract.js' ? `${key}.json` : `${name}-${key}.json`) : undefined;
  if (cached) {
    try {
      return JSON.parse(readFileSync(cached, 'utf8')) as PageText[];
    } catch {
      // Not there yet: read it below.
    }
  }
  // Pages are read one after the other, so a page's time is what one scanned page costs, not throughput
  // (with one engine, on one core; with more, the bands of the page on as many).
  if (!pool) {
    pool = createOcr({ size: engines, pageTimeoutMs: 120_000 }, engine);
    pool.warmUp();
    process.once('beforeExit', summarise);
  }
  const scans = await scanPdf(pdf, scanProfile(seedOf(path.basename(file))), MAX_PAGES);
  const unread = (i: number): PageText => ({ page: i + 1, width: 1, height: 1, words: [], source: 'ocr' });
  let pages: PageText[];
  if (upload === 'pdf') {
    const scanned = await imageOnlyPdf(scans);
    const started = performance.now();
    pages = await readDocument(scanned, 'pdf', { pool }).then(
      (read) => read.pages,
      () => scans.map((_, i) => unread(i)),
    );
    const seconds = (performance.now() - started) / 1000;
    for (const _ of scans) ocrSeconds.push(seconds / scans.length);
  } else {
    pages = [];
    for (const [i, jpeg] of scans.entries()) {
      const started = performance.now();
      const read = await readDocument(jpeg, 'jpeg', { pool }).then(
        (r) => r.pages[0],
        () => undefined,
      );
      ocrSeconds.push((performance.now() - started) / 1000);
      pages.push({ ...(read ?? unread(i)), page: i + 1 });
    }
  }
  if (cached) {
    mkdirSync(cacheDir!, { recursive: true });
    writeFileSync(cached, JSON.stringify(pages));
  }
  return pages;
}

function summarise(): void {
  if (ocrSeconds.length === 0) return;
  const at = (q: number) => quantile(ocrSeconds, q).toFixed(2);
  console.log(
    `OCR path alone (sandboxed render + ${engine}, ${pool!.size} engine(s), excluding the scan simulation): median ${at(0.5)} s, p95 ${at(0.95)} s, max ${Math.max(...ocrSeconds).toFixed(2)} s per page over ${ocrSeconds.length} pages`,
  );
  void pool!.close();
}
