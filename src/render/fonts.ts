import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import path from 'node:path';
import fontkit from '@pdf-lib/fontkit';
import type { PDFDocument, PDFFont } from 'pdf-lib';
import type { FontFamily } from './template.js';

/**
 * The DejaVu TrueType fonts of the dejavu-fonts-ttf package, embedded as subsets: PDF/A
 * forbids fonts that are not embedded, and DejaVu covers the scripts invoices use in Europe.
 */

const FILES: Record<FontFamily, { regular: string; bold: string }> = {
  DejaVuSans: { regular: 'DejaVuSans.ttf', bold: 'DejaVuSans-Bold.ttf' },
  DejaVuSansCondensed: { regular: 'DejaVuSansCondensed.ttf', bold: 'DejaVuSansCondensed-Bold.ttf' },
  DejaVuSerif: { regular: 'DejaVuSerif.ttf', bold: 'DejaVuSerif-Bold.ttf' },
  DejaVuSerifCondensed: { regular: 'DejaVuSerifCondensed.ttf', bold: 'DejaVuSerifCondensed-Bold.ttf' },
  DejaVuSansMono: { regular: 'DejaVuSansMono.ttf', bold: 'DejaVuSansMono-Bold.ttf' },
};

const fontDir = path.join(path.dirname(createRequire(import.meta.url).resolve('dejavu-fonts-ttf/package.json')), 'ttf');

/** Font files are read once per process; each document embeds only the glyphs it uses. */
const bytesCache = new Map<string, Promise<Buffer>>();
const readFont = (file: string) => {
  let bytes = bytesCache.get(file);
  if (!bytes) {
    bytes = readFile(path.join(fontDir, file));
    bytesCache.set(file, bytes);
  }
  return bytes;
};

export interface FontSet {
  regular: PDFFont;
  bold: PDFFont;
  /** The text with characters the font has no glyph for replaced by '?': PDF/A forbids references to .notdef. */
  printable(text: string): string;
}

export async function embedFonts(doc: PDFDocument, family: FontFamily): Promise<FontSet> {
  doc.registerFontkit(fontkit);
  const files = FILES[family];
  const [regular, bold] = await Promise.all([
    doc.embedFont(await readFont(files.regular), { subset: true }),
    doc.embedFont(await readFont(files.bold), { subset: true }),
  ]);
  // Regular and bold DejaVu cover the same characters, so one set answers for both.
  const covered = new Set(regular.getCharacterSet());
  return {
    regular,
    bold,
    printable: (text) =>
      Array.from(text.replace(/\t/g, ' ').replace(/[\u0000-\u001f\u007f-\u009f]/g, ''), (ch) =>
        covered.has(ch.codePointAt(0)!) ? ch : '?',
      ).join(''),
  };
}
