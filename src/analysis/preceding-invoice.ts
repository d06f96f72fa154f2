import { scanDates } from './dates.js';
import { rightOf, type Doc, type Found } from './document.js';
import { parseValue } from './header-fields.js';
import type { Line, Segment } from './layout.js';
import { fold } from './text.js';

/**
 * The invoices a correction or credit note refers to (BG-3): the number a label or sentence
 * announces ("for invoice No. 1234567889 from 12 Sep 2024", "Korrektur zur Rechnung Nr. 4711 vom
 * 01.02.2024") with the date printed after it; or the numbers and dates listed under a heading of
 * their own ("Vorausgegangene Rechnungen" / "Previous invoices" in the XRechnung visualisation),
 * whose labels are the invoice's own ("Rechnungsnummer:") and belong to that section.
 */
export interface PrecedingInvoice {
  number: Found;
  date?: Found;
}

const SECTION =
  /^(?:(?:vorausgegangene|vorherige|fruhere) rechnungen?|(?:previous|preceding) invoices?|factures? (?:precedentes?|anterieures?))$/;
const NUMBER_LABEL = /^(?:rechnungsnummer|invoice number|numero de (?:la )?facture)\s*:?\s*/;
const DATE_LABEL = /^(?:rechnungsdatum|invoice date|date de (?:la )?facture)\s*:?\s*/;
/** What leads from the number to its date in a sentence: "… 1234567889 from 12 Sep 2024". */
const DATE_LEAD = /^\s*,?\s*(?:vom|from|du|dated|of|del|van)\s+/i;
/** Lines a section of previous invoices runs over at most. */
const SECTION_LINES = 12;

export function findPrecedingInvoices(doc: Doc, labelled: Found | undefined, invoiceNumber: string | undefined): PrecedingInvoice[] {
  const listed = doc.pages.flatMap((p) =>
    p.lines.flatMap((l, i) => (isSectionHeading(l) ? sectionInvoices(doc, p.lines.slice(i + 1)) : [])),
  );
  if (listed.length) return listed;
  if (!labelled || labelled.value === invoiceNumber) return [];
  const date = dateAfter(doc, labelled);
  return [{ number: labelled, ...(date ? { date } : {}) }];
}

function isSectionHeading(line: Line): boolean {
  return line.segments.length === 1 && SECTION.test(fold(line.segments[0]!.text).trim());
}

/** The labelled numbers and dates below the heading, down to the first line that prints neither. */
function sectionInvoices(doc: Doc, below: readonly Line[]): PrecedingInvoice[] {
  const out: PrecedingInvoice[] = [];
  for (const line of below.slice(0, SECTION_LINES)) {
    const number = labelledValue(doc, line, NUMBER_LABEL, 'id');
    const date = labelledValue(doc, line, DATE_LABEL, 'date');
    if (!number && !date) break;
    if (number) out.push({ number, ...(date ? { date } : {}) });
    else if (out.length && !out.at(-1)!.date) out.at(-1)!.date = date;
  }
  return out;
}

function labelledValue(doc: Doc, line: Line, label: RegExp, kind: 'id' | 'date'): Found | undefined {
  for (const s of line.segments) {
    const m = label.exec(fold(s.text));
    if (!m) continue;
    const rest = s.text.slice(m[0].length).trim();
    const source: Segment | undefined = rest ? s : rightOf(doc, s);
    const value = source && parseValue(kind, rest || source.text, doc, true);
    if (value !== undefined) return { value, score: 1, page: s.page, y: s.top, via: 'section' };
  }
  return undefined;
}

/** The date a sentence prints after the number: "… No. 1234567889 from 12 Sep 2024", "… Nr. 4711 vom 01.02.2024". */
function dateAfter(doc: Doc, number: Found): Found | undefined {
  const page = doc.pages.find((p) => p.page === number.page);
  for (const line of page?.lines ?? []) {
    for (const s of line.segments) {
      const at = s.text.indexOf(number.value);
      if (at < 0 || Math.abs(s.top - number.y) > s.height) continue;
      const rest = s.text.slice(at + number.value.length);
      const lead = DATE_LEAD.exec(rest);
      const date = lead ? scanDates(rest.slice(lead[0].length), doc.order)[0] : undefined;
      if (date?.start === 0) return { value: date.iso, score: number.score, page: s.page, y: s.top, via: `${number.via}:date-after` };
    }
  }
  return undefined;
}
