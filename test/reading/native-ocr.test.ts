import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Invoice } from '../../src/invoice/model.js';
import type { PageText } from '../../src/reading/page-text.js';
import { NativeOcr, nativeTesseractAvailable } from '../../src/reading/native-tesseract.js';
import { createOcr, ocrEngineName, OcrTimeoutError, readDocument } from '../../src/reading/index.js';
import { BOXED_ROWS, boxedTablePdf, expectWithdrawal, fixtureInvoice, invoicePdf, pdfBitmaps, scannedJpegs } from './fixtures.js';

/**
 * Debian's Tesseract binary as the service runs it (scripts/setup-ocr.sh installs it with
 * German and English): scanned fixture invoices through the sandbox and the binary, one
 * process per page.
 */

const compact = (s: string) => s.replace(/\s+/g, '');
const text = (page: PageText) => compact(page.words.map((w) => w.text).join(' '));

let pool: NativeOcr;
let invoice: Invoice;
let pdf: Uint8Array;

beforeAll(async () => {
  pool = new NativeOcr({ size: 2, pageTimeoutMs: 60_000 });
  invoice = fixtureInvoice('01-standard-19.json');
  pdf = await invoicePdf(invoice);
});
afterAll(() => pool.close());

describe('the native Tesseract engine', () => {
  it('is installed with German and English, and is the engine the service picks', () => {
    expect(nativeTesseractAvailable()).toBe(true);
    expect(ocrEngineName(undefined)).toBe('tesseract-native');
    expect(ocrEngineName('tesseract.js')).toBe('tesseract.js');
    expect(createOcr({ size: 1, pageTimeoutMs: 1000 }, 'tesseract-native').engine).toBe('tesseract-native');
  });

  it('reads an office scan: the number, the IBAN and the total a bookkeeper checks', async () => {
    const [scan] = await scannedJpegs(pdf);
    const read = await readDocument(scan!, 'jpeg', { pool });
    const all = text(read.pages[0]!);
    expect(all).toContain(compact(invoice.invoiceNumber!));
    expect(all).toContain(compact(invoice.paymentInstructions!.creditTransfer![0]!.paymentAccountIdentifier!));
    const total = Number(invoice.documentTotals!.invoiceTotalAmountWithVat).toLocaleString('de-DE', { minimumFractionDigits: 2 });
    expect(all).toContain(total);
    for (const w of read.pages[0]!.words) expect(w.confidence).toBeGreaterThanOrEqual(0);
  });

  it('keeps the rows of a boxed table whole (one block, not columns)', async () => {
    const read = await readDocument((await scannedJpegs(await boxedTablePdf()))[0]!, 'jpeg', { pool });
    const lines = new Set<string>();
    const words = [...read.pages[0]!.words].sort((a, b) => a.y - b.y || a.x - b.x);
    for (const w of words) {
      const row = words.filter((o) => Math.abs(o.y - w.y) < w.height / 2).sort((a, b) => a.x - b.x);
      lines.add(row.map((o) => o.text).join(' '));
    }
    for (const row of BOXED_ROWS) expect([...lines]).toContainEqual(row.join(' '));
  });

  it('reads a lone page in bands on the idle cores, to nearly the same words in the same places', async () => {
    const [page] = await pdfBitmaps(pdf, 300);
    const whole = await new NativeOcr({ size: 1, pageTimeoutMs: 60_000 }).recognise(page!);
    const pair = new NativeOcr({ size: 2, pageTimeoutMs: 60_000 });
    const banded = await pair.recognise(page!);
    expect(pair.workersStarted).toBe(2);
    // Tesseract reads a line a little differently in another context, so not every word is the same; nearly all are.
    const same = whole.filter((w) => banded.some((b) => b.text === w.text && Math.abs(b.x - w.x) < 10 && Math.abs(b.y - w.y) < 10));
    expect(same.length).toBeGreaterThanOrEqual(0.9 * whole.length);
    const all = compact(banded.map((w) => w.text).join(' '));
    expect(all).toContain(compact(invoice.invoiceNumber!));
    expect(all).toContain(compact(invoice.paymentInstructions!.creditTransfer![0]!.paymentAccountIdentifier!));
  });

  it('kills a page that takes too long, and reads the next', async () => {
    const slow = new NativeOcr({ size: 1, pageTimeoutMs: 50 });
    const [page] = await pdfBitmaps(pdf, 300);
    await expect(slow.recognise(page!)).rejects.toThrow(OcrTimeoutError);
    const patient = new NativeOcr({ size: 1, pageTimeoutMs: 60_000 });
    expect((await patient.recognise(page!)).length).toBeGreaterThan(20);
  });

  it('withdraws queued pages when the caller gives up', async () => {
    const [page] = await pdfBitmaps(pdf, 150);
    await expectWithdrawal(new NativeOcr({ size: 1, pageTimeoutMs: 60_000 }), page!);
  });
});
