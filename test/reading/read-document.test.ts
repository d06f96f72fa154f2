import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { PageText } from '../../src/reading/page-text.js';
import type { Invoice } from '../../src/invoice/model.js';
import { extractZugferdInvoice } from '../../src/pdf/zugferd.js';
import { MAX_OCR_PAGES, NoTextError, OcrPool, OcrTimeoutError, readDocument, UnreadableFileError } from '../../src/reading/index.js';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { ZF1 } from '../pdf/zugferd1-sample.js';
import {
  blankScan,
  BOXED_ROWS,
  boxedTablePdf,
  cyclicTiff,
  expectWithdrawal,
  fixtureInvoice,
  grayTiff,
  halfHeight,
  imageOnlyPdf,
  invoicePdf,
  OFFICE_SCAN,
  pdfBitmaps,
  pdfWithInvoiceXml,
  scannedJpegs,
} from './fixtures.js';

/**
 * The OCR path as the service runs it: the compiled sandbox child and tesseract
 * worker script (`npm run build` first), real tesseract.js with the German and
 * English data from node_modules, documents made from a fixture invoice.
 */

const run = promisify(execFile);
const text = (page: PageText) => page.words.map((w) => w.text).join(' ');
const compact = (s: string) => s.replace(/\s+/g, '');

let pool: OcrPool;
let invoice: Invoice;
let pdf: Uint8Array;
let scans: Buffer[];

beforeAll(async () => {
  pool = new OcrPool({ size: 2, pageTimeoutMs: 120_000 });
  pool.warmUp();
  invoice = fixtureInvoice('01-standard-19.json');
  pdf = await invoicePdf(invoice);
  scans = await scannedJpegs(pdf);
});
afterAll(() => pool.close());

/** The words of a page as lines of text, grouped the way tesseract reported them (same baseline within half a word height). */
function linesOf(page: PageText): string[] {
  const words = [...page.words].sort((a, b) => a.y - b.y || a.x - b.x);
  const lines: Array<typeof words> = [];
  for (const w of words) {
    const line = lines.find((l) => Math.abs(l[0]!.y - w.y) < l[0]!.height / 2);
    if (line) line.push(w);
    else lines.push([w]);
  }
  return lines.map((l) =>
    l
      .sort((a, b) => a.x - b.x)
      .map((w) => w.text)
      .join(' '),
  );
}

/** What must survive a scan: the values a bookkeeper reads off the page. */
function expectKeyValues(page: PageText): void {
  const all = compact(text(page));
  expect(all).toContain(compact(invoice.invoiceNumber!));
  expect(all).toContain(compact(invoice.paymentInstructions!.creditTransfer![0]!.paymentAccountIdentifier!));
  // Amounts as the German template prints them: 1.234,56
  const total = Number(invoice.documentTotals!.invoiceTotalAmountWithVat).toLocaleString('de-DE', { minimumFractionDigits: 2 });
  expect(all).toContain(total);
}

describe('reading documents', () => {
  it('reads a PDF with a text layer without OCR', async () => {
    const read = await readDocument(pdf, 'pdf', { pool });
    expect(read.ocrPages).toBe(0);
    expect(read.pages.map((p) => p.source)).toEqual(['text-layer']);
    expectKeyValues(read.pages[0]!);
  });

  it('reads an office scan (JPEG, 200 dpi, askew, noisy) by OCR, with word boxes and confidences', async () => {
    const read = await readDocument(scans[0]!, 'jpeg', { pool });
    expect(read.ocrPages).toBe(1);
    const page = read.pages[0]!;
    expect(page.source).toBe('ocr');
    expectKeyValues(page);
    const confident = page.words.filter((w) => w.confidence! > 0.8);
    expect(confident.length).toBeGreaterThan(page.words.length / 2);
    for (const w of page.words) {
      expect(w.x + w.width).toBeLessThanOrEqual(page.width);
      expect(w.y + w.height).toBeLessThanOrEqual(page.height);
    }
  });

  it('reads the rows of a table boxed by rules, without taking the rules for letters', async () => {
    const read = await readDocument((await scannedJpegs(await boxedTablePdf()))[0]!, 'jpeg', { pool });
    const lines = linesOf(read.pages[0]!);
    for (const row of BOXED_ROWS) expect(lines).toContainEqual(row.join(' '));
  });

  it('reads a scan inside a PDF (image only) by OCR', async () => {
    const read = await readDocument(await imageOnlyPdf(scans), 'pdf', { pool });
    expect(read.ocrPages).toBe(1);
    expectKeyValues(read.pages[0]!);
  });

  it('reads every page of a multi-page TIFF in order, including a fax page with half the vertical resolution', async () => {
    const [page] = await pdfBitmaps(pdf, 204);
    const blankish = { width: page!.width, height: page!.height, data: new Uint8Array(page!.data.length).fill(255) };
    const tiff = grayTiff([halfHeight(page!), blankish], { x: 204, y: 102 });
    const done: number[] = [];
    const read = await readDocument(tiff, 'tiff', { pool, onPage: (n) => done.push(n) });
    expect(read.pages.map((p) => p.page)).toEqual([1, 2]);
    expect(done).toEqual([1, 2]);
    expectKeyValues(read.pages[0]!);
  });

  it('reads a greyscale JPEG-compressed TIFF as office scanners write it (strips, JPEGTables)', async () => {
    const tiff = readFileSync(path.join(repoRoot, 'test/fixtures/images/text-grey-jpeg.tif'));
    const read = await readDocument(tiff, 'tiff', { pool });
    expect(read.ocrPages).toBe(1);
    const lines = linesOf(read.pages[0]!);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toBe('Rechnung Nr. 2024-0815');
    expect(lines[1]).toMatch(/^Gesamt\S*trag 1\.234,56 EUR$/);
  });

  it('reads the invoice XML a PDF carries instead of its pages', async () => {
    const read = await readDocument(await pdfWithInvoiceXml(invoice), 'pdf', { pool });
    expect(read.pages).toEqual([]);
    expect(read.embedded?.invoiceNumber).toBe(invoice.invoiceNumber);
    expect(read.embedded?.documentTotals).toEqual(invoice.documentTotals);
    expect(read.embedded?.invoiceLine?.length).toBe(invoice.invoiceLine!.length);
  });

  it('reads a ZUGFeRD 1.0 invoice XML as extraction does (migrated to EN 16931), not the pages', async () => {
    const pdf = await pdfWithInvoiceXml(invoice, ZF1, 'ZUGFeRD-invoice.xml');
    const extracted = await extractZugferdInvoice(pdf);
    expect(extracted?.detected.generation).toBe('ZUGFeRD 1.0');
    const read = await readDocument(pdf, 'pdf', { pool });
    expect(read.pages).toEqual([]);
    expect(read.embedded?.invoiceNumber).toBe('RE-1');
    expect(read.embedded).toEqual(extracted?.invoice);
  });

  it('says there is no text when a blank sheet was scanned (noise is not text)', async () => {
    await expect(readDocument(await blankScan(), 'jpeg', { pool })).rejects.toThrow(NoTextError);
  });

  it('refuses more scanned pages than it reads', async () => {
    const tiny = { width: 40, height: 40, data: new Uint8Array(1600).fill(255) };
    await expect(readDocument(grayTiff(Array.from({ length: MAX_OCR_PAGES + 1 }, () => tiny)), 'tiff', { pool })).rejects.toThrow(
      /at most 30/,
    );
  });
});

