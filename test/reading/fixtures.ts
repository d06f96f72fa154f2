import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import UTIF from 'utif2';
import { invoiceSchema, type Invoice } from '../../src/invoice/model.js';
import type { GrayBitmap } from '../../src/reading/bitmap.js';
import type { PageOcr } from '../../src/reading/ocr-engine.js';
import { expect } from 'vitest';
import { openPdf, rasterisePage } from '../../src/reading/rasterise-pdf.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../../src/render/index.js';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { imageOnlyPdf, scanPage, scanPdf, type ScanProfile } from '../../scripts/lib/scan-simulation.js';

export { imageOnlyPdf };

/**
 * Invoice documents made here, never copied from the corpus: a fixture invoice
 * rendered through the built-in German template (text layer, known content),
 * then "printed and scanned" (scripts/lib/scan-simulation.ts) into JPEG, TIFF
 * or an image-only PDF. The fixture JSON is the ground truth.
 */

const fixturesDir = path.resolve(import.meta.dirname, '../fixtures/invoices');

export function fixtureInvoice(name = '01-standard-19.json'): Invoice {
  return invoiceSchema.parse(JSON.parse(readFileSync(path.join(fixturesDir, name), 'utf8')));
}

/** The fixture through the de-standard template: a PDF with a text layer. */
export async function invoicePdf(invoice: Invoice): Promise<Uint8Array> {
  const template = await loadTemplate(templateRoots('/nonexistent'), 'de-standard');
  return (await renderInvoicePdf(invoice, template, { created: new Date('2025-03-12T10:00:00Z'), fileId: '0'.repeat(32) })).pdf;
}

/** A typical office scan: 200 dpi, 0.8° askew, moderate noise, JPEG quality 70. */
export const OFFICE_SCAN: ScanProfile = { dpi: 200, skewDegrees: 0.8, noise: 8, jpegQuality: 70 };

export async function scannedJpegs(pdf: Uint8Array, profile: ScanProfile = OFFICE_SCAN): Promise<Buffer[]> {
  return scanPdf(pdf, profile);
}

/** Grayscale pages of a PDF at a given resolution (the clean originals of the TIFF tests). */
export async function pdfBitmaps(pdf: Uint8Array, dpi: number): Promise<GrayBitmap[]> {
  const doc = await openPdf(pdf);
  try {
    const pages: GrayBitmap[] = [];
    for (let n = 1; n <= doc.numPages; n++) pages.push(await rasterisePage(doc, n, dpi));
    return pages;
  } finally {
    await doc.loadingTask.destroy();
  }
}

/**
 * An uncompressed 8-bit grey TIFF with one page per bitmap and the given
 * resolution (fax software writes 204×196 or 204×98 dpi). UTIF writes the
 * directories; the strips are placed after them.
 */
export function grayTiff(pages: GrayBitmap[], dpi: { x: number; y: number } = { x: 200, y: 200 }): Uint8Array {
  const header = 8000 * pages.length;
  let offset = header;
  const ifds = pages.map((p) => {
    const ifd = {
      t256: [p.width],
      t257: [p.height],
      t258: [8],
      t259: [1],
      t262: [1],
      t273: [offset],
      t277: [1],
      t278: [p.height],
      t279: [p.data.length],
      t282: [[dpi.x, 1]],
      t283: [[dpi.y, 1]],
      t296: [2],
    };
    offset += p.data.length;
    return ifd;
  });
  const out = new Uint8Array(offset);
  out.set(new Uint8Array(UTIF.encode(ifds as never)));
  let at = header;
  for (const p of pages) {
    out.set(p.data, at);
    at += p.data.length;
  }
  return out;
}

/** Every second row dropped: a fax in normal mode (half the vertical resolution). */
export function halfHeight(page: GrayBitmap): GrayBitmap {
  const height = Math.floor(page.height / 2);
  const data = new Uint8Array(page.width * height);
  for (let y = 0; y < height; y++) data.set(page.data.subarray(2 * y * page.width, (2 * y + 1) * page.width), y * page.width);
  return { width: page.width, height, data };
}

/** A scan of an empty sheet: paper, noise, nothing written. */
export async function blankScan(): Promise<Buffer> {
  const width = 1654;
  const height = 2339; // A4 at 200 dpi
  return scanPage({ width, height, data: new Uint8Array(width * height).fill(255) }, { ...OFFICE_SCAN, noise: 10 });
}

