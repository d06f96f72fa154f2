import { Decimal } from '../invoice/decimal.js';
import { amountCurrenciesIn, currenciesIn, PRINTED_CATEGORY, printedCategory, vatCategoryOf } from './codes.js';
import { scanDates } from './dates.js';
import { lineText, type Doc, type Found } from './document.js';
import type { Line, Segment } from './layout.js';
import { TOTAL_LABELS, type TotalField } from './lexicon.js';
import { scanNumbers, type NumberMatch } from './numbers.js';
import { fold } from './text.js';
import { labelledVatRows } from './labelled-breakdown.js';

/**
 * Candidates for the document totals and the VAT breakdown, read from every line outside the
 * item table. Each amount is labelled by the words printed before it; the VAT breakdown rows
 * are recognised by their arithmetic (base × rate = tax) rather than by their labels, which
 * vary far more than the multiplication does.
 */

export interface VatRow {
  rate: string;
  base: string;
  tax: string;
  category?: string;
  page: number;
  y: number;
  /** The row's base and tax appeared with a VAT word on the line, not just as numbers that multiply out. */
  labelled: boolean;
}

/** "TVA 20 % 370,92": a rate with its tax but no base printed (single-rate invoices). */
export interface RateTax {
  rate: string;
  tax: string;
  category?: string;
}

export interface TotalsCandidates {
  fields: Map<TotalField, Found[]>;
  vatRows: VatRow[];
  rateTaxes: RateTax[];
  /** Breakdown lines whose rate is legible but whose amounts are not (a scan misread "19,25" as "19725"). */
  openRates: Array<Omit<RateTax, 'tax'>>;
  /** Currency codes or symbols printed beside amounts, in order. */
  currencies: string[];
}

interface Cell {
  seg: Segment;
  num: NumberMatch;
}

/** Amounts with an explicit money form: two (or more) decimals, or a currency symbol. */
function isMoney(n: NumberMatch): boolean {
  return !n.percent && (n.decimals >= 2 || n.symbol !== undefined);
}

/** VAT rates that exist in Europe (and a few beyond): an unmarked number is only read as a rate if it is one of these. */
export const KNOWN_RATES: ReadonlySet<string> = new Set([
  '0',
  '2.1',
  '2.5',
  '3',
  '3.7',
  '3.8',
  '4',
  '5',
  '5.5',
  '6',
  '7',
  '7.7',
  '8',
  '8.1',
  '9',
  '10',
  '12',
  '13',
  '14',
  '15',
  '16',
  '17',
  '18',
  '19',
  '20',
  '21',
  '22',
  '23',
  '24',
  '25',
  '26',
  '27',
]);

export function numbersOfLine(doc: Doc, line: Line): Cell[] {
  const cells: Cell[] = [];
  for (const seg of line.segments) {
    const dates = scanDates(seg.text, doc.order);
    for (const num of scanNumbers(seg.text, doc.mark)) {
      if (dates.some((d) => d.start < num.end && num.start < d.end)) continue;
      cells.push({ seg, num });
    }
  }
  return cells;
}

/**
 * The words printed before an amount: its own segment's text up to it, else the nearest text
 * segments to its left. Only the last clause counts ("TVA : FR… - SIRET : … - capital de"
 * is about capital, not VAT).
 */
function labelOf(line: Line, cell: Cell, since: number): string {
  // A currency code set before the amount ("Total net   EUR 44,682.01") is no label of it.
  const own = cell.seg.text
    .slice(0, cell.num.start)
    .replace(/[-+\d.,%€$£\s]+$/, '')
    .replace(/(?<![A-Za-z])[A-Z]{3}$/, (code) => (currenciesIn(code).length ? '' : code));
  const ownLabel = fold(own)
    .replace(/[\d.,%€$£]+/g, ' ')
    .trim();
  let label = ownLabel;
  if (!/\p{L}{2}/u.test(ownLabel)) {
    const left = line.segments.filter((s) => s.x1 <= cell.seg.x0 + 1 && s.x0 >= since);
    const words: string[] = [];
    for (let i = left.length - 1; i >= 0 && words.length < 2; i--) {
      const t = fold(left[i]!.text)
        .replace(/[-+]?[\d.,]+\s*(?:%|€|\$|£)?/g, ' ')
        .trim();
      if (/\p{L}{2}/u.test(t)) words.unshift(t);
    }
    label = words.join(' ');
  }
  return (label.split(/\s[-|•·]\s|;/).at(-1) ?? '').slice(-40).trim();
}

