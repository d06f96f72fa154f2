import { PDFDict, PDFName } from 'pdf-lib';
import { loadPdf } from './structure.js';

/**
 * Some PDF writers embed font programs that disagree with the glyph widths the PDF declares
 * for them (a space drawn from a font that has no space glyph). PDF/A forbids that, and
 * Ghostscript keeps such a font as it is. Without its program, Ghostscript draws the text in
 * a font of its own (URW's metric-compatible families) at the widths the PDF declares: the
 * page keeps its layout and its text layer, in a close typeface.
 *
 * Only simple fonts (Type 1, TrueType) lose their program: a composite font's glyphs are
 * addressed by ids that only its own program resolves.
 */

const SIMPLE_FONTS = new Set(['Type1', 'MMType1', 'TrueType']);
const FONT_FILES = ['FontFile', 'FontFile2', 'FontFile3'].map((k) => PDFName.of(k));

/** The PDF with the programs of its simple fonts removed, and how many fonts lost one. */
export async function withoutSimpleFontPrograms(bytes: Uint8Array): Promise<{ pdf: Uint8Array; fonts: number }> {
  const doc = await loadPdf(bytes);
  let fonts = 0;
  for (const [, obj] of doc.context.enumerateIndirectObjects()) {
    if (!(obj instanceof PDFDict) || obj.get(PDFName.of('Type')) !== PDFName.of('Font')) continue;
    const subtype = obj.get(PDFName.of('Subtype'));
    if (!(subtype instanceof PDFName) || !SIMPLE_FONTS.has(subtype.decodeText())) continue;
    const descriptor = obj.lookupMaybe(PDFName.of('FontDescriptor'), PDFDict);
    if (!descriptor || !FONT_FILES.some((k) => descriptor.has(k))) continue;
    for (const k of FONT_FILES) descriptor.delete(k);
    fonts++;
  }
  return { pdf: fonts > 0 ? await doc.save() : bytes, fonts };
}
