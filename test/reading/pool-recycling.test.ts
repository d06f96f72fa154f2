import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GrayBitmap } from '../../src/reading/bitmap.js';
import { OcrPool } from '../../src/reading/index.js';
import { fixtureInvoice, invoicePdf, pdfBitmaps } from './fixtures.js';

/**
 * Issue 15, item 4: a tesseract engine's WebAssembly memory grows to its largest page and never
 * shrinks, so the pool replaces an engine after a number of pages, or at once when the process
 * is above its memory mark.
 */

let page: GrayBitmap;
beforeAll(async () => {
  [page] = (await pdfBitmaps(await invoicePdf(fixtureInvoice()), 100)) as [GrayBitmap];
});

const pools: OcrPool[] = [];
afterAll(() => Promise.all(pools.map((p) => p.close())));

it('replaces an engine after maxPages pages', { timeout: 120_000 }, async () => {
  const pool = new OcrPool({ size: 1, pageTimeoutMs: 60_000, recycle: { maxPages: 2, rssMarkBytes: Number.MAX_SAFE_INTEGER } });
  pools.push(pool);
  for (let i = 0; i < 3; i++) expect((await pool.recognise(page)).length).toBeGreaterThan(10);
  expect(pool.workersStarted).toBe(2);
});

it('replaces an engine after a page that leaves the process above the memory mark', { timeout: 120_000 }, async () => {
  const pool = new OcrPool({ size: 1, pageTimeoutMs: 60_000, recycle: { maxPages: 1_000, rssMarkBytes: 1 } });
  pools.push(pool);
  for (let i = 0; i < 2; i++) await pool.recognise(page);
  expect(pool.workersStarted).toBe(2);
});