/**
 * Unit prices ("Bruttopreis", "Einzelpreis", "unit price") are never document totals, nor are
 * rates printed with two decimals ("Umsatzsteuersatz des Nachlasses  7.00").
 */
const NOT_AN_AMOUNT = /preis\b|price\b|prix\b|einzel|per unit|pro stuck|\/stk|(?:steuer|prozent|mwst|ust|zins)satz\b/;

/**
 * "Summe Nachlässe | netto", "Gesamtsumme | brutto": a net or gross word set after the label
 * (the XRechnung viewer prints it in a column of its own) says how the amount is counted, not
 * what it totals; it settles only a label that names no more than a sum.
 */
const QUALIFIED = /^(.*\p{L}.*?)\s+(netto|brutto|net|gross)$/u;

export function classifyTotal(label: string): TotalField[] {
  if (NOT_AN_AMOUNT.test(label)) return [];
  const [, named, counted] = QUALIFIED.exec(label) ?? [];
  if (named !== undefined) {
    const fields = classifyLabel(named);
    if (fields.length === 1 && fields[0] === 'grossTotal') return counted!.startsWith('net') ? ['netTotal'] : fields;
    if (fields.length > 0) return fields;
  }
  return classifyLabel(label);
}

function classifyLabel(label: string): TotalField[] {
  for (const r of TOTAL_LABELS) if (r.pattern.test(label)) return r.fields;
  // Some PDF writers space letters apart inside words ("Br uttosumme"): try the label without spaces.
  const squeezed = label.replace(/\s+/g, '');
  if (squeezed !== label) for (const r of TOTAL_LABELS) if (r.pattern.test(squeezed)) return r.fields;
  return [];
}

/** A payment as a web shop lists it under the total: the means, a date and the amount ("iDEAL op 21 april 2015  € 717,97"). */
const PAYMENT_RECORD = /^[^\p{L}]*\p{L}[\p{L}\d .&-]{1,30}?[^\p{L}\d]*\s(?:op|on|am|vom|le|du|il|el)\s+(.+?)[\s€$£]*$/u;

function isPaymentRecord(doc: Doc, line: Line, cell: Cell): boolean {
  const before = [...line.segments.filter((s) => s.x1 <= cell.seg.x0 + 1).map((s) => s.text), cell.seg.text.slice(0, cell.num.start)].join(
    ' ',
  );
  const rest = PAYMENT_RECORD.exec(fold(before).trim())?.[1];
  return rest !== undefined && scanDates(rest, doc.order).some((d) => d.start === 0 && d.end === rest.length);
}

/**
 * Payments listed under the total that add up to it: the invoice is paid in full. Only then, since
 * a partial payment list is read from the balance it leaves (see the solver).
 */
function paidInFull(payments: Array<{ value: Decimal; page: number; y: number }>, gross: Found[]): Found | undefined {
  if (payments.length === 0) return undefined;
  const sum = payments.reduce((s, p) => s.plus(p.value), new Decimal(0));
  const total = gross.find((g) => new Decimal(g.value).eq(sum) && g.page === payments[0]!.page && g.y < payments[0]!.y);
  return total ? { value: sum.toFixed(2), score: 0.8, page: payments[0]!.page, y: payments[0]!.y, via: 'payments' } : undefined;
}

const ARREARS =
  /ausstehende forderung|ruckstand|alter saldo|saldovortrag|previous balance|balance (?:brought )?forward|arrears|solde (?:precedent|anterieur)/;

const VAT_WORD = /ust|mwst|umsatzsteuer|mehrwertsteuer|vat|tax|tva|btw|steuer|iva/;

