import { dayMonthOrder, type DayMonthOrder } from './dates.js';
import { layoutPages, type Line, type PageLayout, type Segment } from './layout.js';
import { inferDecimalMark, scanNumbers, type DecimalMark } from './numbers.js';
import type { PageText } from '../reading/page-text.js';
import { fold } from './text.js';

/**
 * Everything the field readers share about one document: the layout and the conventions it
 * prints in (decimal mark, day/month order), worked out once from all of its text.
 */
export interface Doc {
  pages: PageLayout[];
  mark: DecimalMark;
  order: DayMonthOrder;
  /** Some slash date can be read one way only; else `order` is the default (day first). */
  orderSettled: boolean;
  source: PageText['source'];
}

/** A value read from the page, with the reader's own belief in it (0..1) before any cross-check. */
export interface Found<T = string> {
  value: T;
  score: number;
  page: number;
  /** Top of the value, for "nearest" tie-breaks. */
  y: number;
  /** How it was found, for debugging and the confidence model. */
  via: string;
}

export function buildDoc(pages: PageText[]): Doc {
  const layout = layoutPages(pages);
  const texts = layout.flatMap((p) => p.lines.flatMap((l) => l.segments.map((s) => s.text)));
  const { order, settled } = dayMonthOrder(texts);
  return { pages: layout, mark: inferDecimalMark(texts), order, orderSettled: settled, source: pages[0]?.source ?? 'text-layer' };
}

export function* allSegments(doc: Doc): Generator<Segment> {
  for (const p of doc.pages) for (const l of p.lines) yield* l.segments;
}

export function lineOf(doc: Doc, s: Segment): Line {
  return doc.pages.find((p) => p.page === s.page)!.lines[s.line]!;
}

export function pageOf(doc: Doc, page: number): PageLayout {
  return doc.pages.find((p) => p.page === page)!;
}

/** The whole line as text, segments separated by wide spaces. */
export function lineText(line: Line): string {
  return line.segments.map((s) => s.text).join('   ');
}

/**
 * Where a label that matched `folded.slice(0, end)` ends in the original text: folding may
 * lengthen text (ß → ss), so offsets are mapped back by folding prefixes.
 */
export function originalOffset(original: string, foldedEnd: number): number {
  if (fold(original).length === original.length) return foldedEnd;
  for (let k = 0; k <= original.length; k++) if (fold(original.slice(0, k)).length >= foldedEnd) return k;
  return original.length;
}

/** The segment to the right of `s` on its line, when it is near enough to be its value. */
export function rightOf(doc: Doc, s: Segment): Segment | undefined {
  const line = lineOf(doc, s);
  const page = pageOf(doc, s.page);
  // A lone colon printed apart from its label is not the value; a scan may read it as any one character.
  const near = line.segments.filter((o) => o.x0 >= s.x1 - 1 && o.x0 - s.x1 < 0.45 * page.width);
  const [first, second] = near;
  if (doc.source === 'ocr' && first && second && first.text.length === 1 && second.x0 - first.x1 < 3 * s.height) return second;
  return near.find((o) => /[\p{L}\p{N}]/u.test(o.text));
}

/** The first segment below `s`, overlapping it horizontally, within two line spacings. */
export function belowOf(doc: Doc, s: Segment): Segment | undefined {
  const page = pageOf(doc, s.page);
  for (let i = s.line + 1; i < page.lines.length; i++) {
    const line = page.lines[i]!;
    if (line.top - s.bottom > 2.2 * s.height) return undefined;
    const hit = line.segments.find(
      (o) => o.x0 < s.x1 + s.height && o.x1 > s.x0 - s.height && Math.abs(o.x0 - s.x0) < Math.max(s.x1 - s.x0, 4 * s.height),
    );
    if (hit) return hit;
  }
  return undefined;
}

/** Whether a line prints an amount: a number with two decimals or more that is no percentage. */
export function hasMoney(doc: Doc, line: Line): boolean {
  return line.segments.some((s) => scanNumbers(s.text, doc.mark).some((n) => !n.percent && n.decimals >= 2));
}
