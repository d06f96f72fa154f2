import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { TextItem } from 'pdfjs-dist/types/src/display/api.js';
import type { PageText, Word } from './page-text.js';

/**
 * The PDF's own text layer as positioned words (PDF points, origin top-left).
 *
 * pdfjs-dist hands out text items: runs of glyphs in one font that may hold several words
 * (separated by spaces) or only part of one (PDF writers that place each glyph or kerned
 * fragment on its own). Items are split on whitespace and fragments that touch on the same
 * baseline are glued back together, so a word here is what a reader sees as one.
 */

type PdfJs = typeof import('pdfjs-dist/legacy/build/pdf.mjs');
let pdfjs: Promise<PdfJs> | undefined;

/** Loaded lazily: pdfjs-dist is large and only the analysis needs it. */
function loadPdfJs(): Promise<PdfJs> {
  pdfjs ??= import('pdfjs-dist/legacy/build/pdf.mjs');
  return pdfjs;
}

/** Metrics of the 14 standard fonts: without them widths of non-embedded Helvetica & co. are guessed. */
const STANDARD_FONTS = (() => {
  const pkg = createRequire(import.meta.url).resolve('pdfjs-dist/package.json');
  return pathToFileURL(join(dirname(pkg), 'standard_fonts') + '/').href;
})();

/** Gap (in font sizes) below which two fragments on one baseline are one word. */
const GLUE_GAP = 0.12;
/** Baseline difference (in font sizes) still counted as the same line when gluing. */
const SAME_BASELINE = 0.25;

interface Fragment {
  text: string;
  x: number;
  /** Baseline, top-left origin. */
  baseline: number;
  width: number;
  size: number;
  /** Whether whitespace separated this fragment from the previous one inside its item. */
  spaceBefore: boolean;
}

export async function extractTextLayer(pdfBytes: Uint8Array): Promise<PageText[]> {
  const { getDocument, Util } = await loadPdfJs();
  // pdfjs takes ownership of (detaches) the buffer it is given: hand it a copy.
  const task = getDocument({
    data: new Uint8Array(pdfBytes),
    standardFontDataUrl: STANDARD_FONTS,
    disableFontFace: true,
    useSystemFonts: false,
    verbosity: 0,
  });
  try {
    const doc = await task.promise;
    const pages: PageText[] = [];
    for (let n = 1; n <= doc.numPages; n++) {
      const page = await doc.getPage(n);
      const viewport = page.getViewport({ scale: 1 });
      const content = await page.getTextContent();
      const fragments: Fragment[] = [];
      for (const item of content.items) {
        if (!('str' in item) || item.str.trim() === '') continue;
        const m = Util.transform(viewport.transform, item.transform) as number[];
        const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = m;
        // Rotated runs (margin notes, stamps) would cut across the lines of the page.
        if (Math.abs(b) > Math.abs(a) * 0.1 || a <= 0) continue;
        const size = Math.hypot(c, d) || Math.hypot(a, b);
        fragments.push(...splitItem(item, e, f, size));
      }
      page.cleanup();
      pages.push({ page: n, width: viewport.width, height: viewport.height, words: glue(fragments), source: 'text-layer' });
    }
    return pages;
  } finally {
    await task.destroy();
  }
}

/** Splits one text item on whitespace, giving each part its share of the item's width by character count. */
function splitItem(item: TextItem, x: number, baseline: number, size: number): Fragment[] {
  const out: Fragment[] = [];
  const chars = [...item.str];
  const charWidth = chars.length > 0 ? item.width / chars.length : 0;
  let start = -1;
  let sawSpace = false;
  const flush = (end: number) => {
    if (start < 0) return;
    out.push({
      text: chars.slice(start, end).join(''),
      x: x + start * charWidth,
      baseline,
      width: (end - start) * charWidth,
      size,
      spaceBefore: sawSpace,
    });
    start = -1;
  };
  chars.forEach((ch, i) => {
    if (/\s/u.test(ch)) {
      flush(i);
      sawSpace = true;
    } else if (start < 0) start = i;
  });
  flush(chars.length);
  return out;
}

/** Joins fragments that continue the previous one on the same baseline with no visible gap. */
function glue(fragments: Fragment[]): Word[] {
  const words: Array<Word & { baseline: number; size: number }> = [];
  for (const f of fragments) {
    const prev = words.at(-1);
    const gap = prev ? f.x - (prev.x + prev.width) : Infinity;
    if (
      prev &&
      !f.spaceBefore &&
      Math.abs(f.baseline - prev.baseline) < SAME_BASELINE * Math.max(f.size, prev.size) &&
      gap > -GLUE_GAP * f.size &&
      gap < GLUE_GAP * f.size
    ) {
      prev.text += f.text;
      prev.width = f.x + f.width - prev.x;
      continue;
    }
    // Ascent of ~0.8 em above the baseline is what Latin fonts have; the box is one em high.
    words.push({ text: f.text, x: f.x, y: f.baseline - 0.8 * f.size, width: f.width, height: f.size, baseline: f.baseline, size: f.size });
  }
  return words.map(({ text, x, y, width, height }) => ({ text, x, y, width, height }));
}
