import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import { PDFDict, PDFDocument, PDFName } from 'pdf-lib';
import { afterAll, describe, expect, it } from 'vitest';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { withoutSimpleFontPrograms } from '../../src/pdf/fonts.js';
import { convertToPdfA3 } from '../../src/pdf/ghostscript.js';
import { readPdf } from '../../src/pdf/read.js';
import { runVeraPdf, veraPdfAvailable } from '../support/java-validators.js';

/**
 * The last resort for inputs whose embedded font programs contradict their declared widths
 * (a font without the space glyph its widths give a width to): the simple fonts lose their
 * programs, and Ghostscript draws their text in its own typefaces at the declared widths.
 */

const require = createRequire(import.meta.url);
const DEJAVU = readFileSync(require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf'));
const dir = mkdtempSync(path.join(tmpdir(), 'fonts-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** One line in a simple TrueType font (WinAnsi, widths from the program), one in a composite font as pdf-lib embeds it. */
async function twoFontPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  doc.registerFontkit(fontkit);
  const ctx = doc.context;
  const program = fontkit.create(DEJAVU);
  const widths = Array.from({ length: 95 }, (_, i) =>
    Math.round((program.glyphForCodePoint(32 + i).advanceWidth * 1000) / program.unitsPerEm),
  );
  const descriptor = ctx.obj({
    Type: 'FontDescriptor',
    FontName: 'DejaVuSans',
    Flags: 32,
    FontBBox: [-1021, -463, 1793, 1232],
    ItalicAngle: 0,
    Ascent: 928,
    Descent: -236,
    CapHeight: 729,
    StemV: 80,
    FontFile2: ctx.register(ctx.flateStream(DEJAVU, { Length1: DEJAVU.length })),
  });
  const simple = ctx.register(
    ctx.obj({
      Type: 'Font',
      Subtype: 'TrueType',
      BaseFont: 'DejaVuSans',
      FirstChar: 32,
      LastChar: 126,
      Widths: widths,
      Encoding: 'WinAnsiEncoding',
      FontDescriptor: ctx.register(descriptor),
    }),
  );
  const page = doc.addPage([595, 842]);
  page.node.setFontDictionary(PDFName.of('F1'), simple);
  const composite = await doc.embedFont(DEJAVU, { subset: true });
  page.drawText('Kunde: Muster GmbH', { x: 50, y: 700, size: 12, font: composite });
  const content = ctx.register(ctx.flateStream('BT /F1 14 Tf 50 760 Td (Rechnung 2024-311 vom 03.06.2024) Tj ET'));
  page.node.addContentStream(content);
  return doc.save();
}

/** The font dictionaries of a PDF by subtype, each with whether its descriptor (or its descendant's) still holds a program. */
async function fontPrograms(bytes: Uint8Array): Promise<Array<[string, boolean]>> {
  const doc = await PDFDocument.load(bytes);
  const out: Array<[string, boolean]> = [];
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
    const subtype = (obj.get(PDFName.of('Subtype')) as PDFName).decodeText();
    if (subtype === 'Type0') continue;
    const descriptor = obj.lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
    out.push([subtype, ['FontFile', 'FontFile2', 'FontFile3'].some((k) => descriptor?.has(PDFName.of(k)))]);
  }
  return out.sort();
}

describe("drawing simple fonts in Ghostscript's typefaces", () => {
  it('removes the programs of simple fonts only, and the text stays readable', async () => {
    const input = await twoFontPdf();
    expect(await fontPrograms(input)).toEqual([
      ['CIDFontType2', true],
      ['TrueType', true],
    ]);
    const { pdf, fonts } = await withoutSimpleFontPrograms(input);
    expect(fonts).toBe(1);
    expect(await fontPrograms(pdf)).toEqual([
      ['CIDFontType2', true],
      ['TrueType', false],
    ]);
    const text = (await extractTextLayer(pdf)).flatMap((p) => p.words.map((w) => w.text)).join(' ');
    expect(text).toContain('2024-311');
    expect(text).toContain('Muster');
  });

  it('leaves a PDF without simple fonts as it is', async () => {
    const doc = await PDFDocument.create();
    doc.addPage();
    const bytes = await doc.save();
    expect(await withoutSimpleFontPrograms(bytes)).toEqual({ pdf: bytes, fonts: 0 });
  });

  it.runIf(veraPdfAvailable())(
    'converts the result to a PDF/A-3b with every font embedded again and the text kept',
    { timeout: 300_000 },
    async () => {
      const converted = await convertToPdfA3((await withoutSimpleFontPrograms(await twoFontPdf())).pdf);
      expect((await readPdf(converted)).unembeddedFonts).toEqual([]);
      const text = (await extractTextLayer(converted)).flatMap((p) => p.words.map((w) => w.text)).join(' ');
      expect(text).toContain('2024-311');
      const file = path.join(dir, 'substituted.pdf');
      writeFileSync(file, converted);
      const [verdict] = await runVeraPdf([file]);
      expect(verdict!.failedRules).toEqual([]);
      expect(verdict!.compliant).toBe(true);
    },
  );
});