export function findTotals(doc: Doc, tableLines: ReadonlySet<string>): TotalsCandidates {
  const fields = new Map<TotalField, Found[]>();
  const vatRows: Array<VatRow & { implied?: string }> = [];
  const rateTaxes: RateTax[] = [];
  const openRates: Array<Omit<RateTax, 'tax'>> = [];
  const currencies: string[] = [];
  const lastPage = doc.pages.at(-1)!.page;
  const payments: Array<{ value: Decimal; page: number; y: number }> = [];
  for (const page of doc.pages) {
    for (const line of page.lines) {
      const text = lineText(line);
      currencies.push(...amountCurrenciesIn(text, doc.mark));
      if (tableLines.has(`${line.page}:${line.index}`)) continue;
      const cells = numbersOfLine(doc, line);
      const money = cells.filter((c) => isMoney(c.num));
      const folded = fold(text);
      // A breakdown row whose every amount the scan garbled still names its category: "VAT (S)  275400  7  19728".
      if (money.length === 0 && PRINTED_CATEGORY.test(text)) openRates.push(...openRateOf(line, cells, folded, ''));
      if (money.length === 0) continue;
      // Breakdown tables print a row's category and exemption text on lines of their own, above or below the numbers.
      const nearby = page.lines
        .slice(Math.max(0, line.index - 4), line.index + 4)
        .map(lineText)
        .join('\n');
      const rows = vatRowsOf(line, cells, folded, nearby, codeBeside(page.lines[line.index - 1], line));
      vatRows.push(...rows);
      if (rows.length === 0) openRates.push(...openRateOf(line, cells, folded, nearby));
      const percents = cells.filter((c) => c.num.percent);
      if (rows.length === 0 && money.length === 1 && percents.length === 1 && VAT_WORD.test(folded)) {
        const rate = new Decimal(percents[0]!.num.value).abs().toString();
        const category = vatCategoryOf(rate, folded);
        rateTaxes.push({ rate, tax: new Decimal(money[0]!.num.value).abs().toFixed(2), ...(category ? { category } : {}) });
      }
      const stacked =
        rows.length === 0 && money.length === 1 && percents.length === 0 ? rateAbove(doc, page.lines, line, folded) : undefined;
      if (stacked) rateTaxes.push({ ...stacked, tax: new Decimal(money[0]!.num.value).abs().toFixed(2) });
      // Totals sit on the last pages more often than not; a summary at the top of page 1 happens too.
      const where = page.page === lastPage ? 1 : 0.9;
      // The rightmost amount is labelled by the words before it; an amount further left only by
      // words of its own (two-column totals: "Exclusief BTW 593,36   Subtotaal 717,97"), and never
      // when it is a VAT row's base or tax.
      money.forEach((cell, k) => {
        const last = k === money.length - 1;
        const prev = money[k - 1];
        const since = last || !prev ? -Infinity : prev.seg.x1;
        if (!last && rows.length > 0) return;
        const label = labelOf(line, cell, since);
        if (last && classifyTotal(label).length === 0 && isPaymentRecord(doc, line, cell))
          payments.push({ value: new Decimal(cell.num.value), page: page.page, y: line.top });
        // An earlier balance still open is added to what is due: EN 16931 has it as a negative prepaid amount.
        const arrears = ARREARS.test(label) || (money.length === 1 && ARREARS.test(folded));
        for (const field of arrears ? (['paid'] as const) : classifyTotal(label)) {
          const list = fields.get(field) ?? [];
          const value = new Decimal(cell.num.value).abs();
          list.push({
            value: (arrears ? value.negated() : new Decimal(cell.num.value)).toFixed(2),
            score: 0.9 * where,
            page: page.page,
            y: line.top,
            via: `label:${label.slice(0, 30)}`,
          });
          fields.set(field, list);
        }
      });
    }
  }
  const paid = paidInFull(payments, fields.get('grossTotal') ?? []);
  if (paid) fields.set('paid', [...(fields.get('paid') ?? []), paid]);
  for (const [field, found] of columnTotals(doc, tableLines)) fields.set(field, [...(fields.get(field) ?? []), found]);
  // A rendering's labelled blocks print each category's code: they stand over rows found by their arithmetic alone.
  const labelled = labelledVatRows(doc);
  if (labelled.length > 0) vatRows.splice(0, vatRows.length, ...labelled);
  if (vatRows.length === 0) vatRows.push(...inclusiveRows(doc, tableLines));
  // Several rates printed with their tax only ("USt. 7 % 19,25", "USt. 19 % 37,62") and no VAT total
  // line: their sum is the VAT total, which the arithmetic of net and gross then confirms or not.
  const rates = new Map(rateTaxes.map((r) => [r.rate, r.tax]));
  if (rates.size > 1 && rateTaxes.length === rates.size) {
    const sum = [...rates.values()].reduce((s, t) => s.plus(t), new Decimal(0)).toFixed(2);
    fields.set('vatTotal', [...(fields.get('vatTotal') ?? []), { value: sum, score: 0.5, page: lastPage, y: 0, via: 'rate-taxes' }]);
  }
  return { fields, vatRows: resolveImplied(dedupeRows(vatRows)), rateTaxes, openRates, currencies };
}

