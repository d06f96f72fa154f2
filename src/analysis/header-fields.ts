import { currenciesIn, documentTypeOf, INVOICE_TYPE_CODES } from './codes.js';
import { compactDate, scanDates, scannedDate } from './dates.js';
import { allSegments, belowOf, originalOffset, pageOf, rightOf, type Doc, type Found } from './document.js';
import { makeSegment, tailOf, type Line, type PageLayout, type Segment } from './layout.js';
import { HEADER_LABELS, OTHER_LABELS, PARTY_LABELS, type HeaderField } from './lexicon.js';
import { descendersLost, fold, joinWrapped, oneLetterMisread } from './text.js';

/**
 * Header fields announced by a label: the value sits behind the label in the same run of
 * text, in the next cell to the right, or in the cell below (forms with the label on top).
 */

type Kind = 'id' | 'ref' | 'date' | 'taxNumber' | 'currency' | 'code' | 'terms';

const KIND: Readonly<Record<HeaderField, Kind>> = {
  invoiceNumber: 'id',
  issueDate: 'date',
  dueDate: 'date',
  deliveryDate: 'date',
  buyerReference: 'ref',
  orderReference: 'id',
  yourReference: 'id',
  contractReference: 'id',
  customerNumber: 'id',
  taxNumber: 'taxNumber',
  currency: 'currency',
  typeCode: 'code',
  paymentTerms: 'terms',
  precedingInvoice: 'id',
};

/** Words that are labels themselves, never an identifier's value. */
const NOT_AN_ID = /^(?:datum|date|vom|von|du|of|from|nr\.?|no\.?|number|nummer|page|seite|kunde|customer|client)$/i;