describe('untrusted files', () => {
  it('stops a TIFF whose directories loop forever; the next document is read as usual', async () => {
    const started = performance.now();
    const err = await readDocument(cyclicTiff(), 'tiff', {
      pool,
      limits: { heapMb: 128, openTimeoutMs: 5_000, renderTimeoutMs: 5_000 },
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreadableFileError);
    // The directory chain is walked before the decoder sees it: the loop is named, long before a limit of the sandbox bites.
    expect((err as Error).message).toMatch(/reached twice/);
    expect(performance.now() - started).toBeLessThan(15_000);
    expect((await readDocument(pdf, 'pdf', { pool })).pages).toHaveLength(1);
  });

  it('reports a broken PDF as unreadable', async () => {
    const broken = Buffer.concat([Buffer.from('%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 2 0 R >>\nendobj\n'), Buffer.alloc(500, 0x41)]);
    await expect(readDocument(broken, 'pdf', { pool })).rejects.toThrow(UnreadableFileError);
  });
});

describe('the tesseract pool', () => {
  it('reuses its workers across pages', async () => {
    const before = pool.workersStarted;
    await Promise.all(scans.concat(scans).map((jpeg) => readDocument(jpeg, 'jpeg', { pool })));
    expect(before).toBe(2);
    expect(pool.workersStarted).toBe(2);
  });

  it('gives up on a page that takes too long, and replaces only that worker', async () => {
    const slow = new OcrPool({ size: 1, pageTimeoutMs: 300 });
    try {
      const [page] = await pdfBitmaps(pdf, 300);
      await expect(slow.recognise(page!)).rejects.toThrow(OcrTimeoutError);
      expect(slow.workersStarted).toBe(1);
      // The next page gets a fresh worker (and, given time, would succeed).
      await expect(slow.recognise(page!)).rejects.toThrow(OcrTimeoutError);
      expect(slow.workersStarted).toBe(2);
    } finally {
      await slow.close();
    }
  });

  it('withdraws queued pages when the caller gives up', async () => {
    const single = new OcrPool({ size: 1, pageTimeoutMs: 60_000 });
    try {
      const [page] = await pdfBitmaps(pdf, 150);
      await expectWithdrawal(single, page!);
    } finally {
      await single.close();
    }
  });

  it('needs no network and writes no language data anywhere', async () => {
    // A process in its own empty network namespace: any download attempt would fail the read.
    const dir = mkdtempSync(path.join(os.tmpdir(), 'ocr-offline-'));
    try {
      writeFileSync(path.join(dir, 'scan.jpg'), scans[0]!);
      const script = `
        import { readFileSync } from 'node:fs';
        import { OcrPool, readDocument } from ${JSON.stringify(path.join(repoRoot, 'dist/src/reading/index.js'))};
        const pool = new OcrPool({ size: 1, pageTimeoutMs: 120000 });
        const read = await readDocument(readFileSync('scan.jpg'), 'jpeg', { pool });
        console.log(read.pages[0].words.length);
        await pool.close();`;
      writeFileSync(path.join(dir, 'offline.mjs'), script);
      const unshare = ['/usr/bin/unshare', '/bin/unshare'].find(existsSync);
      if (!unshare) return; // no namespaces here; the worker's blocked fetch still guards
      const { stdout } = await run(unshare, ['--user', '--map-root-user', '--net', process.execPath, 'offline.mjs'], { cwd: dir });
      expect(Number(stdout.trim())).toBeGreaterThan(50);
      expect(readdirSync(dir).sort()).toEqual(['offline.mjs', 'scan.jpg']);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('the scan simulation the tests rely on', () => {
  it('is deterministic', async () => {
    const again = await scannedJpegs(pdf, OFFICE_SCAN);
    expect(Buffer.compare(again[0]!, scans[0]!)).toBe(0);
  });
});
