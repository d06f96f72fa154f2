import { Decimal } from '../invoice/decimal.js';
import type { Doc } from './document.js';
import type { Line, PageLayout, Segment } from './layout.js';
import { legibilityMark } from './legibility.js';
import { LINE_ALLOWANCE, LINE_CHARGE, TABLE_END } from './lexicon.js';
import { scanNumbers, type NumberMatch } from './numbers.js';
import { clean, fold } from './text.js';

/**
 * Allowances and charges on one item (BG-27, BG-28), printed with it: in a column of their
 * own ("Nachlässe / Zuschläge": `Volume Discount Applied: - 6,00 €`, `+ 1,00 €`) or as rows
 * of a small table under the item (`Abschlag  Lagerware (CAO)  10  1000,00  -100,00`).
 * They are taken only where quantity × price − allowances + charges comes to the printed
 * amount: a reading the arithmetic does not bear out is left to the conversion to refuse.
 */

export interface LineAdjustment {
  amount: string;
  /** The reason printed with it; none where the row prints figures only. */
  reason?: string;
  /** UNTDID 5189 95 (discount): the reason code of an allowance printed without words (BT-140). */
  code?: string;
  /** How unsurely a scan read the reason's words ("Volume Discount a" for "… Applied:"): an evidence suffix. */
  legibility?: string;
}

interface Adjusted {
  allowances?: LineAdjustment[];
  charges?: LineAdjustment[];
}

/** Where an item is printed: its page, its first line, the line where the next item (or the totals) starts, and the x-range of its table's columns. */
export interface ItemExtent {
  page: PageLayout;
  from: number;
  to: number;
  /** The adjustments column, if the table has one. */
  adjustments?: { x0: number; x1: number };
  /** The price column: a price stepped down under the item ("= 19,00 €") stands there. */
  price?: { x0: number; x1: number };
}

interface Entry extends LineAdjustment {
  charge: boolean;
}

const legible = (segments: readonly Segment[]) => {
  const legibility = legibilityMark(segments.flatMap((s) => s.words));
  return legibility ? { legibility } : {};
};

/** Most of the segment stands in the column (a long description running into it does not). */
const within = (s: Segment, c: { x0: number; x1: number }) => 2 * (Math.min(s.x1, c.x1) - Math.max(s.x0, c.x0)) >= s.x1 - s.x0;