const SUM_WORD = /total|gesamt|summe|\bsum\b|montant ttc|importe total/;

/**
 * The rate of a tax printed on the line right above it, on a line of its own ("VAT Rate  7%" over
 * "VAT  19.25 EUR"): a form that stacks each rate over its tax. A sum's line ("Total VAT") is no
 * rate's tax, and rates listed one under another, apart from their taxes, pair nothing.
 */
function rateAbove(doc: Doc, lines: readonly Line[], line: Line, folded: string): Omit<RateTax, 'tax'> | undefined {
  const above = lines[line.index - 1];
  if (!above || !VAT_WORD.test(folded) || SUM_WORD.test(folded)) return undefined;
  const rate = rateAlone(doc, above);
  const listed = lines[line.index - 2];
  if (rate === undefined || (listed && rateAlone(doc, listed) !== undefined)) return undefined;
  const category = vatCategoryOf(rate, fold(lineText(above)));
  return { rate, ...(category ? { category } : {}) };
}

/** The rate of a line that prints a VAT rate and nothing else ("VAT Rate  7%"). */
function rateAlone(doc: Doc, line: Line): string | undefined {
  const cells = numbersOfLine(doc, line);
  const text = fold(lineText(line));
  if (cells.length !== 1 || !cells[0]!.num.percent || !VAT_WORD.test(text) || SUM_WORD.test(text)) return undefined;
  return new Decimal(cells[0]!.num.value).abs().toString();
}

interface Column {
  x0: number;
  x1: number;
  label: string;
  fields: TotalField[];
}

/** How far below the previous one (in text heights) a row of a column-headed totals table may be. */
const COLUMN_ROW_GAP = 4;

/**
 * Totals printed as a table: a header of total labels ("Warenwert  Zu-/Abschlag  Nettobetrag
 * MwSt-Betrag  MwSt-%  Endbetrag"), a row per VAT rate and the sum row last. The amounts carry
 * no words of their own, so each is labelled by the header above its column; the last row
 * holds the document's totals.
 */
function columnTotals(doc: Doc, tableLines: ReadonlySet<string>): Array<[TotalField, Found]> {
  const out: Array<[TotalField, Found]> = [];
  const lastPage = doc.pages.at(-1)!.page;
  const payments: Array<{ value: Decimal; page: number; y: number }> = [];
  for (const page of doc.pages) {
    page.lines.forEach((line, i) => {
      if (tableLines.has(`${line.page}:${line.index}`) || numbersOfLine(doc, line).length > 0) return;
      const columns: Column[] = line.segments.map((seg) => {
        const label = fold(seg.text);
        // "MwSt-%" heads the rates, not an amount.
        return { x0: seg.x0, x1: seg.x1, label, fields: label.includes('%') ? [] : classifyTotal(label) };
      });
      if (columns.filter((c) => c.fields.length > 0).length < 3) return;
      let rows: Line[] = [];
      for (let prev = line, k = i + 1; k < page.lines.length; k++) {
        const next = page.lines[k]!;
        if (next.top - prev.bottom > COLUMN_ROW_GAP * (next.segments[0]?.height ?? 1)) break;
        if (numbersOfLine(doc, next).filter((c) => isMoney(c.num)).length < 2) break;
        rows = [...rows, next];
        prev = next;
      }
      const sum = rows.at(-1);
      if (!sum) return;
      for (const cell of numbersOfLine(doc, sum).filter((c) => isMoney(c.num))) {
        const x = (cell.seg.x0 + cell.seg.x1) / 2;
        // The header whose extent (widened to its neighbours' gaps) holds the amount's centre.
        const column = columns.reduce((a, b) => (distance(b, x) < distance(a, x) ? b : a));
        if (distance(column, x) > cell.seg.height * 3) continue;
        for (const field of column.fields) {
          out.push([
            field,
            {
              value: new Decimal(cell.num.value).toFixed(2),
              score: 0.9 * (page.page === lastPage ? 1 : 0.9),
              page: page.page,
              y: sum.top,
              via: `column:${column.label.slice(0, 30)}`,
            },
          ]);
        }
      }
    });
  }
  return out;
}

