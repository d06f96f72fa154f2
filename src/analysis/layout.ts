import type { PageText, Word } from '../reading/page-text.js';

/**
 * Words → lines → segments → blocks.
 *
 * A line is every word sharing a baseline across the page. A segment is a run of words on
 * a line with word-sized gaps only: a label, a value, a table cell, one column of a
 * two-column letterhead. A block is a stack of left-aligned segments on consecutive lines:
 * an address, a totals box. All thresholds are in units of the text height, so points
 * (text layer) and pixels (OCR) behave alike.
 */

export interface Segment {
  page: number;
  /** Index of its line in the page's `lines`. */
  line: number;
  words: Word[];
  /** Words joined by single spaces. */
  text: string;
  /** Offset of each word in `text`. */
  offsets: number[];
  x0: number;
  x1: number;
  top: number;
  bottom: number;
  /** Median word height: the unit of every distance on this segment. */
  height: number;
}

export interface Line {
  page: number;
  index: number;
  top: number;
  bottom: number;
  height: number;
  segments: Segment[];
}

export interface PageLayout {
  page: number;
  width: number;
  height: number;
  lines: Line[];
}

export interface Block {
  page: number;
  segments: Segment[];
  x0: number;
  x1: number;
  top: number;
  bottom: number;
}

/** Horizontal gap, in text heights, that ends a segment: wider than a word space, narrower than a column gutter. */
const SEGMENT_GAP = 0.9;
/** Vertical centre distance, in text heights, within which two words share a line. */
const SAME_LINE = 0.45;
/** Horizontal overlap, in text heights, up to which two word boxes still stand side by side. */
const TOUCHING = 0.25;

export function layoutPages(pages: PageText[]): PageLayout[] {
  return pages.map((p) => ({ page: p.page, width: p.width, height: p.height, lines: buildLines(p) }));
}

/** Of an even count, the mean of the middle two: a segment of two words, one box swollen by a scan's noise ("Payet"), is not measured by that box. */
function median(values: number[]): number {
  const s = [...values].sort((a, b) => a - b);
  if (s.length === 0) return 0;
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

function buildLines(page: PageText): Line[] {
  const ocr = page.source === 'ocr';
  const words = page.words.filter((w) => w.text.trim() !== '' && w.height > 0);
  words.sort((a, b) => a.y + a.height / 2 - (b.y + b.height / 2) || a.x - b.x);
  const groups: Array<{ centre: number; bottom: number; height: number; words: Word[] }> = [];
  for (const w of words) {
    const centre = w.y + w.height / 2;
    const bottom = w.y + w.height;
    // Only recent lines can match: words are sorted by centre.
    let target: (typeof groups)[number] | undefined;
    for (let i = groups.length - 1; i >= 0 && i >= groups.length - 4; i--) {
      const g = groups[i]!;
      const unit = Math.min(g.height, w.height);
      // Boxes a scan set edge to edge may overlap by a sliver ("CVC" and the "-" after it): that is no second line.
      // A recogniser's box may also run on over the next word ("Hof" swollen over the "3" after it): on a scan, a word
      // starting in the second half of another's box goes on after it.
      const overlapsWord = g.words.some(
        (o) => Math.min(o.x + o.width, w.x + w.width) - Math.max(o.x, w.x) > TOUCHING * unit && !(ocr && w.x > o.x + o.width / 2),
      );
      if (!overlapsWord && (Math.abs(g.centre - centre) < SAME_LINE * unit || Math.abs(g.bottom - bottom) < 0.2 * unit)) {
        target = g;
        break;
      }
    }
    if (target) {
      target.words.push(w);
      target.centre = (target.centre * (target.words.length - 1) + centre) / target.words.length;
    } else groups.push({ centre, bottom, height: w.height, words: [w] });
  }
  groups.sort((a, b) => a.centre - b.centre);
  return groups.map((g, index) => {
    g.words.sort((a, b) => a.x - b.x);
    const height = median(g.words.map((w) => w.height));
    const segments = splitSegments(page.page, index, g.words, height);
    return {
      page: page.page,
      index,
      top: Math.min(...g.words.map((w) => w.y)),
      bottom: Math.max(...g.words.map((w) => w.y + w.height)),
      height,
      segments,
    };
  });
}

function splitSegments(page: number, line: number, words: Word[], lineHeight: number): Segment[] {
  const runs: Word[][] = [];
  for (const w of words) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    const unit = Math.max(lineHeight, last?.height ?? 0, w.height);
    if (run && last && w.x - (last.x + last.width) < SEGMENT_GAP * unit) run.push(w);
    else runs.push([w]);
  }
  return runs.map((run) => makeSegment(page, line, run));
}

