import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { PDFArray, PDFDocument, PDFName, StandardFonts } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { withoutEmptyAppearances } from '../../src/pdf/annotations.js';
import { convertToPdfA3 } from '../../src/pdf/ghostscript.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { runVeraPdf, veraPdfAvailable } from '../support/java-validators.js';

/** Invisible annotations (an appearance with an empty box) would make Ghostscript write an unreadable PDF/A. */

const dir = mkdtempSync(path.join(tmpdir(), 'annots-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A page of text with a link and a stamp whose appearance has the box [0 0 0 0], as a PDF printer left them. */
async function stampedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage([595, 842]);
  page.drawText('Rechnung 2024-311', { x: 50, y: 760, size: 14, font: await doc.embedFont(StandardFonts.Helvetica) });
  const ctx = doc.context;
  const appearance = (box: number[]) =>
    ctx.register(ctx.flateStream('q Q', { Type: 'XObject', Subtype: 'Form', FormType: 1, BBox: box, Resources: { ProcSet: ['PDF'] } }));
  const stamp = ctx.obj({ Type: 'Annot', Subtype: 'Stamp', Rect: [0, 0, 5, 5], F: 4, Contents: '', AP: { N: appearance([0, 0, 0, 0]) } });
  const visible = ctx.obj({ Type: 'Annot', Subtype: 'Stamp', Rect: [50, 50, 150, 100], F: 4, AP: { N: appearance([0, 0, 100, 50]) } });
  page.node.set(PDFName.of('Annots'), ctx.obj([ctx.register(stamp), ctx.register(visible)]));
  return doc.save({ useObjectStreams: false });
}

const annotCount = async (bytes: Uint8Array) =>
  (await PDFDocument.load(bytes)).getPages()[0]!.node.lookupMaybe(PDFName.of('Annots'), PDFArray)?.size() ?? 0;

describe('annotations that draw nothing', () => {
  it('are removed, and the ones that draw something stay', async () => {
    const input = await stampedPdf();
    const { pdf, removed } = await withoutEmptyAppearances(input);
    expect(removed).toBe(1);
    expect(await annotCount(pdf)).toBe(1);
    expect(await withoutEmptyAppearances(pdf)).toEqual({ pdf, removed: 0 });
  });

  it.runIf(veraPdfAvailable())('leave a PDF/A-3b that veraPDF reads and passes, with the text kept', { timeout: 300_000 }, async () => {
    const converted = await convertToPdfA3((await withoutEmptyAppearances(await stampedPdf())).pdf);
    const file = path.join(dir, 'converted.pdf');
    writeFileSync(file, converted);
    const [verdict] = await runVeraPdf([file]);
    expect(verdict!.failedRules).toEqual([]);
    expect(verdict!.compliant).toBe(true);
    expect((await extractTextLayer(converted)).flatMap((p) => p.words.map((w) => w.text))).toContain('2024-311');
    // Without the removal Ghostscript writes the box as NaN.
    expect(Buffer.from(await convertToPdfA3(await stampedPdf())).toString('latin1')).toContain('#NAN');
  });
});
