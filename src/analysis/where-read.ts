import { Decimal } from '../invoice/decimal.js';
import { scanDates } from './dates.js';
import { pageOf, type Doc } from './document.js';
import type { Segment } from './layout.js';
import { scanNumbers } from './numbers.js';

/**
 * Where on the page a printed value was read, so that a person can check it against the page:
 * the 1-based page, and the box of its words as fractions of the page's width and height from
 * the top left (the same on a 72-dpi preview and a 300-dpi scan).
 */
export interface Place {
  page: number;
  x: number;
  y: number;
  width: number;
  height: number;
}

/** A finder's own position of the value, where it kept one: its page and the top of its line or block. */
export interface Hint {
  page: number;
  y: number;
}

interface Match {
  seg: Segment;
  start: number;
  end: number;
}

/** Fields whose numbers are amounts, prices, quantities or rates, printed in any of the number formats. */
const NUMBER_FIELD = /amount|price|quantity|rate/i;

/**
 * The place of each value read from the page. The value is looked up among the page's words as
 * it is printed (an amount as any printing of that number, a date as any printing of that day,
 * a text with its spaces and case ignored); of several printings the one nearest the finder's
 * hint counts, and without a hint only a printing that stands alone. A value found nowhere, or
 * ambiguously, has no place: a wrong box would send the person to the wrong words.
 */
export function placesOf(doc: Doc, values: ReadonlyMap<string, string>, hints: Readonly<Record<string, Hint>>): Record<string, Place> {
  const printed = printingsOf(doc);
  const places: Record<string, Place> = {};
  for (const [path, value] of values) {
    const match = choose(matchesOf(printed, path, value), hints[path]);
    if (match) places[path] = placeOf(doc, match);
  }
  return places;
}

/** Every segment's dates, numbers and spaceless text, scanned once for all fields. */
interface Printing {
  seg: Segment;
  dates: Array<{ iso: string; start: number; end: number }>;
  numbers: Array<{ value: Decimal; start: number; end: number }>;
  compact: string;
  /** Position in `seg.text` of each character of `compact`. */
  kept: number[];
}

function printingsOf(doc: Doc): Printing[] {
  return doc.pages.flatMap((p) =>
    p.lines.flatMap((l) =>
      l.segments.map((seg) => {
        const kept = nonSpaceAt(seg.text);
        return {
          seg,
          dates: scanDates(seg.text, doc.order),
          // A credit note's amounts are stated positive whichever sign the page prints.
          numbers: scanNumbers(seg.text, doc.mark).map((m) => ({ value: new Decimal(m.value).abs(), start: m.start, end: m.end })),
          compact: kept.map((i) => seg.text[i]!.toLowerCase()).join(''),
          kept,
        };
      }),
    ),
  );
}

function matchesOf(printed: Printing[], path: string, value: string): Match[] {
  if (/^\d{4}-\d{2}-\d{2}$/.test(value))
    return printed.flatMap(({ seg, dates }) => dates.filter((d) => d.iso === value).map((d) => ({ seg, start: d.start, end: d.end })));
  if (NUMBER_FIELD.test(path.split('.').at(-1)!) && /^-?\d+(?:\.\d+)?$/.test(value)) {
    const wanted = new Decimal(value).abs();
    return printed.flatMap(({ seg, numbers }) =>
      numbers.filter((n) => n.value.eq(wanted)).map((n) => ({ seg, start: n.start, end: n.end })),
    );
  }
  return printed.flatMap((p) => textMatches(p, value));
}

/** UTF-16 positions, as the scanners and word offsets count. */
function nonSpaceAt(text: string): number[] {
  const kept: number[] = [];
  for (let i = 0; i < text.length; i++) if (!/\s/.test(text[i]!)) kept.push(i);
  return kept;
}

/** The value's characters in order, spaces and case ignored: "DE 123 456 789" is DE123456789. */
function textMatches({ seg, compact, kept }: Printing, value: string): Match[] {
  const wanted = value.replace(/\s+/g, '').toLowerCase();
  const out: Match[] = [];
  if (!wanted) return out;
  for (let at = compact.indexOf(wanted); at >= 0; at = compact.indexOf(wanted, at + 1))
    out.push({ seg, start: kept[at]!, end: kept[at + wanted.length - 1]! + 1 });
  return out;
}

/** How far (in the printing's line heights) a printing may stand from the finder's hint: a party block's lines. */
const HINT_REACH = 8;

function choose(matches: Match[], hint: Hint | undefined): Match | undefined {
  if (!hint) return matches.length === 1 ? matches[0] : undefined;
  const distance = (m: Match) => Math.abs(m.seg.top - hint.y);
  const near = matches.filter((m) => m.seg.page === hint.page && distance(m) <= HINT_REACH * m.seg.height);
  return near.sort((a, b) => distance(a) - distance(b))[0];
}

/** The box of the words the match touches, relative to the page. */
function placeOf(doc: Doc, { seg, start, end }: Match): Place {
  const words = seg.words.filter((w, i) => seg.offsets[i]! < end && seg.offsets[i]! + w.text.length > start);
  const page = pageOf(doc, seg.page);
  const x0 = Math.min(...words.map((w) => w.x));
  const y0 = Math.min(...words.map((w) => w.y));
  const x1 = Math.max(...words.map((w) => w.x + w.width));
  const y1 = Math.max(...words.map((w) => w.y + w.height));
  const round = (v: number) => Math.round(v * 10000) / 10000;
  return {
    page: seg.page,
    x: round(x0 / page.width),
    y: round(y0 / page.height),
    width: round((x1 - x0) / page.width),
    height: round((y1 - y0) / page.height),
  };
}
