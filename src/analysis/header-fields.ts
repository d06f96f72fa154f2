import { currenciesIn } from './codes.js';
import { scanDates, scannedDate } from './dates.js';
import { allSegments, belowOf, originalOffset, rightOf, type Doc, type Found } from './document.js';
import { tailOf, type Segment } from './layout.js';
import { HEADER_LABELS, type HeaderField } from './lexicon.js';
import { fold } from './text.js';

/**
 * Header fields announced by a label: the value sits behind the label in the same run of
 * text, in the next cell to the right, or in the cell below (forms with the label on top).
 */

type Kind = 'id' | 'ref' | 'date' | 'taxNumber' | 'currency';

const KIND: Readonly<Record<HeaderField, Kind>> = {
  invoiceNumber: 'id',
  issueDate: 'date',
  dueDate: 'date',
  deliveryDate: 'date',
  buyerReference: 'ref',
  orderReference: 'id',
  contractReference: 'id',
  customerNumber: 'id',
  taxNumber: 'taxNumber',
  currency: 'currency',
};

/** Words that are labels themselves, never an identifier's value. */
const NOT_AN_ID = /^(?:datum|date|vom|von|du|of|from|nr\.?|no\.?|number|nummer|page|seite|kunde|customer|client)$/i;

/** Where the value was relative to the label, and how much that position is worth. */
const PLACES: ReadonlyArray<['same' | 'right' | 'below', number]> = [
  ['same', 1],
  ['right', 0.95],
  ['below', 0.85],
];

export function parseValue(kind: Kind, text: string, doc: Doc, strictId: boolean): string | undefined {
  const t = text.trim();
  switch (kind) {
    case 'date': {
      // The date must open the value ("05.03.2018", "vom 05.03.2018"), not hide further on.
      const d = scanDates(t, doc.order)[0];
      if (d) return /^(?:\S{1,4}\s+)?$/.test(t.slice(0, d.start)) ? d.iso : undefined;
      return doc.source === 'ocr' ? scannedDate(t, doc.order) : undefined;
    }
    case 'currency':
      return currenciesIn(t)[0];
    case 'ref': {
      // Buyer references may be names or spaced numbers ("05 158 004 - 11023 - 45"): the whole short value.
      const v = t.replace(/^[(#:;,.\s]+/, '').trim();
      return v.length >= 2 && v.length <= 60 && !NOT_AN_ID.test(v) ? v : undefined;
    }
    case 'taxNumber':
      // The colon may open the value when the label's own segment ends before it ("Steuer-Nr   : 5133081508159").
      return /^[:\s]*(\d{2,3}\/\d{3,4}\/\d{4,5}|\d{10,13})(?![\d/])/.exec(t)?.[1];
    case 'id': {
      const token = t.replace(/^[(#:.\s]+/, '').split(/\s+/)[0]?.replace(/[.,;:)]+$/, '');
      // A one-character value is only an identifier when it is a digit ("Kundennummer:2").
      if (!token || (token.length < 2 && !/^\d$/.test(token)) || NOT_AN_ID.test(token)) return undefined;
      // A date is never the number it follows; "05.03.2018" after "Rechnung" is the date.
      if (scanDates(token, doc.order).some((d) => d.start === 0 && d.end === token.length)) return undefined;
      if (strictId && !/\d/.test(token)) return undefined;
      if (!/^[\p{L}\p{N}][\p{L}\p{N}./_\-]*$/u.test(token)) return undefined;
      return token;
    }
  }
}

/** Identifiers must contain a digit unless the label is specific to them (a buyer reference may be letters only). */
const STRICT: ReadonlySet<HeaderField> = new Set(['invoiceNumber', 'customerNumber', 'orderReference']);

export function findHeaderFields(doc: Doc): Map<HeaderField, Array<Found>> {
  const found = new Map<HeaderField, Found[]>();
  const add = (field: HeaderField, f: Found) => {
    const list = found.get(field) ?? [];
    list.push(f);
    found.set(field, list);
  };
  for (const seg of allSegments(doc)) {
    const folded = fold(seg.text);
    const hits = HEADER_LABELS.map((r) => ({ r, m: r.pattern.exec(folded) })).filter((h) => h.m !== null);
    // The most specific label wins: "Date of delivery" is a delivery date, not a bare "Date".
    const longest = Math.max(0, ...hits.filter((h) => !h.r.inline).map((h) => h.m![0].trimEnd().length));
    for (const { r, m } of hits) {
      if (!r.inline && m![0].trimEnd().length < longest) continue;
      const cut = originalOffset(seg.text, m!.index + m![0].length);
      const kind = KIND[r.field];
      for (const [place, factor] of PLACES) {
        // Inside running text the value follows the label directly.
        if (r.inline && place !== 'same') break;
        const source = valueSource(doc, seg, cut, place);
        if (!source) continue;
        // Inside running text a reference is one word: what follows is the sentence going on.
        const text = r.inline && kind === 'ref' ? source.text.trim().split(/\s+/)[0]! : source.text;
        const value = parseValue(kind, text, doc, STRICT.has(r.field));
        if (value === undefined) continue;
        const pageFactor = seg.page === 1 ? 1 : 0.9;
        const via = `${r.weight < 1 ? 'weak-' : ''}${r.inline ? 'inline' : `label:${place}`}`;
        add(r.field, { value, score: r.weight * factor * pageFactor, page: seg.page, y: source.top, via });
        break;
      }
    }
  }
  return found;
}

function valueSource(doc: Doc, seg: Segment, cut: number, place: 'same' | 'right' | 'below'): Segment | undefined {
  if (place === 'same') return cut < seg.text.length ? tailOf(seg, cut) : undefined;
  // A label with its value glued on has nothing more to say to its neighbours.
  if (cut < seg.text.length) return undefined;
  return place === 'right' ? rightOf(doc, seg) : belowOf(doc, seg);
}