function distance(c: Column, x: number): number {
  return x < c.x0 ? c.x0 - x : x > c.x1 ? x - c.x1 : 0;
}

const INCLUSIVE = /inkl|inklusive|incl|including|enthalten|included|ttc|dont|y compris/;

/**
 * Gross prices with the tax inside ("Beitrag inklusive 19 % Versicherungsteuer 220,00 €" and,
 * a line below, "enthaltene Versicherungsteuer 35,13 €"): gross × rate / (100 + rate) = tax
 * makes it a breakdown row with base gross − tax.
 */
function inclusiveRows(doc: Doc, tableLines: ReadonlySet<string>): VatRow[] {
  const rows: VatRow[] = [];
  for (const page of doc.pages) {
    page.lines.forEach((line, i) => {
      if (tableLines.has(`${line.page}:${line.index}`)) return;
      const folded = fold(lineText(line));
      if (!INCLUSIVE.test(folded)) return;
      const cells = numbersOfLine(doc, line);
      const rate = cells.find((c) => c.num.percent);
      const gross = cells.filter((c) => isMoney(c.num)).at(-1);
      if (!rate || !gross) return;
      const r = new Decimal(rate.num.value).abs();
      const g = new Decimal(gross.num.value).abs();
      for (const next of page.lines.slice(i, i + 3)) {
        if (!VAT_WORD.test(fold(lineText(next)))) continue;
        for (const c of numbersOfLine(doc, next).filter((n) => isMoney(n.num) && n !== gross)) {
          const tax = new Decimal(c.num.value).abs();
          if (g.times(r).dividedBy(r.plus(100)).minus(tax).abs().gt(0.011)) continue;
          const category = vatCategoryOf(r.toString(), folded);
          rows.push({
            rate: r.toString(),
            base: g.minus(tax).toFixed(2),
            tax: tax.toFixed(2),
            ...(category ? { category } : {}),
            page: page.page,
            y: line.top,
            labelled: true,
          });
          return;
        }
      }
    });
  }
  return rows;
}

/** base × rate / 100 = tax, to the cent (tax authorities round each category once). */
export function taxMatches(base: string, rate: string, tax: string): boolean {
  const expected = new Decimal(base).times(rate).dividedBy(100);
  return expected.minus(tax).abs().lte(0.011) && !(new Decimal(base).isZero() && new Decimal(tax).isZero());
}

/** A category code set a little above its row's line, as a run of its own ("S19" beside "VAT  15.24 €  19 %"). */
function codeBeside(above: Line | undefined, line: Line): string | undefined {
  if (!above || above.bottom <= line.top || above.segments.length !== 1) return undefined;
  return /^(S|Z|E|AE|K|G|O|L|M)(?:\d{1,2})?$/.exec(above.segments[0]!.text.trim())?.[1];
}