const DEJAVU = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf', 'DejaVuSans.ttf');

/** A PNG with transparency and a few words: drawn on white, it must read like print. */
export function transparentPng(words: string): Buffer {
  GlobalFonts.registerFromPath(DEJAVU, 'DejaVu Sans');
  const canvas = createCanvas(1240, 400);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#000';
  ctx.font = '48px "DejaVu Sans"';
  ctx.fillText(words, 60, 200);
  return canvas.toBuffer('image/png');
}

/** A ZUGFeRD-like PDF: the rendered invoice with its CII attached as factur-x.xml. */
export async function pdfWithInvoiceXml(
  invoice: Invoice,
  xml = writeInvoiceXml(invoice, { profile: 'EN16931' }),
  fileName = 'factur-x.xml',
): Promise<Uint8Array> {
  const doc = await PDFDocument.load(await invoicePdf(invoice));
  await doc.attach(Buffer.from(xml, 'utf8'), fileName, { mimeType: 'text/xml', description: 'Invoice XML' });
  return doc.save();
}

/**
 * A TIFF whose first directory points to itself as the next one: a reader that
 * follows the chain naively never stops (and keeps allocating).
 */
export function cyclicTiff(): Uint8Array {
  const b = Buffer.alloc(8 + 2 + 12 + 4);
  b.write('II', 0, 'latin1');
  b.writeUInt16LE(42, 2);
  b.writeUInt32LE(8, 4); // first IFD at 8
  b.writeUInt16LE(1, 8); // one entry
  b.writeUInt16LE(256, 10); // ImageWidth
  b.writeUInt16LE(3, 12); // SHORT
  b.writeUInt32LE(1, 14);
  b.writeUInt32LE(100, 18);
  b.writeUInt32LE(8, 22); // next IFD: this one again
  return b;
}

/** A PNG header that claims 100 000 × 100 000 pixels, followed by nothing. */
export function bombPng(): Buffer {
  const b = Buffer.alloc(33);
  Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]).copy(b, 0);
  b.writeUInt32BE(13, 8);
  b.write('IHDR', 12, 'latin1');
  b.writeUInt32BE(100_000, 16);
  b.writeUInt32BE(100_000, 20);
  b[24] = 8;
  b[25] = 0;
  return b;
}

/** Rows of the boxed table of boxedTablePdf(), cell by cell. */
export const BOXED_ROWS = [
  ['Menge', 'Produkt', 'USt.', 'Preis', 'Gesamtbetrag'],
  ['1,00', 'Gestaltung', '7%', '160,00', '160,00'],
  ['400,00', 'Luftballon', '19%', '0,79', '316,00'],
  ['200,00', 'Heißluft', '19%', '0,10', '20,00'],
];

/** A line-item table with a rule around every cell, as office software prints it (its own layout, not a corpus copy). */
export async function boxedTablePdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  const columns = [60, 130, 300, 360, 440, 540];
  const top = 600;
  const rowHeight = 22;
  BOXED_ROWS.forEach((row, r) => {
    row.forEach((cell, c) => page.drawText(cell, { x: columns[c]! + 5, y: top - (r + 1) * rowHeight + 7, size: 11, font }));
  });
  const rule = { thickness: 0.8, color: rgb(0.1, 0.1, 0.1) };
  for (let r = 0; r <= BOXED_ROWS.length; r++)
    page.drawLine({ start: { x: columns[0]!, y: top - r * rowHeight }, end: { x: columns.at(-1)!, y: top - r * rowHeight }, ...rule });
  for (const x of columns) page.drawLine({ start: { x, y: top }, end: { x, y: top - BOXED_ROWS.length * rowHeight }, ...rule });
  page.drawText('Rechnung 2024-77', { x: 60, y: 700, size: 14, font });
  return doc.save();
}

/**
 * What an OCR engine with one worker does when a caller gives up on a page still queued:
 * the page leaves the queue, its promise rejects with the reason, the page being read goes on.
 */
export async function expectWithdrawal(engine: PageOcr, page: GrayBitmap): Promise<void> {
  const abort = new AbortController();
  const first = engine.recognise(page);
  const second = engine.recognise(page, abort.signal);
  expect(engine.waiting).toBe(1);
  abort.abort(new Error('cancelled'));
  await expect(second).rejects.toThrow('cancelled');
  expect(engine.waiting).toBe(0);
  expect((await first).length).toBeGreaterThan(20);
}
