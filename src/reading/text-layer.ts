import type { PDFPageProxy, TextItem } from 'pdfjs-dist/types/src/display/api.js';
import { readPageTexts, type PdfJs } from '../pdf/pdfjs.js';
import type { PageText, Word } from './page-text.js';

/**
 * The PDF's own text layer as positioned words (PDF points, origin top-left).
 *
 * pdfjs-dist hands out text items: runs of glyphs in one font that may hold several words
 * (separated by spaces) or only part of one (PDF writers that place each glyph or kerned
 * fragment on its own). Items are split on whitespace and fragments that touch on the same
 * baseline are glued back together, so a word here is what a reader sees as one.
 *
 * A space inside an item is not always a space of the document: pdfjs also writes one where
 * the next glyph merely starts 0.1–0.6 em after the previous one ends, with no space glyph
 * drawn. Generators that kern after some letters (0.11 em after "r") then come back as
 * "Liefer ant GmbH", as from poppler's pdftotext. So items with inner spaces are matched
 * against the glyphs the page draws (its operator list), and a space pdfjs inserted between
 * two letters stays a word space only when its gap is wide for the font (`WORD_GAP_OF_SPACE`);
 * a space glyph the PDF draws is always one.
 */

/** Gap (in font sizes) below which two fragments on one baseline are one word. */
const GLUE_GAP = 0.12;
/** Baseline difference (in font sizes) still counted as the same line when gluing. */
const SAME_BASELINE = 0.25;
/**
 * A gap pdfjs wrote as a space between two letters, less the letter spacing of its item (the
 * median gap inside its words), is a word space from half the font's space width or 0.3 of
 * its average glyph advance on, whichever is less (the rule of PDFBox' text stripper). Word
 * spaces are about a space wide (0.25–0.3 em; 0.6 em in Courier), kerning a third of that
 * (0.11 em after "r" in the corpus); the narrowest word gap between letters there is 0.165 em.
 */
const WORD_GAP_OF_SPACE = 0.5;
const WORD_GAP_OF_ADVANCE = 0.3;
/** Space width (in font sizes) when the font draws no space on the page: Times 0.25, Helvetica 0.28. */
const DEFAULT_SPACE = 0.25;

interface Fragment {
  text: string;
  x: number;
  /** Baseline, top-left origin. */
  baseline: number;
  width: number;
  size: number;
  /** Whether a word space separated this fragment from the previous one inside its item. */
  spaceBefore: boolean;
  /** Continues the previous fragment of its item across a kerning gap pdfjs wrote as a space. */
  kerned?: boolean;
}

