import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument, PDFName } from 'pdf-lib';
import UTIF from 'utif2';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { embedInvoiceXml } from '../../src/pdf/embed.js';
import { convertToPdfA3 } from '../../src/pdf/ghostscript.js';
import { imagesToPdf } from '../../src/pdf/images.js';
import { PROFILE_FACTS, ZUGFERD_PROFILES, type ZugferdProfile } from '../../src/pdf/profiles.js';
import { findInvoiceAttachment, readPdf } from '../../src/pdf/read.js';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { mustangAvailable, mustangRejects, runVeraPdf, veraPdfAvailable } from '../support/java-validators.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { samplePdf } from './sample-pdf.js';

/**
 * Every PDF built here goes to the official judges at the end: veraPDF (PDF/A-3b) and the
 * Mustang CLI (ZUGFeRD / Factur-X: PDF/A, XMP, attachment, XML by profile). Neither is mocked.
 */

const invoice = invoiceFixture('01-standard-19');
const dir = mkdtempSync(path.join(tmpdir(), 'zugferd-build-'));
const built: string[] = [];
const judges = veraPdfAvailable() && mustangAvailable();

async function build(name: string, pdf: Uint8Array, profile: ZugferdProfile): Promise<Uint8Array> {
  const { pdf: out } = await embedInvoiceXml({
    pdf,
    xml: Buffer.from(writeInvoiceXml(invoice, { profile })),
    profile,
    title: `Invoice ${invoice.invoiceNumber}`,
    author: invoice.seller?.sellerName,
    now: new Date('2025-03-03T10:00:00Z'),
  });
  const file = path.join(dir, `${name}.pdf`);
  writeFileSync(file, out);
  built.push(file);
  return out;
}

/** An uncompressed RGBA TIFF with the same image on two pages (UTIF writes the directories, we place the strips). */
function twoPageTiff(rgba: Uint8Array, w: number, h: number): Uint8Array {
  const size = w * h * 4;
  const base = 4000;
  const ifd = (page: number) => ({
    t256: [w],
    t257: [h],
    t258: [8, 8, 8, 8],
    t259: [1],
    t262: [2],
    t273: [base + page * size],
    t277: [4],
    t278: [h],
    t279: [size],
    t284: [1],
    t338: [1],
  });
  const out = new Uint8Array(base + 2 * size);
  out.set(new Uint8Array(UTIF.encode([ifd(0), ifd(1)] as never)));
  out.set(rgba, base);
  out.set(rgba, base + size);
  return out;
}

let pdfa: Uint8Array;
beforeAll(async () => {
  // Helvetica, not embedded: the most common reason a PDF is not PDF/A.
  pdfa = await convertToPdfA3(await samplePdf(invoice));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('building ZUGFeRD / Factur-X PDF/A-3b', () => {
  it.each(ZUGFERD_PROFILES)('%s: attachment, relationship, XMP and fonts as the profile demands', async (profile) => {
    const facts = await readPdf(await build(`profile-${profile}`, pdfa, profile));
    const attachment = findInvoiceAttachment(facts.attachments);
    const expected = PROFILE_FACTS[profile];
    expect(attachment).toMatchObject({
      name: expected.fileName,
      relationship: expected.relationship,
      mimeType: 'text/xml',
      associated: true,
    });
    expect(Buffer.from(attachment!.bytes!).toString('utf8')).toBe(writeInvoiceXml(invoice, { profile }));
    expect(facts.xmp?.facts).toMatchObject({
      pdfaPart: '3',
      pdfaConformance: 'B',
      invoice: { documentFileName: expected.fileName, conformanceLevel: expected.xmpLevel, documentType: 'INVOICE', version: '1.0' },
    });
    expect(facts.xmp?.facts?.declaredNamespaces).toContain(facts.xmp?.facts?.invoice?.namespace);
    expect(facts.unembeddedFonts).toEqual([]);
    expect(facts.pdfaOutputIntents).toBe(1);
    expect(facts.hasTrailerId).toBe(true);
  });

  it('gives a PDF/A input without an OutputIntent the sRGB one', async () => {
    const doc = await PDFDocument.load(pdfa);
    doc.catalog.delete(PDFName.of('OutputIntents'));
    const stripped = await doc.save();
    expect((await readPdf(stripped)).pdfaOutputIntents).toBe(0);
    expect((await readPdf(await build('no-intent', stripped, 'EN16931'))).pdfaOutputIntents).toBe(1);
  });

  it('replaces an earlier invoice instead of adding a second one, and keeps other attachments', async () => {
    const once = await build('twice-1', pdfa, 'EN16931');
    const twice = await build('twice-2', once, 'XRECHNUNG');
    const names = (await readPdf(twice)).attachments.map((a) => a.name);
    expect(names).toEqual(['xrechnung.xml']);
  });

  it('converts a PDF with an embedded but non-PDF/A font, and a 20-page one', async () => {
    await build('embedded-font', await convertToPdfA3(await samplePdf(invoice, { font: 'embedded' })), 'BASIC');
    const facts = await readPdf(await build('twenty-pages', await convertToPdfA3(await samplePdf(invoice, { pages: 20 })), 'EN16931'));
    expect(facts.pageCount).toBe(20);
  });

  it('turns PNG, JPEG and multi-page TIFF scans into PDF pages that convert like any PDF', async () => {
    const canvas = createCanvas(620, 877);
    const ctx = canvas.getContext('2d');
    ctx.fillStyle = '#ffffff';
    ctx.fillRect(0, 0, 620, 877);
    ctx.fillStyle = '#000000';
    ctx.font = '24px sans-serif';
    ctx.fillText(`Rechnung ${invoice.invoiceNumber}`, 40, 80);
    const rgba = new Uint8Array(ctx.getImageData(0, 0, 620, 877).data.buffer);
    const inputs = { png: canvas.toBuffer('image/png'), jpeg: canvas.toBuffer('image/jpeg'), tiff: twoPageTiff(rgba, 620, 877) } as const;
    for (const [type, bytes] of Object.entries(inputs) as Array<[keyof typeof inputs, Uint8Array]>) {
      const pdf = await imagesToPdf(bytes, type);
      expect((await readPdf(pdf)).pageCount, type).toBe(type === 'tiff' ? 2 : 1);
      await build(`image-${type}`, await convertToPdfA3(pdf), 'EN16931');
    }
  });

  it.runIf(judges)('every PDF built above passes veraPDF PDF/A-3b and the Mustang validation', { timeout: 600_000 }, async () => {
    expect(built.length).toBeGreaterThanOrEqual(12);
    const vera = await runVeraPdf(built);
    expect(vera.filter((v) => !v.compliant).map((v) => `${path.basename(v.file)}: ${JSON.stringify(v.failedRules)}`)).toEqual([]);
    expect(await mustangRejects(built)).toEqual([]);
  });
});
