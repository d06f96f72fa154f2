import { countryOfLine } from './codes.js';
import { pageOf, rightOf, type Doc } from './document.js';
import type { Line, Segment } from './layout.js';
import { KEY_VALUE_PARTY_LABELS, type KeyValuePartyField } from './lexicon.js';
import { boxOf, parseAddress, parseCityLine, type Parties, type Party } from './parties.js';
import type { Heading } from './sections.js';
import { clean, fold, joinWrapped } from './text.js';

/**
 * Parties of key–value renderings: under a party heading ("Verkäufer", "Informationen zum
 * Käufer") a column of labels ending in a colon, each with its value far to the right
 * ("Name:  …  Test Company", "PLZ:  …  12345"). The address-block rules read such a section as
 * an address and take "Name:" for the name; here each row is read by its label.
 */

interface Row {
  label: string;
  values: string[];
  segments: Segment[];
}

/** Rows of a section further apart than this, in text heights, end it. */
const SECTION_GAP = 2.6;

/** The same for a labelled row: a form printed from HTML sets its rows three text heights apart. */
const FORM_ROW_GAP = 4;

export function keyValueParties(doc: Doc, headings: readonly Heading[]): Parties {
  const out: Parties = {};
  for (const h of headings) {
    if (h.rest !== '' || out[h.role]) continue;
    const party = partyOfRows(rowsUnder(doc, h, headings));
    if (party) out[h.role] = party;
  }
  return out;
}

/**
 * The label–value rows under a heading, down to a wide gap or the next heading. A line holding
 * only a value goes with the row above ("DE 55232 Teststadt" under the street), or with the row
 * below where it stands nearer to that one: a name of two lines is set around its label
 * ("Herrn" / "Name:  Max Mustermann", or "Beispielmieter" / "Name:" / "GmbH" where the label
 * stands alone between them).
 */
function rowsUnder(doc: Doc, h: Heading, headings: readonly Heading[]): Row[] {
  const page = pageOf(doc, h.segment.page);
  const column = columnOf(h, headings);
  const lines = page.lines.slice(h.segment.line + 1).map((line) => ({ ...line, segments: line.segments.filter(column) }));
  const rows: Row[] = [];
  let pending: Segment[] = [];
  let last = page.lines[h.segment.line]!;
  for (let k = 0; k < lines.length; k++) {
    const line = lines[k]!;
    // A line of the other column only: this one's gap is measured from it.
    if (line.segments.length === 0) {
      last = line;
      continue;
    }
    const pairs = labelledPairs(doc, h, line, column);
    const labels = labelsOnly(h, line);
    const gap = pairs.length > 0 || labels ? FORM_ROW_GAP : SECTION_GAP;
    if (line.top - last.bottom > gap * line.height || startsSection(line, headings, pairs)) break;
    last = line;
    // The line's one segment: a label alone, or a value alone.
    const only = line.segments.length === 1 ? line.segments[0]! : undefined;
    if (labels) {
      // The viewer's HTML prints a label with no value where the XML has none ("Adresszusatz:").
      const below = only ? straddling(h, only, lines.slice(k + 1)) : [];
      const values = [...pending, ...below];
      if (only && values.length > 0) rows.push({ label: only.text, values: values.map((s) => s.text), segments: [only, ...values] });
      pending = [];
      k += below.length;
      last = lines[k]!;
    } else if (pairs.length > 0) {
      pairs[0]!.values.unshift(...pending.map((s) => s.text));
      pairs[0]!.segments.push(...pending);
      pending = [];
      rows.push(...pairs);
    } else if (only && (rows.length === 0 ? only.x0 - h.segment.x0 > 3 * only.height : continues(rows.at(-1)!, line))) {
      const next = lines.slice(k + 1).find((l) => l.segments.length > 0);
      if (nearerBelow(doc, h, line, next, rows.at(-1), column)) pending.push(only);
      else if (rows.length > 0) {
        rows.at(-1)!.values.push(only.text);
        rows.at(-1)!.segments.push(only);
      } else break;
    } else break;
  }
  return rows;
}

/** The lines holding only a value that a label alone on its line reaches down to: they begin before its text ends. */
function straddling(h: Heading, label: Segment, below: readonly Line[]): Segment[] {
  const out: Segment[] = [];
  for (const line of below) {
    const [value, more] = line.segments;
    if (!value || more || value.x0 - h.segment.x0 <= 3 * value.height || line.top > label.bottom) break;
    out.push(value);
  }
  return out;
}

/**
 * The segments of a heading's section: those from its left edge on, up to the next party heading
 * on its line. The XRechnung viewer's HTML sets "Informationen zum Käufer" and "… zum Verkäufer"
 * side by side, each over its own column of labels.
 */
function columnOf(h: Heading, headings: readonly Heading[]): (s: Segment) => boolean {
  const beside = headings.filter(
    (o) => o.segment.page === h.segment.page && o.segment.line === h.segment.line && o.segment.x0 > h.segment.x1,
  );
  const end = Math.min(Infinity, ...beside.map((o) => o.segment.x0));
  return (s) => s.x0 >= h.segment.x0 - 3 * s.height && s.x0 < end;
}