/** A money amount alone in its segment ("- 6,00 €", "+ 1,00 €", "-100,00"). */
function amountOnly(doc: Doc, text: string): NumberMatch | undefined {
  const found = scanNumbers(text, doc.mark);
  if (found.length !== 1 || found[0]!.percent) return undefined;
  return text.replace(/[-+\u2212\d.,'\u2019\s€$£]/g, '') === '' ? found[0] : undefined;
}

/** The lines an item spans (up to the next item, the totals box, or a long gap), and the totals line that ended it. */
function itemSpan(extent: ItemExtent): { lines: Line[]; end?: Line } {
  const lines: Line[] = [];
  const all = extent.page.lines;
  for (let i = extent.from; i < Math.min(extent.to, extent.from + 25, all.length); i++) {
    const line = all[i]!;
    if (lines.length && line.top - lines[lines.length - 1]!.bottom > 3 * line.height) break;
    if (i > extent.from && TABLE_END.test(fold(line.segments[0]?.text ?? ''))) return { lines, end: line };
    lines.push(line);
  }
  return { lines };
}

const itemLines = (extent: ItemExtent): Line[] => itemSpan(extent).lines;

/** The adjustments column read down the item: label pieces until an amount, whose sign says allowance (−) or charge (+). */
function columnEntries(doc: Doc, lines: Line[], column: { x0: number; x1: number }): Entry[] {
  const entries: Entry[] = [];
  let label: Segment[] = [];
  for (const s of lines.flatMap((l) => l.segments.filter((seg) => within(seg, column)))) {
    const amount = amountOnly(doc, s.text);
    if (!amount) {
      label.push(s);
      continue;
    }
    const reason = clean(label.map((l) => l.text).join(' ')).replace(/\s*:$/, '');
    const charge = s.text.trim().startsWith('+');
    if (reason) entries.push({ charge, amount: new Decimal(amount.value).abs().toFixed(2), reason, ...legible(label) });
    label = [];
  }
  return entries;
}

/** Rows under the item that start with an allowance or charge word and end with an amount. */
function rowEntries(doc: Doc, lines: Line[]): Entry[] {
  return lines.slice(1).flatMap((line) => {
    const first = fold(line.segments[0]?.text ?? '');
    const charge = LINE_CHARGE.test(first);
    if (!charge && !LINE_ALLOWANCE.test(first)) return [];
    const last = amountOnly(doc, line.segments[line.segments.length - 1]!.text);
    if (!last || line.segments.length < 2) return [];
    const texts = line.segments.slice(0, -1).filter((s) => /\p{L}/u.test(s.text));
    // The kind word alone in its column ("Abschlag") is the kind, not the reason, where words follow it.
    const kindOnly = texts.length > 1 && (charge ? LINE_CHARGE : LINE_ALLOWANCE).exec(first)?.[0] === first.trim();
    const words = kindOnly ? texts.slice(1) : texts;
    const reason = clean(words.map((s) => s.text).join(' ')).replace(CODE_AFTER, '');
    return [{ charge, amount: new Decimal(last.value).abs().toFixed(2), reason, ...legible(words) }];
  });
}

/**
 * A row of figures only under the item: a percentage and the amount it takes off ("1,00 %
 * - 0,10"), where the percentage of the item's amount is that amount. A discount, with no reason printed.
 */
function percentRows(doc: Doc, lines: Line[], amount: string): Entry[] {
  return lines.slice(1).flatMap((line) => {
    if (line.segments.length !== 2 || line.segments.some((s) => /\p{L}/u.test(s.text))) return [];
    const [rate, off] = [scanNumbers(line.segments[0]!.text, doc.mark), amountOnly(doc, line.segments[1]!.text)];
    if (rate.length !== 1 || !rate[0]!.percent || !off || !/^\s*[-\u2212]/.test(line.segments[1]!.text)) return [];
    const taken = new Decimal(amount).times(rate[0]!.value).dividedBy(100).toDecimalPlaces(2);
    return taken.eq(new Decimal(off.value).abs()) ? [{ charge: false, amount: taken.toFixed(2), code: DISCOUNT }] : [];
  });
}

/** UNTDID 5189 95: discount. */
const DISCOUNT = '95';

/** A reason code printed after the reason ("Lagerware (CAO)"): the code's, not the reason's words. */
const CODE_AFTER = /\s*\((?:[A-Z]{2,3}|\d{2,3})\)$/;

const split = (entries: Entry[]): Adjusted => {
  const pick = (charge: boolean) => entries.filter((e) => e.charge === charge).map(({ charge: _charge, ...adjustment }) => adjustment);
  const [allowances, charges] = [pick(false), pick(true)];
  return { ...(allowances.length ? { allowances } : {}), ...(charges.length ? { charges } : {}) };
};

/** A net price printed after "=" under the item's price. */
function steppedPrice(doc: Doc, lines: Line[], column: { x0: number; x1: number } | undefined): string | undefined {
  if (!column) return undefined;
  const step = lines
    .slice(1)
    .flatMap((l) => l.segments)
    .find((s) => within(s, column) && s.text.trim().startsWith('='));
  return step ? amountOnly(doc, step.text.trim().slice(1))?.value : undefined;
}

/**
 * The item's allowances and charges, and the net price they apply to, where
 * quantity × price (÷ price base) − allowances + charges is the printed amount.
 */
export function readAdjustments(
  doc: Doc,
  row: { quantity?: string; unitPrice?: string; amount?: string; priceBase?: string },
  extent: ItemExtent,
): (Adjusted & { unitPrice: string }) | undefined {
  if (row.quantity === undefined || row.unitPrice === undefined || row.amount === undefined) return undefined;
  const lines = itemLines(extent);
  const entries = [...(extent.adjustments ? columnEntries(doc, lines, extent.adjustments) : []), ...rowEntries(doc, lines)];
  if (entries.length === 0) return undefined;
  const net = entries.reduce((s, e) => (e.charge ? s.plus(e.amount) : s.minus(e.amount)), new Decimal(0));
  const stepped = steppedPrice(doc, lines, extent.price);
  for (const price of [row.unitPrice, ...(stepped ? [stepped] : [])]) {
    const gross = new Decimal(row.quantity).times(price).dividedBy(row.priceBase ?? 1);
    if (!gross.plus(net).toDecimalPlaces(2).eq(new Decimal(row.amount).toDecimalPlaces(2))) continue;
    return { unitPrice: price, ...split(entries) };
  }
  return undefined;
}

type Item = { row: { amount?: string; arithmetic?: boolean } & Adjusted; extent: ItemExtent };

/**
 * Items whose printed amount is quantity × price before the allowances and charges printed
 * under them ("abzgl. 16,7% Rabatt  -2,00"): their line net amount is net of them, where that
 * (and only that) makes the items add up to their printed total (the subtotal under them, or
 * the total that closed the table).
 */
export function netOfAdjustments(doc: Doc, items: Item[], closing: string | undefined): void {
  const end = items.length ? itemSpan(items[items.length - 1]!.extent).end : undefined;
  const subtotal = end ? amountOnly(doc, end.segments[end.segments.length - 1]!.text)?.value : undefined;
  const totals = [subtotal, closing].filter((t) => t !== undefined);
  const found = items.map(({ row, extent }) => {
    if (row.arithmetic !== true || row.allowances || row.charges) return [];
    const lines = itemLines(extent);
    const worded = rowEntries(doc, lines);
    return worded.length > 0 || row.amount === undefined ? worded : percentRows(doc, lines, row.amount);
  });
  if (found.every((f) => f.length === 0) || items.some(({ row }) => row.amount === undefined)) return;
  const net = items.map(({ row }, k) =>
    found[k]!.reduce((a, e) => (e.charge ? a.plus(e.amount) : a.minus(e.amount)), new Decimal(row.amount!)),
  );
  const sum = (list: Decimal[]) => list.reduce((a, b) => a.plus(b), new Decimal(0));
  const printed = sum(items.map(({ row }) => new Decimal(row.amount!)));
  if (!totals.some((t) => sum(net).eq(t)) || totals.some((t) => printed.eq(t))) return;
  items.forEach(({ row }, k) => {
    if (found[k]!.length) Object.assign(row, { amount: net[k]!.toFixed(2), ...split(found[k]!) });
  });
}