export async function extractTextLayer(pdfBytes: Uint8Array): Promise<PageText[]> {
  return readPageTexts(pdfBytes, async (page, pdf): Promise<PageText> => {
    const { Util } = pdf;
    const viewport = page.getViewport({ scale: 1 });
    const content = await page.getTextContent();
    const items: Array<{ item: TextItem; x: number; baseline: number; size: number }> = [];
    for (const item of content.items) {
      if (!('str' in item) || item.str.trim() === '') continue;
      const m = Util.transform(viewport.transform, item.transform) as number[];
      const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = m;
      // Rotated runs (margin notes, stamps) would cut across the lines of the page.
      if (Math.abs(b) > Math.abs(a) * 0.1 || a <= 0) continue;
      items.push({ item, x: e, baseline: f, size: Math.hypot(c, d) || Math.hypot(a, b) });
    }
    // Only spaces inside items are in question; pages without any (or without text) skip the glyph walk.
    const glyphs = items.some(({ item }) => /\S\s+\S/u.test(item.str)) ? await drawnGlyphs(pdf, page, viewport.transform) : undefined;
    const fragments: Fragment[] = [];
    let cursor = 0;
    for (const { item, x, baseline, size } of items) {
      const parts = splitItem(item, x, baseline, size);
      if (glyphs && parts.length > 1) {
        const placed = placeFragments(parts, item, { x, baseline, size }, glyphs, cursor);
        if (placed) {
          cursor = placed.next;
          fragments.push(...placed.fragments);
          continue;
        }
      }
      fragments.push(...parts);
    }
    return { page: page.pageNumber, width: viewport.width, height: viewport.height, words: glue(fragments), source: 'text-layer' };
  });
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

// ---------------------------------------------------------------- glyphs as drawn

/** One glyph the page draws, in viewport coordinates (top-left origin). */
interface Glyph {
  /** Its Unicode text: '' when unknown, whitespace for a space glyph. */
  text: string;
  /** Left edge and end of its advance, without character or word spacing. */
  x0: number;
  x1: number;
  baseline: number;
  size: number;
}

/** A glyph of pdfjs' operator list (a number in a run is a TJ offset, in thousandths of an em). */
interface ListedGlyph {
  unicode?: string;
  width: number;
  isSpace: boolean;
}

interface TextState {
  ctm: number[];
  textMatrix: number[];
  x: number;
  y: number;
  lineX: number;
  lineY: number;
  charSpacing: number;
  wordSpacing: number;
  hScale: number;
  leading: number;
  rise: number;
  font: string;
  fontMatrix: number[];
  vertical: boolean;
  fontSize: number;
  direction: number;
}

interface DrawnGlyphs {
  glyphs: Glyph[];
  /** Advance of the space glyph per font (in font sizes), for the fonts that draw one on the page. */
  spaceWidth: Map<string, number>;
}

const IDENTITY = [1, 0, 0, 1, 0, 0];
const DEFAULT_FONT_MATRIX = [0.001, 0, 0, 0.001, 0, 0];
/** A new text object or text matrix starts its first line at the origin. */
const LINE_START = { x: 0, lineX: 0, y: 0, lineY: 0 };

const INITIAL_STATE: TextState = {
  ctm: IDENTITY,
  textMatrix: IDENTITY,
  x: 0,
  y: 0,
  lineX: 0,
  lineY: 0,
  charSpacing: 0,
  wordSpacing: 0,
  hScale: 1,
  leading: 0,
  rise: 0,
  font: '',
  fontMatrix: DEFAULT_FONT_MATRIX,
  vertical: false,
  fontSize: 0,
  direction: 1,
};

/**
 * The page's glyphs with their positions, by replaying the text operators of pdfjs' operator
 * list the way its canvas renderer places glyphs (text matrix, Tc/Tw/Tz/Ts, TJ offsets,
 * form matrices). Annotations are left out, as they are from the text content.
 */
async function drawnGlyphs(pdf: PdfJs, page: PDFPageProxy, viewportTransform: number[]): Promise<DrawnGlyphs> {
  const list = await page.getOperatorList({ annotationMode: pdf.AnnotationMode.DISABLE });
  const replay = new GlyphReplay(pdf, page, viewportTransform);
  list.fnArray.forEach((fn, i) => replay.apply(fn, list.argsArray[i] as unknown[]));
  return { glyphs: replay.glyphs, spaceWidth: replay.spaceWidth };
}

/** The graphics and text state the operators change, and the glyphs they draw. */
class GlyphReplay {
  readonly glyphs: Glyph[] = [];
  readonly spaceWidth = new Map<string, number>();
  private s: TextState = { ...INITIAL_STATE };
  private readonly stack: TextState[] = [];
  private readonly fonts = new Map<string, { matrix: number[]; vertical: boolean }>();
  private readonly operators: Map<number, (args: unknown[]) => void>;

  constructor(
    private readonly pdf: PdfJs,
    private readonly page: PDFPageProxy,
    private readonly viewportTransform: number[],
  ) {
    this.operators = this.textOperators();
  }

  apply(fn: number, args: unknown[]): void {
    this.operators.get(fn)?.(args);
  }

  /** What each operator that places text does to the state; the others draw no text. */
  private textOperators(): Map<number, (args: unknown[]) => void> {
    const { OPS, Util } = this.pdf;
    return new Map<number, (args: unknown[]) => void>([
      [OPS.save, () => this.stack.push({ ...this.s })],
      [OPS.restore, () => (this.s = this.stack.pop() ?? this.s)],
      [OPS.transform, (args) => (this.s.ctm = Util.transform(this.s.ctm, args as number[]) as number[])],
      [
        OPS.paintFormXObjectBegin,
        (args) => {
          this.stack.push({ ...this.s });
          if (args[0]) this.s.ctm = Util.transform(this.s.ctm, Array.from(args[0] as ArrayLike<number>)) as number[];
        },
      ],
      [OPS.paintFormXObjectEnd, () => (this.s = this.stack.pop() ?? this.s)],
      [OPS.beginText, () => Object.assign(this.s, { textMatrix: IDENTITY, ...LINE_START })],
      [OPS.setTextMatrix, (args) => Object.assign(this.s, { textMatrix: Array.from(args[0] as ArrayLike<number>), ...LINE_START })],
      [OPS.moveText, (args) => this.moveText(args[0] as number, args[1] as number)],
      [
        OPS.setLeadingMoveText,
        (args) => {
          this.s.leading = args[1] as number;
          this.moveText(args[0] as number, args[1] as number);
        },
      ],
      [OPS.nextLine, () => this.moveText(0, this.s.leading)],
      [OPS.setLeading, (args) => (this.s.leading = -(args[0] as number))],
      [OPS.setCharSpacing, (args) => (this.s.charSpacing = args[0] as number)],
      [OPS.setWordSpacing, (args) => (this.s.wordSpacing = args[0] as number)],
      [OPS.setHScale, (args) => (this.s.hScale = (args[0] as number) / 100)],
      [OPS.setTextRise, (args) => (this.s.rise = args[0] as number)],
      [OPS.setFont, (args) => this.setFont(args[0] as string, args[1] as number)],
      [OPS.showText, (args) => this.showText(args[0] as Array<number | ListedGlyph>)],
    ]);
  }

  private moveText(x: number, y: number): void {
    this.s.x = this.s.lineX += x;
    this.s.y = this.s.lineY += y;
  }

  private setFont(name: string, size: number): void {
    const f = this.fontOf(name);
    Object.assign(this.s, {
      font: name,
      fontMatrix: f.matrix,
      vertical: f.vertical,
      fontSize: Math.abs(size),
      direction: size < 0 ? -1 : 1,
    });
  }

  private fontOf(name: string): { matrix: number[]; vertical: boolean } {
    let f = this.fonts.get(name);
    if (!f) {
      let obj: { fontMatrix?: number[]; vertical?: boolean } | undefined;
      try {
        obj = this.page.commonObjs.get(name) as typeof obj;
      } catch {
        obj = undefined;
      }
      f = { matrix: obj?.fontMatrix ? Array.from(obj.fontMatrix) : DEFAULT_FONT_MATRIX, vertical: obj?.vertical === true };
      this.fonts.set(name, f);
    }
    return f;
  }

  private showText(run: Array<number | ListedGlyph>): void {
    const s = this.s;
    // Vertical writing is left to pdfjs' own spacing.
    if (s.vertical || s.fontSize === 0) return;
    const { Util } = this.pdf;
    const m = Util.transform(Util.transform(this.viewportTransform, s.ctm), s.textMatrix) as number[];
    const [a = 0, b = 0, c = 0, d = 0, e = 0, f = 0] = m;
    const at = (tx: number, ty: number) => [a * tx + c * ty + e, b * tx + d * ty + f] as const;
    const hScale = s.hScale * s.direction;
    const advanceScale = s.fontSize * (s.fontMatrix[0] ?? 0.001);
    const size = s.fontSize * Math.hypot(c, d);
    let x = 0;
    for (const g of run) {
      if (typeof g === 'number') {
        x -= (g * s.fontSize) / 1000;
        continue;
      }
      const width = g.width * advanceScale;
      const [x0, baseline] = at(s.x + x * hScale, s.y + s.rise);
      const [x1] = at(s.x + (x + width) * hScale, s.y + s.rise);
      const text = g.unicode ?? '';
      this.glyphs.push({ text, x0, x1, baseline, size });
      if (text !== '' && /^\s+$/u.test(text) && !this.spaceWidth.has(s.font) && size > 0) this.spaceWidth.set(s.font, (x1 - x0) / size);
      x += width + ((g.isSpace ? s.wordSpacing : 0) + s.charSpacing) * s.direction;
    }
    s.x += x * hScale;
  }
}

/**
 * The item's fragments placed on the glyphs that draw them: exact left edges and widths, and
 * for each space between two fragments whether it is a word space (a space glyph, or a gap
 * wide for the font). Undefined when the item's text does not match the glyphs at its place
 * (then pdfjs' spaces and widths by character count stand).
 */
function placeFragments(
  parts: Fragment[],
  item: TextItem,
  at: { x: number; baseline: number; size: number },
  drawn: DrawnGlyphs,
  cursor: number,
): { fragments: Fragment[]; next: number } | undefined {
  const { glyphs } = drawn;
  const chars = parts.map((p) => p.text).join('');
  const near = (g: Glyph) =>
    Math.abs(g.baseline - at.baseline) < SAME_BASELINE * at.size && Math.abs(g.x0 - at.x) < Math.max(0.5, 0.2 * at.size);
  for (let start = cursor; start < glyphs.length; start++) {
    const g = glyphs[start]!;
    if (!near(g) || !startsWith(chars, 0, g.text)) continue;
    const placed = matchGlyphs(chars, glyphs, start);
    if (!placed) continue;
    // Left and right edge of every character, and whether a space glyph came before it.
    const { left, right, spaceGlyph, next } = placed;
    const fragments: Fragment[] = [];
    const gaps: number[] = [];
    let k = 0;
    for (const p of parts) {
      const n = p.text.length;
      for (let j = k + 1; j < k + n; j++) if (left[j] !== left[j - 1]) gaps.push(left[j]! - right[j - 1]!);
      fragments.push({ ...p, x: left[k]!, width: right[k + n - 1]! - left[k]! });
      k += n;
    }
    const spaceWidth = (drawn.spaceWidth.get(item.fontName) ?? DEFAULT_SPACE) * at.size;
    const advance = mean(left.map((l, j) => right[j]! - l)) ?? spaceWidth;
    const minGap = Math.max(0, median(gaps) ?? 0) + Math.min(WORD_GAP_OF_SPACE * spaceWidth, WORD_GAP_OF_ADVANCE * advance);
    k = 0;
    fragments.forEach((f, i) => {
      if (i > 0) {
        const gap = left[k]! - right[k - 1]!;
        // Kerning is between letters: a narrow gap next to a figure or a sign stays (columns, "16 · D-60318").
        const letters = /\p{L}/u.test(chars[k - 1]!) && /\p{L}/u.test(chars[k]!);
        f.spaceBefore = spaceGlyph[k]! || !letters || gap >= minGap;
        f.kerned = !f.spaceBefore;
      }
      k += f.text.length;
    });
    return { fragments, next };
  }
  return undefined;
}

/** Walks the glyphs from `start` along the item's non-space characters; undefined on the first mismatch. */
function matchGlyphs(
  chars: string,
  glyphs: Glyph[],
  start: number,
): { left: number[]; right: number[]; spaceGlyph: boolean[]; next: number } | undefined {
  const left: number[] = [];
  const right: number[] = [];
  const spaceGlyph: boolean[] = [];
  let k = 0;
  let space = false;
  let i = start;
  for (; i < glyphs.length && k < chars.length; i++) {
    const g = glyphs[i]!;
    if (g.text === '') continue;
    if (/^\s+$/u.test(g.text)) {
      space = true;
      continue;
    }
    const text = startsWith(chars, k, g.text);
    if (!text) return undefined;
    for (let j = 0; j < text.length; j++) {
      left[k + j] = g.x0;
      right[k + j] = g.x1;
      spaceGlyph[k + j] = j === 0 && space;
    }
    k += text.length;
    space = false;
  }
  return k === chars.length ? { left, right, spaceGlyph, next: i } : undefined;
}

/** The glyph's text as it stands in `chars` at `at` (as drawn, or as pdfjs normalises ligatures), or '' when it does not. */
function startsWith(chars: string, at: number, glyph: string): string {
  for (const form of [glyph, glyph.normalize('NFKC')]) {
    const t = form.replace(/\s+/gu, '');
    if (t !== '' && chars.startsWith(t, at)) return t;
  }
  return '';
}

function mean(xs: number[]): number | undefined {
  return xs.length === 0 ? undefined : xs.reduce((a, b) => a + b, 0) / xs.length;
}

function median(xs: number[]): number | undefined {
  if (xs.length === 0) return undefined;
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

/** Joins fragments that continue the previous one on the same baseline with no visible gap. */
function glue(fragments: Fragment[]): Word[] {
  const words: Array<Word & { baseline: number; size: number }> = [];
  for (const f of fragments) {
    const prev = words.at(-1);
    const gap = prev ? f.x - (prev.x + prev.width) : Infinity;
    if (prev && f.kerned) {
      prev.text += f.text;
      prev.width = f.x + f.width - prev.x;
      continue;
    }
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