/** A row of labels alone, at the heading's edge: fields the invoice leaves empty, or whose values are set around them. */
function labelsOnly(h: Heading, line: Line): boolean {
  const first = line.segments[0];
  return (
    first !== undefined && Math.abs(first.x0 - h.segment.x0) < 3 * first.height && line.segments.every((s) => /:$/.test(s.text.trim()))
  );
}

function labelledPairs(doc: Doc, h: Heading, line: Line, column: (s: Segment) => boolean): Row[] {
  const first = line.segments[0];
  return first && Math.abs(first.x0 - h.segment.x0) < 3 * first.height ? pairsOf(doc, line, column) : [];
}

/** The value-only line stands nearer to the labelled line below it than to the row above (its lowest line: an address runs over several). */
function nearerBelow(
  doc: Doc,
  h: Heading,
  line: Line,
  next: Line | undefined,
  above: Row | undefined,
  column: (s: Segment) => boolean,
): boolean {
  if (!next || (labelledPairs(doc, h, next, column).length === 0 && !labelsOnly(h, next))) return false;
  // By centres: a scan's boxes are of uneven height.
  const centre = (o: { top: number; bottom: number }) => (o.top + o.bottom) / 2;
  const lowest = above && Math.max(...above.segments.map(centre));
  return lowest === undefined || centre(next) - centre(line) < centre(line) - lowest - 0.25 * line.height;
}

/** "Name:  Untertänigster Leistungsempfänger   Ländercode:  DE" (or "Name: ACME GmbH" in one): each label with the value to its right; none unless the line starts with one. */
function pairsOf(doc: Doc, line: Line, column: (s: Segment) => boolean): Row[] {
  const rows: Row[] = [];
  for (const label of line.segments) {
    const inline = /^(.{1,40}?)\s*:\s*(.+)$/.exec(label.text);
    if (inline && !/:$/.test(label.text)) rows.push({ label: inline[1]!, values: [inline[2]!], segments: [label, label] });
    if (!/:$/.test(label.text)) continue;
    const value = rightOf(doc, label);
    if (!value || !column(value) || /:$/.test(value.text)) continue;
    rows.push({ label: label.text, values: [value.text], segments: [label, value] });
  }
  return rows[0]?.segments[0] === line.segments[0] ? rows : [];
}

/** A heading on the line starts the next section; a value beside its label does not, though it reads as one ("Firmenname:  Rechnungssteller"). */
function startsSection(line: Line, headings: readonly Heading[], pairs: readonly Row[]): boolean {
  const values = new Set(pairs.flatMap(({ segments: [label, value] }) => (value !== label ? [value] : [])));
  return headings.some((o) => line.segments.includes(o.segment) && !values.has(o.segment));
}

/** A line holding only a value under the row's value column: the row's value goes on ("DE 55232 Teststadt" under the street). */
function continues(row: Row, line: Line): boolean {
  const value = row.segments[1]!;
  return line.segments.length === 1 && Math.abs(line.segments[0]!.x0 - value.x0) < value.height;
}

function fieldOf(label: string): KeyValuePartyField | undefined {
  const bare = fold(label).replace(/[:.\s]+$/, '');
  return KEY_VALUE_PARTY_LABELS.find(([, re]) => re.test(bare))?.[0];
}

/** A party from its rows; none unless the rows are a key–value rendering's (two labelled rows at least, one of them the name or the address). */
function partyOfRows(rows: Row[]): Party | undefined {
  if (rows.length < 2) return undefined;
  const by = new Map<KeyValuePartyField, string[]>();
  for (const r of rows) {
    const f = fieldOf(r.label);
    if (f && !by.has(f)) by.set(f, r.values.map(clean));
  }
  const joined = (field: KeyValuePartyField) => unwrap(by.get(field));
  const [name, street, address] = [joined('name'), joined('street'), by.get('address')];
  if (name === undefined && street === undefined && address === undefined) return undefined;
  const parsed = address ? parseAddress(address, true) : undefined;
  const line1 = street ?? parsed?.line1 ?? (address && parseCityLine(address[0]!) === undefined ? address[0] : undefined);
  const line2 = joined('line2') ?? parsed?.line2;
  const postcode = by.get('postcode')?.[0] ?? parsed?.postcode;
  const city = joined('city') ?? parsed?.city;
  const printed = by.get('country')?.[0];
  const country = (printed === undefined ? undefined : countryOfLine(printed)) ?? parsed?.country;
  // An identifier printed with its scheme is a global one (a GLN under 0088), which the reading
  // does not carry the scheme of; and one over two lines may be two identifiers, or one wrapped.
  const ids = by.get('identifier');
  const identifier = ids?.length === 1 && !by.has('scheme') ? ids[0] : undefined;
  return {
    ...(name ? { name } : {}),
    ...(line1 ? { line1 } : {}),
    ...(line2 ? { line2 } : {}),
    ...(postcode ? { postcode } : {}),
    ...(city ? { city } : {}),
    ...(country ? { country } : {}),
    ...(identifier ? { identifier } : {}),
    score: 0.95,
    via: 'key-value',
    ...boxOf(rows.flatMap((r) => r.segments)),
  };
}

/** One field's value wrapped over lines, whole again: "Liselotte Müller-" / "Lüdenscheidt" is one name, its hyphen printed. */
function unwrap(lines: readonly string[] | undefined): string | undefined {
  return lines && lines.length > 0 ? joinWrapped(lines) : undefined;
}
