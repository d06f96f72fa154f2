import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { PageText } from '../../src/analysis/page-text.js';
import { OcrPool, readDocument } from '../../src/ocr/index.js';
import { scanPdf, scanProfile, seedOf } from './scan-simulation.js';
import { quantile } from './quantile.js';

/**
 * The `ocr-degraded` page source of scripts/bench-analysis.ts: each PDF is
 * printed and scanned in simulation (scan-simulation.ts, a profile per file),
 * then every page goes through the service's OCR path exactly as an uploaded
 * JPEG does (sandbox, resolution normalisation, the tesseract pool). The
 * benchmark's per-page timing includes the simulation; the OCR path alone is
 * timed here and summarised when the run ends.
 */

/** Invoices are read from their first pages; long appendices would only stretch the run. */
const MAX_PAGES = 3;

let pool: OcrPool | undefined;
const ocrSeconds: number[] = [];

export async function degradedScanPages(pdf: Uint8Array, file: string, cacheDir?: string): Promise<PageText[]> {
  // The scan simulation is deterministic per file, so the OCR words of a file can be kept and reused.
  const cached = cacheDir ? path.join(cacheDir, `${createHash('sha256').update(pdf).digest('hex').slice(0, 24)}.json`) : undefined;
  if (cached) {
    try {
      return JSON.parse(readFileSync(cached, 'utf8')) as PageText[];
    } catch {
      // Not there yet: read it below.
    }
  }
  if (!pool) {
    pool = new OcrPool({ size: Math.max(1, Math.min(os.availableParallelism(), 4)), pageTimeoutMs: 120_000 });
    pool.warmUp();
    process.once('beforeExit', summarise);
  }
  const scans = await scanPdf(pdf, scanProfile(seedOf(path.basename(file))), MAX_PAGES);
  const pages: PageText[] = [];
  // One page at a time: the figure wanted is what one scanned page costs, not throughput.
  for (const [i, jpeg] of scans.entries()) {
    const started = performance.now();
    const { pages: read } = await readDocument(jpeg, 'jpeg', { pool }).catch(() => ({ pages: [] as PageText[] }));
    ocrSeconds.push((performance.now() - started) / 1000);
    pages.push({ ...(read[0] ?? { width: 1, height: 1, words: [], source: 'ocr' as const }), page: i + 1 });
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
  console.log(`OCR path alone (sandboxed decode + tesseract, ${pool!.size} workers, excluding the scan simulation): median ${at(0.5)} s, p95 ${at(0.95)} s, max ${Math.max(...ocrSeconds).toFixed(2)} s per page over ${ocrSeconds.length} pages`);
  void pool!.close();
}