export function makeSegment(page: number, line: number, words: Word[]): Segment {
  const offsets: number[] = [];
  let text = '';
  for (const w of words) {
    if (text) text += ' ';
    offsets.push(text.length);
    text += w.text;
  }
  return {
    page,
    line,
    words,
    text,
    offsets,
    x0: Math.min(...words.map((w) => w.x)),
    x1: Math.max(...words.map((w) => w.x + w.width)),
    top: Math.min(...words.map((w) => w.y)),
    bottom: Math.max(...words.map((w) => w.y + w.height)),
    height: median(words.map((w) => w.height)),
  };
}

/** The segment's words from character offset `start` on, as a new segment (a value that follows a label in the same run). */
export function tailOf(segment: Segment, start: number): Segment | undefined {
  const words = segment.words.filter((w, i) => segment.offsets[i]! + w.text.length > start);
  if (words.length === 0) return undefined;
  const first = segment.words.indexOf(words[0]!);
  const cut = start - segment.offsets[first]!;
  if (cut <= 0) return makeSegment(segment.page, segment.line, words);
  const head = words[0]!;
  const share = cut / head.text.length;
  const trimmed: Word = { ...head, text: head.text.slice(cut), x: head.x + head.width * share, width: head.width * (1 - share) };
  return makeSegment(segment.page, segment.line, [trimmed, ...words.slice(1)]);
}

/**
 * Stacks of segments: each next segment starts on one of the following lines, within `maxGap`
 * text heights below, with its left edge (or, asked for, its right edge) aligned. Addresses, letterheads and footer columns.
 * The default gap keeps to tightly set text; address windows are sometimes set with blank
 * lines between, which a looser gap admits.
 */
export function buildBlocks(page: PageLayout, maxGap = 1.0, align: 'left' | 'right' = 'left'): Block[] {
  const blocks: Block[] = [];
  const open: Block[] = [];
  for (const line of page.lines) {
    for (const seg of line.segments) {
      const home = open.find((b) => {
        const last = b.segments.at(-1)!;
        const unit = Math.min(seg.height, last.height);
        const gap = seg.top - last.bottom;
        // Small print (a sender line) over an address is not part of it; a large name over its address is.
        const notSmaller = last.height > 0.77 * seg.height;
        // Most text is set flush left; a letterhead on the right is often set flush right.
        const offset = align === 'left' ? last.x0 - seg.x0 : last.x1 - seg.x1;
        return last.line < seg.line && notSmaller && gap < maxGap * unit && gap > -0.5 * unit && Math.abs(offset) < 1.5 * unit;
      });
      if (home) {
        home.segments.push(seg);
        home.x0 = Math.min(home.x0, seg.x0);
        home.x1 = Math.max(home.x1, seg.x1);
        home.bottom = seg.bottom;
      } else {
        const b: Block = { page: page.page, segments: [seg], x0: seg.x0, x1: seg.x1, top: seg.top, bottom: seg.bottom };
        blocks.push(b);
        open.push(b);
      }
    }
    // A block whose last segment is more than a few lines up cannot grow any more.
    for (let i = open.length - 1; i >= 0; i--) {
      const last = open[i]!.segments.at(-1)!;
      if (line.top - last.bottom > Math.max(3, maxGap + 1) * last.height) open.splice(i, 1);
    }
  }
  return blocks;
}