function vatRowsOf(line: Line, cells: Cell[], folded: string, nearby: string, code?: string): Array<VatRow & { implied?: string }> {
  const rows: Array<VatRow & { implied?: string; baseX: number; reversed: boolean }> = [];
  // "Discount  -767,93 €  0 % AE  0,00 €": an allowance or a charge with its rate, not a breakdown row.
  if (!VAT_WORD.test(folded) && classifyTotal(folded).some((f) => f === 'allowances' || f === 'charges')) return [];
  const rates = cells.filter((c) => c.num.percent || (c.num.decimals <= 2 && KNOWN_RATES.has(new Decimal(c.num.value).toString())));
  const amounts = cells.filter((c) => isMoney(c.num));
  const labelled = VAT_WORD.test(folded);
  const inBreakdown = labelled || VAT_WORD.test(fold(nearby));
  for (const r of rates) {
    const rate = new Decimal(r.num.value).abs().toString();
    // An unmarked zero is a rate only where the lines speak of VAT; "0 %" always is.
    if (rate === '0' && !r.num.percent && !inBreakdown) continue;
    for (const b of amounts) {
      for (const t of amounts) {
        if (b === t || b === r || t === r) continue;
        // Printed left to right: base before tax; the other way round ("19.00%  €37.62  €198.00",
        // under "VAT rate  Tax  Without VAT") only in a breakdown and for a tax that is not nothing.
        const reversed = b.seg.x0 + b.num.start > t.seg.x0 + t.num.start;
        const base = new Decimal(b.num.value).abs();
        const tax = new Decimal(t.num.value).abs();
        if (reversed && (!inBreakdown || tax.isZero())) continue;
        // Tax has the sign of its base; "Rabatt 2 % von -5,00: 0,10" is a discount, not a VAT row.
        if (!tax.isZero() && b.num.value.startsWith('-') !== t.num.value.startsWith('-')) continue;
        if (rate === '0' ? !(tax.isZero() && !base.isZero() && inBreakdown) : !taxMatches(base.toString(), rate, tax.toString())) continue;
        // A rate 0 row without context is anyone's guess; keep those printed with a VAT word only.
        // A category code printed in brackets ("VAT (E)", "TVA (AE)") says it outright.
        const printed = printedCategory(lineText(line)) ?? code ?? (rate === '0' ? /\((Z|E|AE|K|G|O)\)/.exec(nearby)?.[1] : undefined);
        const implied = printed ? undefined : vatCategoryOf(rate, rate === '0' ? fold(nearby) : folded);
        const sign = (n: NumberMatch) => (n.value.startsWith('-') ? '-' : '');
        rows.push({
          rate,
          base: `${sign(b.num)}${base.toFixed(2)}`,
          tax: `${sign(t.num)}${tax.toFixed(2)}`,
          ...(printed ? { category: printed } : implied ? { implied } : {}),
          page: line.page,
          y: line.top,
          labelled,
          baseX: b.seg.x0 + b.num.start,
          reversed,
        });
      }
    }
  }
  // One row per line: the base printed nearest before the tax (a taxable amount after a goods value and allowances).
  const inOrder = rows.some((r) => !r.reversed) ? rows.filter((r) => !r.reversed) : rows;
  inOrder.sort((a, b) => b.baseX - a.baseX);
  return inOrder.slice(0, 1).map(({ baseX: _x, reversed: _r, ...row }) => row);
}

/** A breakdown line ("VAT (S)  275500  7  193.25") with one rate and no amounts that multiply out. */
function openRateOf(line: Line, cells: Cell[], folded: string, nearby: string): Array<Omit<RateTax, 'tax'>> {
  const printed = printedCategory(lineText(line));
  if (!printed && !VAT_WORD.test(folded)) return [];
  const rates = cells.filter((c) => c.num.percent || (c.num.decimals <= 2 && KNOWN_RATES.has(new Decimal(c.num.value).toString())));
  if (rates.length !== 1) return [];
  const rate = new Decimal(rates[0]!.num.value).abs().toString();
  // A zero rate's reason (exempt, intra-community, export) is printed on the lines around it.
  const category = printed ?? vatCategoryOf(rate, rate === '0' ? fold(nearby) : folded);
  return [{ rate, ...(category ? { category } : {}) }];
}

/**
 * A category read from the words around a row ("reverse charge" printed near a 0 % row) is its
 * category only where no other row has its rate: rows of one rate are told apart by category,
 * so the same words cannot name all of them.
 */
function resolveImplied(rows: Array<VatRow & { implied?: string }>): VatRow[] {
  return rows.map(({ implied, ...row }) =>
    implied && !row.category && rows.filter((r) => r.rate === row.rate).length === 1 ? { ...row, category: implied } : row,
  );
}

/** The breakdown is often printed twice (table and summary); a rate's row counts once. */
function dedupeRows<R extends VatRow>(rows: R[]): R[] {
  const seen = new Map<string, R>();
  for (const r of rows) {
    const key = `${r.rate}|${r.base}|${r.tax}`;
    const prior = seen.get(key);
    if (!prior || (r.labelled && !prior.labelled)) seen.set(key, r);
  }
  return [...seen.values()];
}