/** What joins the two dates of a period. */
const RANGE = /^\s*(?:[-\u2013\u2014]|bis|to|until|au|al|tot)\s*$/i;

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
      // The date must open the value ("05.03.2018", "vom 05.03.2018"), not hide further on; and a
      // range ("01.09.13 - 30.09.13") is a period, whose start is no date of the label's.
      const [d, then] = scanDates(t, doc.order);
      if (then && d && RANGE.test(t.slice(d.end, then.start))) return undefined;
      if (d) return /^(?:\S{1,4}\s+)?$/.test(t.slice(0, d.start)) ? d.iso : undefined;
      return compactDate(t) ?? (doc.source === 'ocr' ? scannedDate(t, doc.order) : undefined);
    }
    case 'currency':
      return currenciesIn(t)[0];
    case 'code': {
      // The code opens the value, its name may follow in parentheses: "380 (Commercial invoice)",
      // or only their start where a narrow cell wraps the name ("389 (Self-billed" / "invoice)").
      const code = /^(\d{2,3})(?:\s*\(.*)?$/.exec(t)?.[1];
      return code && INVOICE_TYPE_CODES.has(code) ? code : undefined;
    }
    case 'terms': {
      // Free text as printed ("Zahlbar sofort ohne Abzug.", "14 Tage netto"): words, not a lone number or sign;
      // a colon or stray sign before them (".Bei Zahlung …") is no part of it.
      const v = t
        .replace(/^[^\p{L}\d]+/u, '')
        .replace(/\s+/g, ' ')
        .trim();
      // A text that ends with a colon is the next label ("Code für das Zahlungsmittel:"), never the terms; nor is a column heading.
      return v.length <= TERMS_MAX && /\p{L}{2}/u.test(v) && !v.endsWith(':') && !DESCRIPTION_HEADING.test(fold(v)) ? v : undefined;
    }
    case 'ref': {
      // Buyer references may be names or spaced numbers ("05 158 004 - 11023 - 45"): the whole short value.
      const v = t.replace(/^[(#:;,.\s]+/, '').trim();
      return v.length >= 2 && v.length <= 60 && !NOT_AN_ID.test(v) && !v.endsWith(':') ? v : undefined;
    }
    case 'taxNumber':
      // The colon may open the value when the label's own segment ends before it ("Steuer-Nr   : 5133081508159").
      // German tax numbers in groups ("201/113/40209", "123/456/789"), ten to thirteen digits, also printed in groups
      // ("044 241 601 03"), an Italian codice fiscale.
      const v = /^[:\s]*(\d{2,4}\/\d{3,4}\/\d{3,5}|(?:\d{2,5} ){0,4}\d{2,13}|[A-Z]{6}\d{2}[A-Z]\d{2}[A-Z]\d{3}[A-Z])(?![\d/A-Za-z])/.exec(
        t,
      )?.[1];
      const digits = v?.replace(/\D/g, '').length ?? 0;
      return v && (v.includes('/') || /^[A-Z]/.test(v) || (digits >= 10 && digits <= 13)) ? v : undefined;
    case 'id': {
      const token = t
        .replace(/^[(#:.\s]+/, '')
        .split(/\s+/)[0]
        ?.replace(/[.,;:)]+$/, '');
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

/**
 * A scan misreads a letter of a long label now and then ("Leistungedatum"), or every g of it
 * whose descender it lost ("Zahlunasbedinaunaen"). Where no label is read at the start of a
 * segment, its first word so repaired may be one, when every such repair names the same field.
 * The folded text keeps its length, so offsets into it hold.
 */
function labelAsPrinted(text: string): string {
  const folded = fold(text);
  const first = /^\p{L}{8,}/u.exec(folded)?.[0];
  if (!first || HEADER_LABELS.some((r) => r.pattern.exec(folded)?.index === 0)) return folded;
  const labelsAt = (t: string) => HEADER_LABELS.filter((r) => !r.inline && r.pattern.exec(t)?.index === 0);
  const rest = folded.slice(first.length);
  const fieldOf = (spelling: string) => {
    const fields = new Set(labelsAt(spelling + rest).map((r) => r.field));
    return fields.size === 0 ? undefined : fields.size === 1 ? [...fields][0]! : 'several fields';
  };
  const repaired = oneLetterMisread(first, fieldOf) ?? descendersLost(first, fieldOf);
  return repaired && repaired.value !== 'several fields' ? repaired.spelling + rest : folded;
}

/** Identifiers must contain a digit unless the label is specific to them (a buyer reference may be letters only). */
const STRICT: ReadonlySet<HeaderField> = new Set([
  'invoiceNumber',
  'customerNumber',
  'orderReference',
  'yourReference',
  'precedingInvoice',
]);

/** The page prints a label of this field somewhere, at a segment's start ("Lieferdatum:", "Date of supply"). */
export function printsLabel(doc: Doc, field: HeaderField): boolean {
  const rules = HEADER_LABELS.filter((r) => r.field === field && !r.inline);
  for (const seg of allSegments(doc)) if (rules.some((r) => r.pattern.exec(fold(seg.text))?.index === 0)) return true;
  return false;
}

/**
 * A label printed alone: the value of the label before it cannot be this (an info strip prints
 * labels side by side and the values in the row below).
 */
export function isLabel(text: string): boolean {
  const folded = fold(text).trim();
  if (folded === '') return false;
  const bare = folded.replace(/[:.#]+$/, '').trim();
  if (PARTY_LABELS.some(([, re]) => re.test(bare)) || OTHER_LABELS.test(bare)) return true;
  return HEADER_LABELS.some((r) => {
    if (r.inline) return false;
    const m = r.pattern.exec(folded);
    return m !== null && m[0].trimEnd().length >= folded.length;
  });
}

/** Separators that join several label/value pairs on one printed line ("USt-IdNr.: DE… · Steuernummer: 201/113/40209"). */
const SEPARATOR = /^[·•|\u2013\u2014-]$/u;

/** The pieces of a segment after each separator word, each as a segment of its own. */
function partsAfterSeparators(seg: Segment): Segment[] {
  const parts: Segment[] = [];
  let run: Segment['words'] | undefined;
  for (const w of seg.words) {
    if (SEPARATOR.test(w.text)) {
      if (run?.length) parts.push(makeSegment(seg.page, seg.line, run));
      run = [];
    } else run?.push(w);
  }
  if (run?.length) parts.push(makeSegment(seg.page, seg.line, run));
  return parts;
}

export function findHeaderFields(doc: Doc): Map<HeaderField, Array<Found>> {
  const found = new Map<HeaderField, Found[]>();
  const add = (field: HeaderField, f: Found) => {
    const list = found.get(field) ?? [];
    list.push(f);
    found.set(field, list);
  };
  for (const whole of allSegments(doc))
    for (const seg of [whole, ...partsAfterSeparators(whole)]) {
      // A piece after a separator holds its value in itself; its neighbours belong to the whole line.
      const inner = seg !== whole;
      const folded = doc.source === 'ocr' ? labelAsPrinted(seg.text) : fold(seg.text);
      const hits = HEADER_LABELS.map((r) => ({ r, m: r.pattern.exec(folded) })).filter((h) => h.m !== null);
      // The most specific label wins: "Date of delivery" is a delivery date, not a bare "Date".
      const longest = Math.max(0, ...hits.filter((h) => !h.r.inline).map((h) => h.m![0].trimEnd().length));
      // The words of a label that names another invoice are no label of this one's: "Korrektur zur Rechnung Nr. 4711 vom …".
      // (Only that label's: a title's loose pattern also spans "Rechnung zur Bestellung Nr. …", whose order label must stay.)
      const other = hits.find((h) => !h.r.inline && h.r.field === 'precedingInvoice' && h.m![0].trimEnd().length === longest);
      for (const { r, m } of hits) {
        if (!r.inline && m![0].trimEnd().length < longest) continue;
        if (r.inline && other && m!.index < longest) continue;
        const cut = originalOffset(seg.text, m!.index + m![0].length);
        const kind = KIND[r.field];
        // A terms label opening the paragraph of a table of terms is the terms' own first words: the table is read whole from its heading.
        if (kind === 'terms' && m!.index === 0 && underTermsHeadings(doc, seg)) continue;
        for (const [place, factor] of PLACES) {
          // Inside running text the value follows the label directly.
          if ((r.inline || inner) && place !== 'same') break;
          const pageFactor = seg.page === 1 ? 1 : 0.9;
          if (kind === 'terms' && place === 'below' && cut >= seg.text.length) {
            const table = termsUnderHeadings(doc, seg);
            const value = table && parseValue('terms', table.text, doc, false);
            if (table && value !== undefined) {
              add(r.field, { value, score: r.weight * factor * pageFactor, page: table.page, y: table.top, via: 'label:table' });
              break;
            }
          }
          const source = valueSource(doc, seg, cut, place);
          if (!source) continue;
          // A label is never a value: beside a label in an info strip stands the next label.
          if (place !== 'same' && isLabel(source.text)) continue;
          if (place === 'right' && inStrip(doc, seg, source)) continue;
          // Inside running text a reference is one word: what follows is the sentence going on.
          const text =
            r.inline && kind === 'ref'
              ? source.text.trim().split(/\s+/)[0]!
              : kind === 'terms'
                ? brokenLabelTerms(doc, seg, cut, source)
                : kind === 'ref' && place === 'right'
                  ? withWrappedRest(doc, seg, source)
                  : source.text;
          const value = parseValue(kind, text, doc, STRICT.has(r.field));
          if (value === undefined) continue;
          const via = `${r.weight < 1 ? 'weak-' : ''}${r.inline ? 'inline' : `label:${place}`}`;
          add(r.field, { value, score: r.weight * factor * pageFactor * (inner ? 0.95 : 1), page: seg.page, y: source.top, via });
          break;
        }
      }
    }
  for (const f of numbersUnderTitles(doc)) add('invoiceNumber', f);
  for (const seg of allSegments(doc)) {
    if (!TERMS_SENTENCE.test(fold(seg.text).replace(/^[^\p{L}\d]+/u, ''))) continue;
    const value = parseValue('terms', termsText(doc, seg, seg), doc, false);
    if (value !== undefined) add('paymentTerms', { value, score: 0.8, page: seg.page, y: seg.top, via: 'sentence' });
  }
  return found;
}

/**
 * A reference set flush right beside its label, broken over two lines ("Ihre Referenz
 * Lieferantengutschrift" / "Oktober"): the line right under it that ends where it ends, with no
 * label of its own beside it, goes on with it.
 */
function withWrappedRest(doc: Doc, label: Segment, value: Segment): string {
  const below = pageOf(doc, value.page).lines[value.line + 1];
  const rest = below?.segments.find(
    (o) => Math.abs(o.x1 - value.x1) < 0.5 * value.height && o.x0 >= value.x0 - value.height && o.top - value.bottom < 0.6 * value.height,
  );
  if (!below || !rest || below.segments.some((o) => o !== rest && o.x1 > label.x0 - value.height && o.x0 < rest.x0)) return value.text;
  return `${value.text.trim()} ${rest.text.trim()}`;
}

/** A number label standing alone at the start of a line: "N° FA-2026-0001". */
const BARE_NUMBER_LABEL = /^(?:n°|nº|no\.|nr\.|#|numero|nummer|number)\s*:?\s*/;

/**
 * The title and its number on two lines ("FACTURE" / "N° FA-2026-0001") say what "Facture n°
 * FA-2026-0001" says on one: the bare label under a lone title is the invoice number's.
 */
function numbersUnderTitles(doc: Doc): Found[] {
  const out: Found[] = [];
  for (const title of allSegments(doc)) {
    if (documentTypeOf(title.text) === undefined || title.text.trim().split(/\s+/).length > 2) continue;
    const below = belowOf(doc, title);
    const label = below && BARE_NUMBER_LABEL.exec(fold(below.text));
    if (!below || !label) continue;
    const value = parseValue('id', below.text.slice(originalOffset(below.text, label[0].length)), doc, true);
    if (value !== undefined) out.push({ value, score: 0.9, page: below.page, y: below.top, via: 'title-below' });
  }
  return out;
}

/**
 * Payment terms printed as a sentence of their own, without a label: "Zahlbar sofort rein netto", "Die Rechnung ist zahlbar
 * zum 25.02.2025", "Bei Zahlung innerhalb
 * 14 Tagen 2 % Skonto", and the late-payment and discount terms French invoices must print ("Tout retard de paiement …").
 */
const TERMS_SENTENCE =
  /^(?:(?:die rechnung|der (?:rechnungs)?betrag) ist )?(?:zahlbar (?:sofort|innerhalb|binnen|ohne|netto|rein|nach|bis|zum|am|spatestens)|bei zahlung (?:innerhalb|binnen|bis)|payable (?:within|immediately|upon|on receipt|net)|payment (?:is )?due (?:within|upon|on receipt|immediately)|due (?:upon|on) receipt|paiement (?:a|des) reception|payable a reception|tout retard de paiement|aucun escompte|pas d'escompte)\b/;

/**
 * Terms printed over several lines ("30% advance payment," / "balance at 30 days"): the lines
 * below that start where the value or its label starts belong to it, until a sentence ends; in a
 * form's value column, down to the next label.
 */
function termsText(doc: Doc, label: Segment, value: Segment): string {
  let text = value.text.trim();
  let last = value;
  for (let more = 0; more < FORM_LINES; more++) {
    const next = termsLineAfter(doc, label, value, last);
    if (!next || !termsGoOn(doc, { label, value, text, last, next, more })) break;
    text = `${text} ${next.text.trim()}`;
    last = next;
  }
  return text;
}

/**
 * The next line that has text there (a date printed in another column may stand between). Not
 * the value of a label of its own line ("Fälligkeitsdatum:  15.6.2016" under the terms), unless
 * that label is the end of one wrapped over lines.
 */
function termsLineAfter(doc: Doc, label: Segment, value: Segment, last: Segment): Segment | undefined {
  return linesAfter(doc, last)
    .map((line) => {
      const o = line.segments.find((o) => Math.abs(o.x0 - value.x0) < value.height || Math.abs(o.x0 - label.x0) < value.height);
      return o && !line.segments.some((l) => l.x1 <= o.x0 && l.text.trim().endsWith(':') && !endsWrappedLabel(doc, l)) ? o : undefined;
    })
    .find((o) => o !== undefined);
}

interface TermsLine {
  label: Segment;
  value: Segment;
  text: string;
  last: Segment;
  next: Segment;
  more: number;
}

function termsGoOn(doc: Doc, { label, value, text, last, next, more }: TermsLine): boolean {
  if (/^[^:]{1,30}:/.test(next.text)) return false;
  const ended = /[.!?]$/.test(text);
  // In a form, the lines of the value column under the value, with no label beside them, are the value's, sentence after
  // sentence; a word that is also a label's goes on a sentence not yet ended ("Erhalt der" / "Rechnung.").
  const labelColumn = formLabels(doc, value);
  const labels = value.x0 > label.x0 + 2 * value.height ? label.x0 : labelColumn;
  const form =
    labels !== undefined &&
    Math.abs(next.x0 - value.x0) < value.height &&
    (next.x0 === lineStart(doc, next) || onlyLabelsLeftOf(doc, next, labelColumn));
  if (isLabel(next.text) && (!form || ended)) return false;
  if (form) return true;
  // Elsewhere terms go on after a comma, in a word that cannot start a sentence, or with more days, dates or rates; a line
  // without figures that starts anew ("Bank-/Steuerinformationen", "Es bestehen Bonusvereinbarungen.") is something else.
  const goesOn = /[,;\-–]$/.test(text) || /^[\p{Ll}\d]/u.test(next.text.trim()) || /\d/.test(next.text);
  return more < 2 && !ended && goesOn && !isTableRow(doc, last);
}

/** The next two lines under a segment; atop the next page where the page ends with it (a value a printed HTML page cut). */
function linesAfter(doc: Doc, seg: Segment): Line[] {
  const page = pageOf(doc, seg.page);
  if (seg.line + 1 < page.lines.length)
    return page.lines.slice(seg.line + 1, seg.line + 3).filter((line) => line.top - seg.bottom < 2.5 * seg.height);
  const next = doc.pages.find((p) => p.page === seg.page + 1);
  return next ? next.lines.slice(0, 2).filter((line) => line.top < PAGE_TOP * next.height) : [];
}

/** Where a page's first lines stand, as a share of its height. */
const PAGE_TOP = 0.15;

/** "Skonto; weitere" / "Zahlungsbed.:": the colon ends a label wrapped over lines, whose value runs on beside it. */
function endsWrappedLabel(doc: Doc, label: Segment): boolean {
  // A line of another column may stand between ("Kartennummer:" beside them).
  const above = pageOf(doc, label.page)
    .lines.slice(Math.max(0, label.line - 2), label.line)
    .flatMap((line) => line.segments)
    .filter((o) => Math.abs(o.x0 - label.x0) < label.height && label.top - o.bottom < label.height);
  return above.length > 0 && above.every((o) => !o.text.trim().endsWith(':'));
}

/**
 * The segment's line prints a figure in a column right of it ("Zahlbar ohne Abschlag bis   20.11.2018"):
 * a row of a table of terms, each row a term of its own, and the row below another.
 */
const isTableRow = (doc: Doc, seg: Segment) =>
  pageOf(doc, seg.page).lines[seg.line]!.segments.some((o) => o.x0 > seg.x1 + 2 * seg.height && /\d/.test(o.text));

/** How many lines below a value's first its form's label may end, wrapped over lines itself. */
const FORM_REACH = 6;

/**
 * Where the labels of a form stand whose value column holds the segment: a label ending in a colon
 * left of it, within a few lines ("Skonto; weitere" / "Zahlungsbed.:" set beside a value wrapped
 * in a narrow cell). None for a segment of running text.
 */
function formLabels(doc: Doc, seg: Segment): number | undefined {
  // A label of the rows above belongs to a field of its own; a colon alone is a scan's speck.
  const lines = pageOf(doc, seg.page).lines.slice(Math.max(0, seg.line - 1), seg.line + FORM_REACH + 1);
  return lines.flatMap((l) => l.segments).find((o) => o.x1 < seg.x0 && /\p{L}{2}[^:]*:$/u.test(o.text.trim()))?.x0;
}

/** Nothing stands left of the segment on its line but the form's label column (a label wrapped over lines). */
function onlyLabelsLeftOf(doc: Doc, seg: Segment, labels: number | undefined): boolean {
  const left = pageOf(doc, seg.page).lines[seg.line]!.segments.filter((o) => o.x1 <= seg.x0);
  return labels !== undefined && left.every((o) => Math.abs(o.x0 - labels) < seg.height);
}

/** The most lines a value in a form runs over. */
const FORM_LINES = 8;

/** Where the text of a segment's line starts. */
const lineStart = (doc: Doc, seg: Segment) => pageOf(doc, seg.page).lines[seg.line]!.segments[0]!.x0;

/** Longer is no payment term but the page's small print. */
const TERMS_MAX = 500;

/** The heading of the first column of a table of terms: the terms are written under it. */
const DESCRIPTION_HEADING = /^(?:beschreibung|bezeichnung|text|description|libelle|descrizione|omschrijving)$/;

/**
 * Terms printed as a table under their heading ("Zahlungsbedingungen:" over "Beschreibung
 * Fälligkeit  Teilzahlung", the text under them): the row of column headings is no value, the
 * paragraph in the first column is, also after a page break that repeats the headings. Whole
 * sentences only, as many as fit.
 */
function termsUnderHeadings(doc: Doc, label: Segment): { text: string; page: number; top: number } | undefined {
  const start = headingsUnder(doc, label);
  if (!start) return undefined;
  const { headings } = start;
  let { page, i } = start;
  const repeated = (line: Line | undefined) =>
    line !== undefined && line.segments.map((s) => s.text).join('|') === headings.segments.map((s) => s.text).join('|');
  let above: Line | undefined = headings;
  if (i >= page.lines.length) {
    const next = doc.pages.find((p) => p.page === page.page + 1);
    if (!next) return undefined;
    page = next;
    i = 0;
    above = undefined;
  }
  // A page break repeats the headings (sometimes twice).
  while (repeated(page.lines[i])) above = page.lines[i++];
  // The first column ends where the second heading starts.
  const columnEnd = headings.segments[1]!.x0;
  const parts: string[] = [];
  let top: number | undefined;
  for (; i < page.lines.length; i++) {
    const line = page.lines[i]!;
    // The paragraph ends at the first wider gap; the first line may stand a little apart from the headings.
    if (above && line.top - above.bottom > (parts.length ? 1 : 3) * line.height) break;
    const cells = line.segments.filter((s) => s.x1 <= columnEnd);
    // A heading set right under the paragraph's last sentence ("Steueraufschlüsselung:") opens the next section.
    // (A line of a sentence may end in a colon too: "… bitte auf" / "folgende Bankverbindung:".)
    const heading = line.segments.length === 1 && /^\S+(?:\s\S+){0,2}:$/.test(line.segments[0]!.text.trim());
    if (heading && /[.!?]$/.test(parts.at(-1) ?? '')) break;
    // The next table's headings ("Abschläge  Bezug  Innerhalb  Basisbetrag") end it.
    if (line.segments.length >= 3 && line.segments.every((s) => !/\d/.test(s.text))) break;
    // A line with only the other columns' values (the due date beside the paragraph) is passed over.
    if (cells.length === 0) {
      if (parts.length === 0 || line.segments.length === 0) break;
      above = line;
      continue;
    }
    top ??= line.top;
    parts.push(...cells.map((s) => s.text));
    above = line;
    if (parts.join(' ').length > TERMS_MAX) break;
  }
  const text = wholeSentences(joinWrapped(parts).replace(/\s+/g, ' ').trim(), TERMS_MAX);
  return text && top !== undefined ? { text, page: page.page, top } : undefined;
}

/**
 * The row of a table of terms' column headings ("Beschreibung  Fälligkeit  Teilzahlung") under
 * their label, on its page or, where the label ends a page, atop the next; with where the
 * paragraph under them starts.
 */
function headingsUnder(doc: Doc, label: Segment): { headings: Line; page: PageLayout; i: number } | undefined {
  const here = pageOf(doc, label.page);
  const next = doc.pages.find((p) => p.page === label.page + 1);
  const last = label.line + 1 >= here.lines.length;
  const [page, headings] = last ? [next, next?.lines[0]] : [here, here.lines[label.line + 1]];
  if (!page || !isTermsHeadings(headings)) return undefined;
  if (!last && headings.top - label.bottom > 3 * label.height) return undefined;
  return { headings, page, i: last ? 1 : label.line + 2 };
}

/** A row of a table of terms' column headings ("Beschreibung  Fälligkeit  Teilzahlung"). */
const isTermsHeadings = (line: Line | undefined): line is Line =>
  line !== undefined && line.segments.length >= 2 && DESCRIPTION_HEADING.test(fold(line.segments[0]!.text).replace(/:$/, ''));

/** The segment starts the first line under a table of terms' column headings. */
const underTermsHeadings = (doc: Doc, seg: Segment) => isTermsHeadings(pageOf(doc, seg.page).lines[seg.line - 1]);

/** The sentences of `text` that fit into `max` characters; all of it when it fits. */
function wholeSentences(text: string, max: number): string | undefined {
  if (text.length <= max) return text;
  const end = text.slice(0, max + 1).search(/[.!?](?=\s)(?!.*[.!?]\s)/s);
  return end > 0 ? text.slice(0, end + 1) : undefined;
}

/**
 * A label in a strip of labels (small labels over their larger values): the segment beside it is
 * the next label, not this one's value.
 */
function inStrip(doc: Doc, label: Segment, right: Segment): boolean {
  // A small label over a larger value, aligned on the left.
  const heads = (s: Segment) => {
    const below = belowOf(doc, s);
    return below !== undefined && Math.abs(below.x0 - s.x0) < s.height && below.height > 1.1 * s.height;
  };
  // The neighbour is printed like the label and heads a value of its own the same way.
  return Math.abs(right.height - label.height) <= 0.05 * label.height && heads(label) && heads(right);
}

function valueSource(doc: Doc, seg: Segment, cut: number, place: 'same' | 'right' | 'below'): Segment | undefined {
  if (place === 'same') return cut < seg.text.length ? tailOf(seg, cut) : undefined;
  // A label with its value glued on has nothing more to say to its neighbours.
  if (cut < seg.text.length) return undefined;
  if (place === 'right') {
    // A label a narrow column broke in two may have its value beside its first line only, the next label beside its second.
    const right = rightOf(doc, seg);
    const broken = seg.text.trim().endsWith(':') && (!right || right.text.trim().endsWith(':')) ? labelStart(doc, seg) : undefined;
    return broken ?? right;
  }
  const below = belowOf(doc, seg);
  return below && withinColumn(doc, seg, below);
}

/** Terms beside their label, from the label's first line where a narrow label column broke it in two. */
function brokenLabelTerms(doc: Doc, label: Segment, cut: number, value: Segment): string {
  const rest = termsText(doc, label, value);
  // (A value found beside the label's first line already starts there.)
  if (value.line !== label.line || !label.text.slice(0, cut).trim().endsWith(':')) return rest;
  const head = labelStart(doc, label, value);
  return head ? `${head.text.trim()} ${rest}` : rest;
}

/**
 * The value beside the first line of a label a narrow label column broke in two ("Skonto;
 * weitere" / "Zahlungsbedingungen:  bitte bis …"): the line above, right over the label, goes on
 * with it where it is no label itself and ends without a colon, and its value stands in the
 * column of the label's own.
 */
function labelStart(doc: Doc, label: Segment, value?: Segment): Segment | undefined {
  const above = pageOf(doc, label.page).lines[label.line - 1];
  if (!above || label.top - above.bottom > 0.6 * label.height) return undefined;
  const start = above.segments.find((o) => Math.abs(o.x0 - label.x0) < label.height && o.x1 < (value?.x0 ?? label.x1));
  if (!start || /:\s*$/.test(start.text) || isLabel(start.text)) return undefined;
  const head = rightOf(doc, start);
  if (!head) return undefined;
  return (value ? Math.abs(head.x0 - value.x0) < label.height : head.x0 > label.x1) ? head : undefined;
}

/**
 * In a grid of labels over values, a long value can run up to the next column's value with no
 * wider gap than a word space ("90000000-03083-72 Tim Tester" under "Buyer reference" and
 * "Contact"): the value below a label ends where the next label on the label's line begins.
 */
function withinColumn(doc: Doc, label: Segment, value: Segment): Segment | undefined {
  const next = pageOf(doc, label.page)
    .lines[label.line]!.segments.filter((o) => o.x0 > label.x1)
    .reduce<Segment | undefined>((a, o) => (a === undefined || o.x0 < a.x0 ? o : a), undefined);
  if (!next) return value;
  const words = value.words.filter((w) => w.x < next.x0 - 0.25 * label.height);
  return words.length === value.words.length ? value : words.length ? makeSegment(value.page, value.line, words) : undefined;
}
