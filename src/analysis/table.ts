import { Decimal } from '../invoice/decimal.js';
import { knownUnit, printedCategory, unitCode } from './codes.js';
import { scanDates } from './dates.js';
import { hasMoney, lineText, type Doc } from './document.js';
import { netOfAdjustments, readAdjustments, type ItemExtent, type LineAdjustment } from './line-adjustments.js';
import { classifyTotal } from './totals.js';
import type { Line, PageLayout } from './layout.js';
import { COLUMN_LABELS, TABLE_END, WITH_TAX, type ColumnKind } from './lexicon.js';
import { scanNumbers, type NumberMatch } from './numbers.js';
import { clean, editDistance, fold, oneLetterMisread } from './text.js';
import { joinLine, joinWrapped, type NameLine } from './wrapped-names.js';
import type { Word } from '../reading/page-text.js';

/**
 * The line-item table: a header row (possibly stacked over several lines) names the columns;
 * every line below with an amount under the amount column opens an item; lines without one
 * continue it (wrapped descriptions, article numbers, notes). Tables continue across pages,
 * with or without a repeated header. Column positions come from the header; which number is
 * quantity, price and amount is then checked by the arithmetic (quantity × price = amount).
 */

export interface Column {
  kinds: Set<ColumnKind>;
  /** The kind that decides how cells are read. */
  kind: ColumnKind;
  x0: number;
  x1: number;
}

export interface ItemRow {
  page: number;
  /** Top of the row's first line, where the table reader kept it: which printing of a repeated value the row's is. */
  top?: number;
  position?: string;
  itemId?: string;
  name?: string;
  /**
   * How the name was set, which tells how surely it is whole: alone in its column, joined from
   * the lines a narrow column broke it over (`joined`; `spaced` where a line joined by its
   * spacing alone), with a line under it set like its own and not joined (`open`), over a
   * description, or cut from its description at a colon. `cell`: joined by its spacing alone in
   * a table that sets each description apart, after the name's cell has closed, so the lines at
   * the name's spacing are the name's own (the AWV stylesheet: "Mineralwasser Medium" /
   * "12 x 1,0l PET" over the price row, the description under it).
   */
  nameSet?: 'alone' | 'joined' | 'spaced' | 'cell' | 'open' | 'described' | 'colon';
  /** Where the name may as well be otherwise: with the line under it, without the lines joined to it, not cut at its colon. */
  nameAlternatives?: string[];
  description?: string;
  quantity?: string;
  unit?: string;
  /** A word printed as the unit that no code is known for ("RM", "Monat(" cut from "Monat(e)"): the unit is for a person to code. */
  unitPrinted?: string;
  unitPrice?: string;
  vatRate?: string;
  /** A category printed beside the rate ("0 % VAT (E)"). */
  vatCategory?: string;
  amount?: string;
  /** quantity × price = amount held (true), failed (false), or could not be checked. */
  arithmetic?: boolean;
  /** The quantity the price is for, where the row prints one ("Brackets (3 kg)", "pro 100 Stk") and the amount bears it out. */
  priceBase?: string;
  priceBaseUnit?: string;
  /** Allowances and charges printed with the item (BG-27, BG-28), where the amount bears them out. */
  allowances?: LineAdjustment[];
  charges?: LineAdjustment[];
}

export interface ItemTable {
  rows: ItemRow[];
  /** `page:line` keys of every line the table used, so the totals reader skips them. */
  lines: Set<string>;
  /** Σ row amounts (BT-106 candidate) when every row has one. */
  lineSum?: string;
  /** A line with amounts follows an item table's header: without rows, the page's items were printed but not read. */
  rowsPrinted?: boolean;
}

/** Which kind a column header speaks for when several stacked labels share a column ("Preis / Einheit" is a price). */
const PRIORITY: ColumnKind[] = ['lineAmount', 'unitPrice', 'quantity', 'discount', 'vatRate', 'unit', 'description', 'itemId', 'position'];

/** Lines inside a table that are not items: discounts and surcharges on the item above, subtotals. */
// "Incl. Thuiskopieheffing   € 4,24", "davon Pfand": a part of the price of the item above, not an item of its own
// (as a line of text under an item, "inkl. Zubehörpaket" describes it).
const PART_OF_ITEM = /^(?:(?:incl|inkl)(?:\.|usive\b|\b)|including\b|includes\b|davon\b|dont\b|enthalt|y compris)/;
const NOT_AN_ITEM =
  /^(?:abzgl|aufschlag\b|abschlag\b|zuschlag\b|abzuglich|zzgl|zuzuglich|rabatt|nachlass|skonto|discount|allowance|remise|reduction|korting|bruttopreis|gross price|prix brut|basis|artikelrabatt|artikelgesamtrabatt|ubertrag|carried|brought|a reporter|report)/;

function kindsOf(text: string): ColumnKind[] {
  const t = fold(text)
    .replace(/[:*]+$/, '')
    .trim();
  if (t === '' || (/^[\d.,\s%€$£-]+$/.test(t) && t !== '%' && t !== '#')) return [];
  return COLUMN_LABELS.filter(([, re]) => re.test(t)).map(([k]) => k);
}

/** Kinds of the words that qualify a label after them ("Unit" of "Unit Price", "Total" of "Total Price"). */
const MODIFIER_KINDS: readonly ColumnKind[] = ['quantity', 'unit', 'lineAmount', 'description'];

interface Cell {
  text: string;
  x0: number;
  x1: number;
  kinds: ColumnKind[];
}

/** A line's header cells: its segments, split into words where one segment holds several labels ("Pos Art.Nr."). */
function headerCells(line: Line): Cell[] {
  const cells: Cell[] = [];
  for (const seg of line.segments) {
    const whole = kindsOf(seg.text);
    const words = seg.words.map((w) => ({ w, kinds: kindsOf(w.text) }));
    const labelled = words.filter((x) => x.kinds.length > 0);
    if (labelled.length <= 1 || seg.words.length === 1) {
      // One short label word ("Nr.", "#") inside a run of other words is a sentence, not a header cell
      // ("Rechnung # RE-2015/504 von 08.10.2015", "… Positionen aus der Lieferung Nr. 2013-51112 …").
      const sentence = whole.length === 0 && seg.words.length - labelled.length >= 3;
      cells.push({ text: seg.text, x0: seg.x0, x1: seg.x1, kinds: whole.length ? whole : sentence ? [] : (labelled[0]?.kinds ?? []) });
      continue;
    }
    // Several labelled words: each starts a cell; unlabelled words join the cell before them, and
    // so does a tax word qualifying a price ("Prijs incl. BTW", "Preis ohne MwSt.").
    const start = cells.length;
    const extended = new Set<Cell>();
    words.forEach(({ w, kinds }, i) => {
      const last = cells.length > start ? cells.at(-1) : undefined;
      const qualifier =
        i > 0 &&
        /^(?:incl|inkl|excl|exkl|ohne|w\/o|hors|avec|zzgl|plus|excluding|including|with|without)\.?$/.test(fold(words[i - 1]!.w.text));
      const near = last !== undefined && last.x1 <= w.x && w.x - last.x1 < 2 * w.height;
      // A label word set a word space after a label, where the two read together name what the first
      // names alone, qualifies it: "Prijs per eenheid", "Descrizione articolo", "Aliq. IVA". A word
      // space is at most 0.6 em (a monospaced font's).
      const same = (a: ColumnKind[], b: ColumnKind[]) => a.length === b.length && a.every((k) => b.includes(k));
      const together = last ? kindsOf(`${last.text} ${w.text}`) : [];
      const wordSpace = near && kinds.length > 0 && last!.kinds.length > 0 && w.x - last!.x1 <= 0.65 * w.height;
      const qualifies = wordSpace && same(together, last!.kinds);
      // …or a word before the label qualifies it: "Unit Price", "Total Price", "Net Amount" (never a position or tax label: "Pos Art.Nr.", "Tax Amount").
      const qualified = wordSpace && kinds.every((k) => together.includes(k)) && last!.kinds.every((k) => MODIFIER_KINDS.includes(k));
      if ((kinds.length === 0 || qualifier || qualifies || qualified) && near) {
        last!.text += ` ${w.text}`;
        last!.x1 = w.x + w.width;
        if (qualified) last!.kinds = together;
        if (kinds.length === 0 && !qualifier) extended.add(last!);
      } else cells.push({ text: w.text, x0: w.x, x1: w.x + w.width, kinds });
    });
    // A cell grown by plain words is read as the whole phrase: "Importo unitario" is a price, "Importo" alone an amount.
    for (const c of extended) {
      const whole = kindsOf(c.text);
      if (whole.length > 0) c.kinds = whole;
    }
  }
  return cells;
}

/** A line that may be (part of) a table header: two or more column labels and no amounts. */
function isHeaderLine(doc: Doc, line: Line): boolean {
  if (hasMoney(doc, line) || line.segments.length > 14) return false;
  return new Set(headerCells(line).flatMap((c) => c.kinds)).size >= 2;
}

/**
 * A header band names what an item needs: something naming it, a quantity or price, and an
 * amount or price. (A VAT breakdown header has amounts and rates but neither quantity nor price.)
 */
function isItemHeader(columns: Column[]): boolean {
  const kinds = new Set(columns.flatMap((c) => [...c.kinds]));
  const names = kinds.has('description') || kinds.has('itemId');
  const counts = kinds.has('quantity') || kinds.has('unitPrice');
  const sums = kinds.has('lineAmount') || kinds.has('unitPrice');
  return names && counts && sums && kinds.size >= 3;
}

/**
 * A label set between two labels of the line below, over neither and stacked with no other
 * ("Tax" over "Rate" and "Amount"), heads both: they read with it ("Tax Rate", "Tax Amount").
 */
function withGroupHeadings(lines: Cell[][]): Cell[] {
  const overlap = (a: Cell, b: Cell) => Math.max(0, Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0));
  const heads = new Set<Cell>();
  lines.forEach((line, k) => {
    const below = [...(lines[k + 1] ?? [])].sort((a, b) => a.x0 - b.x0);
    for (const head of line) {
      const centre = (head.x0 + head.x1) / 2;
      const at = below.findIndex((c, i) => c.x1 <= centre && below[i + 1] !== undefined && below[i + 1]!.x0 >= centre);
      const pair = at >= 0 ? [below[at]!, below[at + 1]!] : [];
      if (pair.length === 0 || head.x0 < pair[0]!.x0 || head.x1 > pair[1]!.x1) continue;
      // It bridges the two, nearer to each than its own width: a label alone in a wide gap ("Prix" between "Quantité" and "Rem.") heads a column of its own.
      const width = head.x1 - head.x0;
      if (head.x0 - pair[0]!.x1 > width || pair[1]!.x0 - head.x1 > width) continue;
      // A label stacked with another (over "unitaire", under "Art-Nr-Kunde") names its own column.
      if (pair.some((c) => 2 * overlap(head, c) > head.x1 - head.x0)) continue;
      if (lines.some((other, j) => j !== k && other.some((c) => 4 * overlap(head, c) > head.x1 - head.x0))) continue;
      for (const c of pair) {
        const kinds = kindsOf(`${head.text} ${c.text}`);
        if (kinds.length) Object.assign(c, { text: `${head.text} ${c.text}`, kinds });
      }
      heads.add(head);
    }
  });
  return lines.flat().filter((c) => !heads.has(c));
}

/** The header band: the header line with labelled lines stacked right above or below it. */
function headerBand(doc: Doc, page: PageLayout, at: number): { columns: Column[]; first: number; last: number } {
  let first = at;
  let last = at;
  // A line with a date is a field ("Leistungsdatum 07.10.2015"), not a label stacked over a column.
  const labelled = (l: Line | undefined) =>
    l !== undefined &&
    !hasMoney(doc, l) &&
    scanDates(lineText(l), doc.order).length === 0 &&
    headerCells(l).some((c) => c.kinds.length > 0) &&
    headerCells(l).every((c) => c.kinds.length > 0 || c.text.length < 12);
  // The stacked line next to `from` that way, over any line of stray marks a scan set apart (": £").
  const stacked = (from: number, step: -1 | 1): number | undefined => {
    let k = from + step;
    while (page.lines[k] && page.lines[k]!.segments.every((seg) => !/[\p{L}\p{N}]/u.test(seg.text))) k += step;
    const [upper, lower] = step < 0 ? [page.lines[k], page.lines[from]!] : [page.lines[from]!, page.lines[k]];
    const close = upper !== undefined && lower !== undefined && lower.top - upper.bottom < 0.8 * page.lines[from]!.height;
    return close && labelled(page.lines[k]) ? k : undefined;
  };
  for (let k = stacked(first, -1); k !== undefined; k = stacked(first, -1)) first = k;
  for (let k = stacked(last, 1); k !== undefined; k = stacked(last, 1)) last = k;
  const cells = withGroupHeadings(page.lines.slice(first, last + 1).map(headerCells));
  // Stacked cells that overlap horizontally are one column.
  const columns: Column[] = [];
  const labels = new Map<Column, string[]>();
  for (const c of cells.sort((a, b) => a.x0 - b.x0)) {
    const col = columns.find((k) => c.x0 < k.x1 && k.x0 < c.x1);
    if (col) {
      c.kinds.forEach((k) => col.kinds.add(k));
      col.x0 = Math.min(col.x0, c.x0);
      col.x1 = Math.max(col.x1, c.x1);
      labels.get(col)!.push(c.text);
    } else {
      const added: Column = { kinds: new Set(c.kinds), kind: 'description', x0: c.x0, x1: c.x1 };
      columns.push(added);
      labels.set(added, [c.text]);
    }
  }
  for (const col of columns) col.kind = PRIORITY.find((k) => col.kinds.has(k)) ?? 'description';
  separateGrossAmounts(columns, labels);
  nameGarbledDescription(columns, cells);
  // "Item" heads the running numbers where another column ("Product") holds the names.
  const items = columns.filter((c) => c.kinds.has('description') && !c.kinds.has('position'));
  for (const col of columns) if (col.kind === 'description' && col.kinds.has('position') && items.length > 0) col.kind = 'position';
  const named = columns.filter((c) => c.kinds.size > 0);
  // Without an amount header ("Prijs incl. BTW", "Prix HT") the rightmost price column holds the line amounts.
  if (!named.some((c) => c.kind === 'lineAmount')) {
    const last = named.filter((c) => c.kind === 'unitPrice').at(-1);
    if (last && last === named.at(-1)) last.kind = 'lineAmount';
  }
  return { columns: named, first, last };
}

/**
 * Beside a line's net amount, some tables print it with the tax ("Total price" and "Total price
 * with tax", "Netto" and "Brutto"): the item's amount is the one without, whichever stands last.
 */
function separateGrossAmounts(columns: Column[], labels: ReadonlyMap<Column, string[]>): void {
  const amounts = columns.filter((c) => c.kind === 'lineAmount');
  const gross = amounts.filter((c) => WITH_TAX.test(fold(labels.get(c)!.join(' '))));
  if (gross.length === 0 || gross.length === amounts.length) return;
  for (const col of gross) col.kind = 'grossAmount';
}

/**
 * A scan can garble the label over the names ("F__puon" for "Description") and leave the rest
 * legible. Where no column is named for the names, the unlabelled word column left of the first
 * number column heads them.
 */
function nameGarbledDescription(columns: Column[], cells: Cell[]): void {
  const numbers = columns.filter((c) => c.kind === 'quantity' || c.kind === 'unitPrice' || c.kind === 'lineAmount');
  if (numbers.length === 0 || columns.some((c) => c.kinds.has('description'))) return;
  const firstNumber = Math.min(...numbers.map((c) => c.x0));
  const worded = (c: Column) =>
    cells.some((cell) => cell.kinds.length === 0 && /\p{L}{3}/u.test(cell.text) && cell.x0 >= c.x0 && cell.x1 <= c.x1);
  const garbled = columns.find((c) => c.kinds.size === 0 && c.x1 < firstNumber && worded(c));
  if (!garbled) return;
  garbled.kinds.add('description');
  garbled.kind = 'description';
}

/** The header a word overlaps most, if any. */
function headerOver(columns: Column[], w: Word): Column | undefined {
  let best: Column | undefined;
  let overlap = 0;
  for (const c of columns) {
    const o = Math.min(c.x1, w.x + w.width) - Math.max(c.x0, w.x);
    if (o > overlap) {
      overlap = o;
      best = c;
    }
  }
  return best;
}

/**
 * The header a text word stands under. Text is set flush left: a short word ("TGA") that
 * starts inside the article number's column, short of its left edge, and runs on into the
 * name's header opens the name, though most of it stands under the article number's header.
 */
function textHeaderOver(columns: Column[], w: Word): Column | undefined {
  const over = columns.filter((c) => Math.min(c.x1, w.x + w.width) > Math.max(c.x0, w.x));
  const name = over.find((c) => c.kind === 'description');
  const flushLeft = over.some((c) => c !== name && Math.abs(c.x0 - w.x) <= w.height);
  return name && !flushLeft ? name : headerOver(columns, w);
}

/**
 * The column a word belongs to: the header it overlaps most. Otherwise text is taken as
 * left-aligned (the rightmost column starting at or before it) and numbers as right-aligned
 * (the band between neighbouring headers holding their right edge).
 */
function columnOf(columns: Column[], w: Word, numeric: boolean): Column | undefined {
  const over = numeric ? headerOver(columns, w) : textHeaderOver(columns, w);
  if (over) return over;
  if (!numeric) return columns.findLast((c) => c.x0 <= w.x + w.height) ?? columns[0];
  const x = w.x + w.width;
  for (let i = 0; i < columns.length; i++) {
    const c = columns[i]!;
    const prev = columns[i - 1];
    const next = columns[i + 1];
    const left = prev ? (prev.x1 + c.x0) / 2 : -Infinity;
    const right = next ? (c.x1 + next.x0) / 2 : Infinity;
    if (x >= left && x < right) return c;
  }
  return undefined;
}

const isNumberWord = (t: string) => /^[-+(]?[€$£]?\d[\d.,'’\u00a0]*[€$£%)]?-?$/.test(t) || t === '%' || /^[€$£]$/.test(t);

interface Parsed {
  byKind: Map<ColumnKind, string[]>;
  words: number;
  /** The words came from OCR (they carry confidences): misreadings are to be expected. */
  scanned: boolean;
  /** Where the line's description text stands, and how wide its first word is (to tell a wrapped name). */
  description?: Omit<NameLine, 'text'>;
  /** Description text ran on under another column's header: the line was not set to the name column's width. */
  crossed?: boolean;
  /** Where in the description's texts the name column's own text starts, where text of an unknown column stands left of it. */
  nameFrom?: number;
}

/** The first groups of a number grouped by spaces, and a group after them. */
const GROUPED_LEAD = /^[-+(]?[€$£]?\d{1,3}(?:\u00a0\d{3})*$/;
const DIGIT_GROUP = /^\d{3}(?:[.,]\d{1,4})?[€$£)]?-?$/;

/** A word in the unit's place: letters, short, no connective ("x", "à", "je" stand between quantity and price). */
const isUnitLike = (text: string) => /^\p{L}[\p{L}().²³/-]{0,11}$/u.test(text) && !/^(?:x|à|a|je|per|pro|par|@)$/i.test(text);

/** A number cut after its decimal mark. */
const SPLIT_AT_MARK = /^[-+(]?[€$£]?\d[\d.,'’]*[.,]$/;

/** "19" + "%" and "9,90" + "€" printed as two words are one cell value; in a description they stay as printed ("Transport 25 %"). */
function joinUnits(words: Word[]): Array<Word & { printed?: string }> {
  const out: Array<Word & { printed?: string }> = [];
  for (const w of words) {
    const prev = out.at(-1);
    const gap = prev ? w.x - (prev.x + prev.width) : 0;
    if (prev && /^[%€$£]$/.test(w.text) && /\d$/.test(prev.text) && gap < w.height) {
      out[out.length - 1] = {
        ...prev,
        text: `${prev.text}${w.text}`,
        width: w.x + w.width - prev.x,
        ...(gap > 0.15 * w.height ? { printed: `${prev.text} ${w.text}` } : {}),
      };
    } else if (prev && DIGIT_GROUP.test(w.text) && GROUPED_LEAD.test(prev.text) && gap >= 0 && gap <= 0.35 * w.height) {
      // A number grouped by word spaces ("4 743 750,00"): one cell, wherever its first group stands.
      out[out.length - 1] = {
        ...prev,
        text: `${prev.text}\u00a0${w.text}`,
        width: w.x + w.width - prev.x,
        printed: `${prev.printed ?? prev.text} ${w.text}`,
      };
    } else if (w.confidence !== undefined && prev && /^\d{2}$/.test(w.text) && SPLIT_AT_MARK.test(prev.text) && gap < 0.6 * w.height) {
      // A scan splitting a number after its decimal mark: "158," + "88" (never words: "A4, 80 g/m²").
      out[out.length - 1] = { ...prev, text: `${prev.text}${w.text}`, width: w.x + w.width - prev.x };
    } else out.push(w);
  }
  return out;
}

/** `nameX0`: where the open item's name starts, where its line is read for the next line of that name. */
function readLine(columns: Column[], line: Line, nameX0?: number): Parsed {
  const byKind = new Map<ColumnKind, string[]>();
  let words = 0;
  const vat = columns.find((c) => c.kind === 'vatRate');
  // A percentage is the VAT rate wherever skew or a misread set it, unless the table has a discount column.
  const rateColumn = vat && !columns.some((c) => c.kinds.has('discount')) ? vat : undefined;
  const all = line.segments.flatMap((seg, s) => joinUnits(seg.words).map((w) => ({ w, s })));
  const description0 = columns.find((c) => c.kind === 'description');
  // A dash or bullet set a word space before description text opens it, whatever header its edge touches ("- Garantie").
  const leadsText = (i: number) => {
    const [w, next] = [all[i]!, all[i + 1]];
    return (
      /^[^\p{L}\p{N}]+$/u.test(w.w.text) &&
      next?.s === w.s &&
      headerOver(columns, next.w) === description0 &&
      next.w.x - (w.w.x + w.w.width) < next.w.height
    );
  };
  /** `gap`: the space before the word, where it follows a word of its column in its segment. */
  let prev: { w: Word; col: Column; s: number; gap?: number } | undefined;
  let description: Parsed['description'];
  let nameFrom: number | undefined;
  let crossed = false;
  /** The segment of the last number in each column. */
  const lastNumber = new Map<ColumnKind, number>();
  all.forEach(({ w, s }, i) => {
    const numeric = isNumberWord(w.text);
    // A word set as closely as the text's own word spaces after description text is part of it
    // ("Karton 3 x 20", "D. Muster"), whichever column's header it stands under.
    const inText = prev?.s === s && prev.col.kind === 'description' && w.x - (prev.w.x + prev.w.width) <= wordSpace(prev, w);
    const next = all[i + 1]?.w;
    const percent =
      numeric &&
      /^\d{1,2}(?:[.,]\d{1,2})?%?$/.test(w.text) &&
      (w.text.endsWith('%') || (next !== undefined && next.text.startsWith('%') && next.x - (w.x + w.width) < 3 * w.height));
    const sign = w.text === '%' && prev?.col === rateColumn && prev !== undefined && w.x - (prev.w.x + prev.w.width) < 3 * w.height;
    const col = inText
      ? prev!.col
      : rateColumn && (percent || sign)
        ? rateColumn
        : (leadsText(i) && description0) || columnOf(columns, w, numeric);
    if (!col) return;
    const beyond = inText && columnOf(columns, w, numeric)?.kind !== 'description';
    crossed ||= beyond;
    const list = byKind.get(col.kind) ?? [];
    // Two numbers that land in one column but stand a column gap apart ("33" and "143,75" under a
    // header that spans both; "-120 h" and "85.00 €", a unit between them) are two values, never one
    // space-grouped number: a ';' keeps them apart.
    const before = lastNumber.get(col.kind);
    if (numeric && before !== undefined && before !== s) list.push(';');
    if (numeric) lastNumber.set(col.kind, s);
    // Text left of the description's header, or of the name above, in a segment of its own, stands in
    // a column the reader does not know ("4260331811362" under "Referenzen", "TB100A4" under a header
    // a scan ran together with "Pos"): the name column's text starts after it.
    const nameEdge = nameX0 === undefined ? undefined : nameX0 - 0.5 * w.height;
    const leftOfName = nameEdge !== undefined && description !== undefined && description.x1 < nameEdge && w.x >= nameEdge;
    const restart = col.kind === 'description' && description !== undefined && prev?.s !== s && (description.x1 < col.x0 || leftOfName);
    if (restart) nameFrom = list.length;
    prev = { w, col, s, gap: prev?.s === s && prev.col === col ? w.x - (prev.w.x + prev.w.width) : undefined };
    list.push(col.kind === 'description' ? (w.printed ?? w.text) : w.text);
    byKind.set(col.kind, list);
    if (restart) description = undefined;
    if (col.kind === 'description')
      description = {
        x0: description?.x0 ?? w.x,
        x1: beyond ? description!.x1 : w.x + w.width,
        ...(description ? { second: description.second ?? w.x } : {}),
        firstWidth: description?.firstWidth ?? w.width,
        height: w.height,
        top: line.top,
        bottom: line.bottom,
      };
    else if (description && description.next === undefined && w.x > description.x1) description.next = w.x;
    words++;
  });
  return {
    byKind,
    words,
    scanned: all.some(({ w }) => w.confidence !== undefined),
    ...(description ? { description } : {}),
    ...(nameFrom !== undefined ? { nameFrom } : {}),
    ...(crossed ? { crossed } : {}),
  };
}

/** The widest gap a word space of a text may be: the one before its last word, or under half the type size. */
function wordSpace(prev: { w: Word; gap?: number }, w: Word): number {
  return Math.max(0.4 * w.height, prev.gap === undefined ? 0 : prev.gap + 0.1 * w.height);
}

function firstNumber(doc: Doc, texts: string[] | undefined, money = false): NumberMatch | undefined {
  if (!texts) return undefined;
  const t = texts.join(' ');
  const dates = scanDates(t, doc.order);
  return scanNumbers(t, doc.mark).find((n) => !dates.some((d) => d.start < n.end && n.start < d.end) && (!money || !n.percent));
}

/** The last amount of a cell: money form only (two decimals or a currency sign), so a stray integer is not an amount. */
function lastMoney(doc: Doc, texts: string[] | undefined): NumberMatch | undefined {
  if (!texts) return undefined;
  const money = scanNumbers(texts.join(' '), doc.mark)
    .filter((n) => !n.percent && (n.decimals >= 2 || n.symbol !== undefined))
    .at(-1);
  // An amount a program printed as its number ("11718.8 EUR", "2382 EUR") is written in cents like every other.
  return money && money.decimals < 2 ? { ...money, value: new Decimal(money.value).toFixed(2) } : money;
}

/**
 * An amount the scan garbled ("27500" or "173510" for "275,00" and "173,10", "1X776" for
 * "11,76"): when the line's quantity and price read well, their product is the amount if its
 * digits are the printed ones but for one digit dropped, added or changed (a lost or misread
 * decimal separator).
 */
function garbledAmount(doc: Doc, parsed: Parsed): NumberMatch | undefined {
  const texts = parsed.byKind.get('lineAmount') ?? [];
  const token = texts.filter((t) => (t.match(/\d/g) ?? []).length >= 3).at(-1);
  const qty = firstNumber(doc, parsed.byKind.get('quantity'), true);
  const price = firstNumber(doc, parsed.byKind.get('unitPrice'), true);
  if (!token || !qty || !price || price.decimals < 2 || /[%]/.test(token)) return undefined;
  const product = new Decimal(qty.value).times(price.value);
  if (product.isZero() || editDistance(token.replace(/\D/g, ''), product.abs().toFixed(2).replace(/\D/g, '')) > 1) return undefined;
  const t = texts.join(' ');
  return { start: 0, end: t.length, value: product.toFixed(2), decimals: 2, percent: false };
}

/** amount ÷ price as a whole number of pieces (negative on a credit note), if it is one. */
function wholeQuantity(amount: string, price: string): Decimal | undefined {
  const p = new Decimal(price);
  if (p.isZero()) return undefined;
  const q = new Decimal(amount).dividedBy(p);
  return q.isInteger() && !q.isZero() && q.abs().lte(10000) ? q : undefined;
}

const near = (a: Decimal, b: Decimal) =>
  a
    .minus(b)
    .abs()
    .lte(Decimal.max(0.011, b.abs().times(0.005)));

/** What reading the items gathers over all pages. */
interface Scan {
  rows: ItemRow[];
  extents: Array<Omit<ItemExtent, 'to'> & { row: ItemRow }>;
  /** `page:line` keys of the lines the table used. */
  used: Set<string>;
  /** The open table's columns; undefined between tables. */
  columns?: Column[];
  /** The header's lines, counted as table only once an item follows it. */
  header: string[];
  rowsPrinted: boolean;
  /** The amount of the line that closed the items (their total, or the net total), if one did. */
  closing?: string;
  /** Per item, its name's line and the lines under it that may go on with it, decided once the table's widest is known. */
  names: Map<ItemRow, ItemName>;
  /** Text lines between the open table's header and its first item: the first item's name's start, where set right above it. */
  lead: { texts: string[]; bottom: number };
  /** Tables that print an item's figures on its name's last line, its first lines above them: which lines are whose, a person confirms. */
  figuresLast: Set<Column[]>;
}

interface ItemName {
  columns: Column[];
  lines: NameLine[];
  /**
   * The name's cell may hold more than was read: it ran on over a page break, or the line above
   * printed the item's quantity and price with no amount. Which lines are the name is then for a person to confirm.
   */
  cut?: boolean;
  /** Where the item's description began: on the line right under its name (`under`), or after the name's cell had closed (`apart`). */
  described?: 'under' | 'apart';
}

/** Where reading stands on one page: the item lines below go on with. */
interface Cursor {
  open: boolean;
  current?: ItemRow;
  currentBottom: number;
  /** Stacked headers (article number over description) print the name on the item's second line. */
  pendingName: boolean;
  /** The name's last line was the line above: the next may go on with it. */
  nameOpen: boolean;
  /**
   * The item's name was still open at the foot of the page before: the first line of this page
   * goes on with it only if set flush under it (at `x0`); its lines are moved up by `shift` to
   * stand under the name's last line, as the column printed them.
   */
  carried?: { x0: number; shift: number; flush: boolean };
}

/** One line under the header, as the columns read it. */
interface RowLine {
  parsed: Parsed;
  desc: string;
  first: string;
  price?: NumberMatch;
  amount?: NumberMatch;
  /** An amount printed on the line below, taken where quantity × price come to it. */
  dropped?: NumberMatch;
  isItem: boolean;
  /** A fee: a description and an amount, no quantity or price. */
  flat: boolean;
  /** The row is the sum of the items above it. */
  sumOfAbove: boolean;
  /** The row ends the items: their total, or the totals box. */
  closes: boolean;
  closingAmount?: NumberMatch;
}

export function findLineItems(doc: Doc): ItemTable {
  const scan: Scan = {
    rows: [],
    extents: [],
    used: new Set<string>(),
    header: [],
    rowsPrinted: false,
    names: new Map(),
    lead: { texts: [], bottom: 0 },
    figuresLast: new Set(),
  };
  let cursor: Cursor | undefined;
  for (const page of doc.pages) cursor = scanPage(doc, scan, page, cursor);
  if (scan.rows.length === 0)
    return { ...headerlessItems(doc), ...(scan.rowsPrinted || printsPricedRow(doc) ? { rowsPrinted: true } : {}) };
  return finishItems(doc, scan);
}

/**
 * Whether a line prints a quantity, a price and their product ("1 Trennblatter 9,9000 20 Stk 19
 * 198,00"): an item, whether or not a table was read around it. A scan whose column titles came
 * out garbled ("u Mee Beschreibung ; Nettopreis 5 Menge") still prints its items, and one line
 * per VAT rate must not stand in for them.
 */
function printsPricedRow(doc: Doc): boolean {
  return doc.pages.some((page) => page.lines.some((line) => holdsProduct(scanNumbers(lineText(line), doc.mark))));
}

function holdsProduct(numbers: readonly NumberMatch[]): boolean {
  const factors = numbers.filter((n) => !n.percent && new Decimal(n.value).gt(0));
  const amounts = factors.filter((n) => n.decimals === 2);
  return factors.some((a, i) =>
    factors.some((b, j) => j > i && amounts.some((c) => c !== a && c !== b && comesTo(a.value, b.value, c.value))),
  );
}

/** Whether quantity × price, rounded to the cent as a line amount is, is the amount. */
function comesTo(quantity: string, price: string, amount: string): boolean {
  return new Decimal(quantity).times(price).toDecimalPlaces(2).eq(amount);
}

function scanPage(doc: Doc, scan: Scan, page: PageLayout, before: Cursor | undefined): Cursor {
  const cursor: Cursor = { open: scan.columns !== undefined, currentBottom: 0, pendingName: false, nameOpen: false };
  carryName(scan, cursor, before, page);
  for (let i = 0; i < page.lines.length; i++) {
    if (isHeaderLine(doc, page.lines[i]!)) {
      const last = takeHeader(doc, scan, cursor, page, i);
      if (last !== undefined) {
        i = last;
        continue;
      }
    }
    if (cursor.open && scan.columns) i = readRow(doc, scan, cursor, page, i);
  }
  return cursor;
}

/** An item whose name was open at the foot of the page before stays the current one on this page's first line. */
function carryName(scan: Scan, cursor: Cursor, before: Cursor | undefined, page: PageLayout): void {
  const last = before?.current && before.nameOpen && cursor.open ? scan.names.get(before.current)?.lines.at(-1) : undefined;
  const first = page.lines[0];
  if (!last || !first) return;
  const shift = first.top - last.bottom - 0.2 * last.height;
  Object.assign(cursor, {
    current: before!.current,
    nameOpen: true,
    currentBottom: first.top,
    carried: { x0: last.x0, shift, flush: false },
  });
}

/** A header: a new item table's columns, or another table that ends the items. Returns the header's last line where it took it. */
function takeHeader(doc: Doc, scan: Scan, cursor: Cursor, page: PageLayout, i: number): number | undefined {
  const band = headerBand(doc, page, i);
  if (isItemHeader(band.columns)) {
    scan.columns = band.columns;
    scan.lead = { texts: [], bottom: 0 };
    cursor.open = true;
    cursor.current = undefined;
    scan.header = Array.from({ length: band.last - band.first + 1 }, (_, k) => `${page.page}:${band.first + k}`);
    // A renderer prints the header of an empty table too (a booking aid): only amounts right under it are items.
    scan.rowsPrinted ||= amountsUnder(doc, page, band.last);
    return band.last;
  }
  // Another table (a VAT breakdown) starts: the items are over.
  // (Labels with their values beside them, "Preisbasismenge: 1 Stk", are a note under an item, not a header.)
  const labelled = page.lines
    .slice(band.first, band.last + 1)
    .some((l) => l.segments.some((seg, k) => /:$/.test(seg.text) && isValue(l.segments[k + 1]?.text ?? '')));
  if (band.columns.length < 3 || scan.rows.length === 0 || labelled) return undefined;
  closeTable(scan, cursor);
  return band.last;
}

function closeTable(scan: Scan, cursor: Cursor): void {
  cursor.open = false;
  scan.columns = undefined;
  cursor.current = undefined;
}

/**
 * A label's value beside it: a figure ("1 Stk"), or several words ("GTIN - Global Trade Item
 * Number: 0123"). A header's next column title is one or two words.
 */
const isValue = (text: string) => /^\d/.test(text) || text.split(/\s+/).length >= 4;

/** A line of an open table: an item, the end of the items, or a line under the current item. Returns the last line it took. */
function readRow(doc: Doc, scan: Scan, cursor: Cursor, page: PageLayout, i: number): number {
  const line = page.lines[i]!;
  const r = rowLine(doc, scan, page, i, cursor.nameOpen ? nameStart(scan, cursor.current) : undefined);
  if (r.sumOfAbove) scan.closing = r.amount!.value;
  if (r.closes) {
    if (!r.sumOfAbove) scan.closing ??= r.closingAmount!.value;
    closeTable(scan, cursor);
    return i;
  }
  if (r.isItem) return startItem(doc, scan, cursor, page, i, r);
  if (scan.rows.length === 0 && !cursor.current && r.desc !== '' && !hasMoney(doc, line)) {
    // Only lines set at the text's spacing go on together; a note set apart above them is no part of the name.
    const apartAbove = scan.lead.texts.length > 0 && line.top - scan.lead.bottom > 0.8 * line.height;
    scan.lead = { texts: [...(apartAbove ? [] : scan.lead.texts), r.desc], bottom: line.bottom };
  }
  // A section heading alone on its line after the items ("Zahlungsbedingungen:") ends them.
  const apart = !cursor.current || line.top - cursor.currentBottom > 2.5 * line.height;
  if (apart && scan.rows.length > 0 && line.segments.length === 1 && /^\p{L}[\p{L}-]{5,}\s?:$/u.test(line.segments[0]!.text)) {
    closeTable(scan, cursor);
    return i;
  }
  if (cursor.current) continueItem(doc, scan, cursor, page.page, line, r);
  return i;
}

/**
 * Where the open name's own text starts on its first line, after a position number read into the
 * name's column: a scan may run the header's words together ("Pos Beschreibung" as one).
 */
function nameStart(scan: Scan, row: ItemRow | undefined): number | undefined {
  const first = row && scan.names.get(row)?.lines[0];
  if (!first) return undefined;
  return row.name === undefined || first.text.startsWith(row.name) ? first.x0 : (first.second ?? first.x0);
}

function rowLine(doc: Doc, scan: Scan, page: PageLayout, i: number, nameX0?: number): RowLine {
  const line = page.lines[i]!;
  const columns = scan.columns!;
  const first = fold(line.segments[0]?.text ?? '');
  const parsed = readLine(columns, line, nameX0);
  const desc = clean((parsed.byKind.get('description') ?? []).join(' '));
  const qty = firstNumber(doc, parsed.byKind.get('quantity'), true);
  const price = firstNumber(doc, parsed.byKind.get('unitPrice'), true);
  const printed = lastMoney(doc, parsed.byKind.get('lineAmount')) ?? garbledAmount(doc, parsed);
  const dropped = printed === undefined ? amountBelow(doc, columns, page, i, qty, price) : undefined;
  const amount = printed ?? dropped;
  const { item, flat } = itemShape(doc, line, parsed, desc, qty, price, amount);
  // An adjustment's word opening the table's first row adjusts no item above: "Abschlag Monat  1  29,95" is an instalment billed.
  const notAnItem = (NOT_AN_ITEM.test(fold(desc)) && scan.rows.length > 0) || PART_OF_ITEM.test(fold(desc));
  const isItem = item && !TABLE_END.test(first) && !notAnItem;
  // The totals box ends the items ("Total HT", "Gesamtbetrag"); a subtotal between sections does not.
  // (Its amount stands in the amount column: "Enthält 19% Versicherungssteuer = 12,77 €" noted under an item does not.)
  const closingAmount = lastMoney(doc, parsed.byKind.get('lineAmount'));
  // A row with neither quantity nor price whose amount is the sum of the items above is their total, whatever its label says.
  // (A flat fee's row, or one labelled as a total: "Totaal regels", "Sum of lines".)
  const totalRow = flat || (classifyTotal(fold(desc)).length > 0 && qty === undefined && price === undefined);
  const rows = scan.rows;
  const sumOfAbove =
    totalRow &&
    amount !== undefined &&
    rows.length > 0 &&
    rows.every((r) => r.amount !== undefined) &&
    rows.reduce((sum, r) => sum.plus(r.amount!), new Decimal(0)).eq(amount.value);
  const closes =
    sumOfAbove ||
    (!isItem && rows.length > 0 && hasMoney(doc, line) && closingAmount !== undefined && !notAnItem && closesTable(lineText(line)));
  return {
    parsed,
    desc,
    first,
    isItem,
    flat,
    sumOfAbove,
    closes,
    ...(price ? { price } : {}),
    ...(amount ? { amount } : {}),
    ...(dropped ? { dropped } : {}),
    ...(closingAmount ? { closingAmount } : {}),
  };
}

/**
 * Whether a line has an item's shape: an amount and either a description with a quantity or
 * price, or both quantity and price. `flat` is a fee with a description and an amount only.
 */
function itemShape(
  doc: Doc,
  line: Line,
  parsed: Parsed,
  desc: string,
  qty: NumberMatch | undefined,
  price: NumberMatch | undefined,
  amount: NumberMatch | undefined,
): { item: boolean; flat: boolean } {
  // On a scan the description may be left as scraps ("4-") and the quantity garbled ("LASER" for "1 Stk"): price and amount that divide evenly still make an item.
  const garbled =
    parsed.scanned &&
    qty === undefined &&
    price !== undefined &&
    amount !== undefined &&
    (parsed.byKind.get('quantity') ?? []).length > 0 &&
    wholeQuantity(amount.value, price.value) !== undefined;
  const described = (/\p{L}{2}/u.test(desc) || garbled) && (qty !== undefined || price !== undefined);
  // A flat fee ("le-tout-lyon.fr du 06/12/2022   45,93 €"): a description and an amount in the amount column, no quantity or price.
  const flat =
    !parsed.scanned &&
    /\p{L}{3}/u.test(desc) &&
    lastMoney(doc, parsed.byKind.get('lineAmount')) !== undefined &&
    (parsed.byKind.get('quantity') ?? []).length === 0 &&
    (parsed.byKind.get('unitPrice') ?? []).length === 0 &&
    !closesTable(lineText(line)) &&
    !classifyTotal(fold(desc)).length;
  return { item: amount !== undefined && (described || flat || (qty !== undefined && price !== undefined)), flat };
}

function startItem(doc: Doc, scan: Scan, cursor: Cursor, page: PageLayout, i: number, r: RowLine): number {
  const columns = scan.columns!;
  delete cursor.carried;
  const current = { ...rowOf(doc, page.page, r.parsed, columns), top: page.lines[i]!.top };
  // Only taken where quantity × price comes to it.
  if (r.dropped) Object.assign(current, { amount: r.dropped.value, ...(r.price ? { arithmetic: true } : {}) });
  scan.rows.push(current);
  scan.extents.push({ row: current, page, from: i, ...columnsOf(columns) });
  scan.header.forEach((k) => scan.used.add(k));
  scan.header = [];
  const taken = r.dropped ? [page.lines[i]!, page.lines[i + 1]!] : [page.lines[i]!];
  for (const l of taken) scan.used.add(`${page.page}:${l.index}`);
  if (current.name !== undefined) nameLine(scan, cursor, current, r);
  if (r.flat && pricedAbove(doc, scan, page, i)) scan.names.get(current)!.cut = true;
  leadIntoName(scan, current, page.lines[i]!);
  Object.assign(cursor, {
    current,
    nameOpen: current.name !== undefined && current.description === undefined,
    currentBottom: taken.at(-1)!.bottom,
    pendingName: current.name === undefined,
  });
  return i + taken.length - 1;
}

/**
 * The line right above a fee's row prints a quantity and a price but no amount, and no item took
 * it: an item whose amount, with its name's last line, was printed a line lower
 * ("Kfz-Haftpflicht SF25  67,2244  1  0 %" / "Regio R9  80,00"), where the price is net and the amount gross.
 */
function pricedAbove(doc: Doc, scan: Scan, page: PageLayout, i: number): boolean {
  const [above, line] = [page.lines[i - 1], page.lines[i]!];
  if (!above || scan.used.has(`${page.page}:${above.index}`) || line.top - above.bottom > 1.2 * line.height) return false;
  const parsed = readLine(scan.columns!, above);
  const has = (kind: ColumnKind) => firstNumber(doc, parsed.byKind.get(kind), true) !== undefined;
  return has('quantity') && has('unitPrice') && !has('lineAmount');
}

/** A line under the current item: its stepped price, its wrapped name, its description; or, apart from it, the end of it. */
function continueItem(doc: Doc, scan: Scan, cursor: Cursor, page: number, line: Line, r: RowLine): void {
  const current = cursor.current!;
  const { carried } = cursor;
  // Carried over a page break, only a line flush under the name goes on with it.
  if (carried && !carried.flush) carried.flush = r.parsed.description !== undefined && Math.abs(r.parsed.description.x0 - carried.x0) < 1.5;
  const close = line.top - cursor.currentBottom <= 2.5 * line.height && (!carried || carried.flush);
  const take = () => {
    scan.used.add(`${page}:${line.index}`);
    cursor.currentBottom = line.bottom;
  };
  if (close && priceStep(doc, current, r.parsed)) return take();
  // A continuation: text under the description (or id) column, close below the item. An amount
  // ends it where it stands in the number columns; within the name's text it is words ("2,00 Euro je Kilometer").
  const figures = hasMoney(doc, line) && (spills(r.parsed) || !cursor.nameOpen || r.desc.includes(':'));
  if (!close || TABLE_END.test(r.first) || (figures && !NOT_AN_ITEM.test(fold(r.desc)))) {
    // Words under an open name on a line of figures ("Grade Fasteners (1 kg)  - 1,00 €") may be the name's.
    if (close && figures && cursor.nameOpen && !r.desc.includes(':') && !TABLE_END.test(r.first)) nameLine(scan, cursor, current, r, true);
    cursor.current = undefined;
    delete cursor.carried;
    return;
  }
  take();
  if (NOT_AN_ITEM.test(fold(r.desc)) || r.desc === '') {
    // A name goes on only on the very next line.
    cursor.nameOpen = false;
    return;
  }
  extendItem(scan, cursor, current, r);
}

function extendItem(scan: Scan, cursor: Cursor, current: ItemRow, r: RowLine): void {
  const desc = r.desc;
  if (cursor.pendingName) {
    current.name = nameOf(desc);
    cursor.pendingName = false;
    cursor.nameOpen = true;
    nameLine(scan, cursor, current, r);
  } else if (cursor.nameOpen && (!desc.includes(':') || desc.startsWith('(')) && r.parsed.description && !spills(r.parsed)) {
    // Perhaps the name's next line; which of these lines are is told once the table is read.
    // (A label's line, "Verpackung: Karton", is always a description; so is a line too wide for the column.
    // A parenthesis before a colon, "(Stunde): Einer", is the name's.)
    nameLine(scan, cursor, current, r);
  } else {
    const entry = scan.names.get(current);
    if (entry && current.description === undefined) entry.described = cursor.nameOpen ? 'under' : 'apart';
    current.description = current.description ? `${current.description}\n${desc}` : desc;
    cursor.nameOpen = false;
  }
}

/** The quantity a price is for, noted under it ("je 100 Stk.", "per 10 pcs"): no text of the name's line beside it. */
const PRICE_BASE_NOTE = /^(?:je|pro|per|par|pour)\s+\d+(?:[.,]\d+)?\s*\p{L}+\.?$/iu;

/** A line under an item whose text runs on into the columns of numbers was not set to the name column's width. */
const spills = (parsed: Parsed) =>
  parsed.crossed === true ||
  [...parsed.byKind].some(
    ([k, texts]) => k !== 'description' && k !== 'itemId' && k !== 'position' && !PRICE_BASE_NOTE.test(texts.join(' ')),
  );

/** Notes a line of the item's name column: the first is the name's own. */
function nameLine(scan: Scan, cursor: Cursor, row: ItemRow, r: RowLine, spilled = false): void {
  const at = r.parsed.description;
  if (!at) return;
  const entry = scan.names.get(row) ?? { columns: scan.columns!, lines: [] };
  const { nameFrom } = r.parsed;
  const text = nameFrom === undefined ? r.desc : clean(r.parsed.byKind.get('description')!.slice(nameFrom).join(' '));
  const shift = cursor.carried?.shift ?? 0;
  entry.lines.push({ text, ...at, top: at.top - shift, bottom: at.bottom - shift, ...(spilled ? { spilled } : {}) });
  entry.cut ||= cursor.carried !== undefined;
  scan.names.set(row, entry);
}

/**
 * Text lines set right above a table's first item, under its header, with no figures of their
 * own: the item's name began there and its figures stand on its last line ("Zentrale
 * Administrationslösung Bereitstellung von" / "Werkzeugen zur Administration/Betreuung  12 pcs  …").
 * Such a table may give any item's first lines to the item above; every name in it is for a
 * person to confirm, the first offered whole.
 */
function leadIntoName(scan: Scan, row: ItemRow, line: Line): void {
  const entry = scan.names.get(row);
  const { texts, bottom } = scan.lead;
  if (scan.rows.length !== 1 || !entry || texts.length === 0 || line.top - bottom > 0.8 * line.height) return;
  scan.figuresLast.add(entry.columns);
  row.nameAlternatives = [[...texts, row.name!].join(' ')];
}

/** An article number and its label ("GTIN 4012345001235", "Art.-Nr.: TB100A4", "Art-Nr-Lieferant ZS9997"). */
const IDENTIFIER =
  /(?:gtin|ean|gln|sku|art(?:ikel)?[-.\s]*(?:nr|nummer|no)[-.\p{L}]*|item (?:no|number)|product code)\.?\s*:?\s*[\w./-]*\d[\w./-]*/iu;
/** A line that is an article number and its label only. */
const IDENTIFIER_LINE = new RegExp(`^${IDENTIFIER.source}$`, 'iu');
/** Article numbers before a name's words, joined with it from a narrow cell. */
const IDENTIFIERS_BEFORE = new RegExp(`^(?:${IDENTIFIER.source}\\s+)+(?=\\p{L})`, 'iu');

/** Each name with the lines under it that go on with it; the others open its description. */
function joinNames(scan: Scan): void {
  const tables = new Map<Column[], NameLine[][]>();
  for (const { columns, lines } of scan.names.values()) tables.set(columns, [...(tables.get(columns) ?? []), lines]);
  const apart = descriptionsApart(scan);
  for (const row of scan.rows) {
    const { columns, lines, cut } = scan.names.get(row) ?? { lines: [] };
    if (row.name === undefined || row.nameSet === 'colon') continue;
    const first = row.name;
    if (lines.length < 2) row.nameSet = row.description ? 'described' : 'alone';
    else joinName(row, row.name, lines, tables.get(columns!)!);
    if (row.nameSet === 'spaced' && apart.has(columns!)) row.nameSet = 'cell';
    if (cut || scan.figuresLast.has(columns!)) cutName(row, first);
    // An article number's line read for the name (a page break cut the cell under it) names nothing sure.
    if (IDENTIFIER_LINE.test(row.name!)) row.nameSet = 'open';
    else idsBeforeName(row);
  }
}

/**
 * The tables whose items print their descriptions apart from the name: some item's description
 * began after its name's cell had closed (under its article numbers or its price row), and none
 * right under its name.
 */
function descriptionsApart(scan: Scan): Set<Column[]> {
  const under = new Set<Column[]>();
  const apart = new Set<Column[]>();
  for (const { columns, described } of scan.names.values()) if (described) (described === 'apart' ? apart : under).add(columns);
  return new Set([...apart].filter((columns) => !under.has(columns)));
}

/** A name whose cell may hold more than was read (`ItemName.cut`): it is for a person to confirm. */
function cutName(row: ItemRow, first: string): void {
  row.nameSet = 'open';
  row.nameAlternatives = [...new Set([...(row.nameAlternatives ?? []), first])].filter((a) => a !== row.name);
}

/**
 * Article numbers printed in the name's cell before its words: issuers write the same cell into
 * their XML as the name whole (GTIN and all) or as the words after the numbers, so which one is
 * the name is for a person to confirm.
 */
function idsBeforeName(row: ItemRow): void {
  const ids = IDENTIFIERS_BEFORE.exec(row.name!)?.[0];
  if (!ids) return;
  row.nameSet = 'open';
  row.nameAlternatives = [row.name!.slice(ids.length), ...(row.nameAlternatives ?? [])];
}

/** The row's name with the lines under it that go on with it; the others open its description. */
function joinName(row: ItemRow, first: string, lines: NameLine[], table: NameLine[][]): void {
  const { name: whole, rest, broken, spaced, undecided } = joinWrapped(first, lines, table);
  // A joined line may bring the colon that ends the name ("(Stunde): Einer").
  const name = nameOf(whole);
  const cut = whole.slice(name.length).replace(/^\s*:\s*/, '');
  if (cut) rest.unshift(cut);
  row.nameSet = cut ? 'colon' : rest.length > 0 ? (undecided ? 'open' : 'described') : spaced ? 'spaced' : 'joined';
  if (cut) row.nameAlternatives = [whole];
  else if (broken || undecided || whole !== first) row.nameAlternatives = [rest.length > 0 ? joinLine(whole, rest[0]!) : first];
  row.name = name;
  const description = [...rest, ...(row.description ? [row.description] : [])].join('\n');
  if (description) row.description = description;
}

/** The rows read, checked against the arithmetic and the total that closed them. */
function finishItems(doc: Doc, scan: Scan): ItemTable {
  const rows = scan.rows;
  joinNames(scan);
  for (const r of rows) if (r.arithmetic === false) priceBaseOf(r);
  adjustRows(doc, scan.extents, scan.closing);
  for (const r of rows) nameBeforeBase(r);
  // Rows with neither quantity nor price that the printed total of the items leaves out (charges and
  // allowances set under an item, rows of the totals box) are not items: the rest add up to it.
  const sum = (list: ItemRow[]) => list.reduce((s, r) => s.plus(r.amount ?? 0), new Decimal(0));
  const priced = rows.filter((r) => r.quantity !== undefined || r.unitPrice !== undefined);
  const closing = scan.closing;
  if (closing !== undefined && priced.length > 0 && priced.length < rows.length && !sum(rows).eq(closing) && sum(priced).eq(closing))
    rows.splice(0, rows.length, ...priced);
  const amounts = rows.map((r) => r.amount);
  const lineSum =
    rows.length > 0 && amounts.every((a) => a !== undefined) ? amounts.reduce((s, a) => s.plus(a!), new Decimal(0)).toFixed(2) : undefined;
  return { rows, lines: scan.used, rowsPrinted: true, ...(lineSum ? { lineSum } : {}) };
}

/** The columns an item's allowances, charges and stepped price stand in. */
function columnsOf(columns: Column[]): Pick<ItemExtent, 'adjustments' | 'price'> {
  const adjustments = columns.find((c) => c.kinds.has('discount'));
  const price = columns.find((c) => c.kind === 'unitPrice');
  return { ...(adjustments ? { adjustments } : {}), ...(price ? { price } : {}) };
}

/**
 * Items whose amount is not quantity × price: their own allowances and charges may make it up.
 * Items whose amount is, with allowances under them: the amount may be before those.
 */
function adjustRows(doc: Doc, extents: Array<Omit<ItemExtent, 'to'> & { row: ItemRow }>, closing: string | undefined): void {
  const items = extents.map(({ row, ...extent }, k) => {
    const next = extents[k + 1];
    return { row, extent: { ...extent, to: next && next.page === extent.page ? next.from : extent.page.lines.length } };
  });
  for (const { row, extent } of items) {
    const adjusted = row.arithmetic === true ? undefined : readAdjustments(doc, row, extent);
    if (adjusted) Object.assign(row, adjusted, { arithmetic: true });
  }
  netOfAdjustments(doc, items, closing);
}

/**
 * Items without a table header ("Kfz-Haftpflicht … 80,00 €" / "Vollkasko … 140,00 €" /
 * "Beitrag 220,00 €"): consecutive lines of text ending in the same number of amounts, each in
 * a segment of its own and right-aligned, that are items only if the arithmetic says so — the
 * amounts of the line that follows are the sums of the columns above them. With three
 * columns where the first two add up to the third on every line (net, VAT, gross), the item's
 * amount is the net one.
 */
function headerlessItems(doc: Doc): ItemTable {
  const AMOUNT_ALONE = /^[-+]?[€$£]?\s?\d[\d.,' ]*\s?(?:[€$£]|EUR)?-?$/;
  for (const page of doc.pages) {
    let run: Array<{ line: Line; name: string; amounts: NumberMatch[]; x1: number }> = [];
    for (const line of page.lines) {
      // The amounts stand alone in the line's last segments; numbers inside the text are part of the name.
      let first = line.segments.length;
      while (first > 1 && AMOUNT_ALONE.test(line.segments[first - 1]!.text)) first--;
      const amounts = line.segments.slice(first).map((seg) => scanNumbers(seg.text, doc.mark).find((n) => n.decimals === 2));
      const found = amounts.length > 0 && amounts.every((n) => n !== undefined) ? (amounts as NumberMatch[]) : [];
      const x1 = line.segments.at(-1)!.x1;
      // Columns count from the right: the amounts every row of the run has (a price printed apart on some rows adds one).
      const columns = run.length ? Math.min(...run.map((r) => r.amounts.length)) : 0;
      if (run.length >= 2 && found.length > 0 && found.length <= columns) {
        const cell = (r: (typeof run)[number], k: number) => r.amounts[r.amounts.length - columns + k]!;
        // The total line sums the last columns (all of them, or only the amounts under a quantity).
        const sums = Array.from({ length: columns }, (_, k) => run.reduce((s, r) => s.plus(cell(r, k).value), new Decimal(0)));
        const summed = found.every((n, k) => new Decimal(n.value).eq(sums[columns - found.length + k]!));
        // The total must follow directly: it is what turns a list of amounts into items.
        if (summed && Math.abs(x1 - run.at(-1)!.x1) < 2 * line.height) {
          const net = found.length === columns ? netColumn(run.map((r) => r.amounts.slice(-columns))) : columns - 1;
          const rows = run.map((r) => ({ page: page.page, name: r.name, amount: cell(r, net).value }));
          return { rows, lines: new Set(run.map((r) => `${page.page}:${r.line.index}`)), lineSum: sums[net]!.toFixed(2) };
        }
      }
      const name = clean(
        line.segments
          .slice(0, first)
          .map((seg) => seg.text)
          .join(' '),
      );
      if (found.length > 0 && /\p{L}{3}/u.test(name) && classifyTotal(fold(name)).length === 0) {
        const aligned = run.length === 0 || Math.abs(run.at(-1)!.x1 - x1) < 2 * line.height;
        if (!aligned) run = [];
        run.push({ line, name, amounts: found, x1 });
        continue;
      }
      run = [];
    }
  }
  return { rows: [], lines: new Set() };
}

/** The net column of net / VAT / gross columns (first + second = third on every row); else the last. */
function netColumn(rows: NumberMatch[][]): number {
  const columns = rows[0]!.length;
  const netVatGross = columns === 3 && rows.every(([net, vat, gross]) => new Decimal(net!.value).plus(vat!.value).eq(gross!.value));
  return netVatGross ? 0 : columns - 1;
}

function closesTable(text: string): boolean {
  const label = fold(text)
    .replace(/[-+]?[\d.,]+\s*(?:%|€|\$|£)?/g, ' ')
    .trim();
  const kinds = classifyTotal(label);
  return kinds.some((k) => k === 'netTotal' || k === 'grossTotal' || k === 'vatTotal' || k === 'due') && !kinds.includes('lineTotal');
}

/**
 * A unit as a scan may print it: glued to a number ("5kg", "std19") or with one letter misread
 * ("SEK" for "Stk"). The letters are tried as they are, then with one letter changed; a
 * misreading counts only when it leads to exactly one unit.
 */
function misreadUnit(text: string): string | undefined {
  // A question mark after the letters stands for a sign the scan could not read ("m?" for "m²" or "m³"): the unit stays open.
  if (/\?/.test(text)) return undefined;
  const runs = text.match(/\p{L}+/gu) ?? [];
  const letters = runs.at(-1);
  if (!letters || runs.length > 2 || (runs.length === 2 && runs[0]!.length > 1)) return undefined;
  const exact = unitCode(letters);
  if (exact) return exact;
  const word = fold(letters);
  return word.length < 3 ? undefined : oneLetterMisread(word, knownUnit)?.value;
}

/**
 * "Luftballon: Bunt, ca. 500ml" → the name before the colon; the rest is description. A colon at
 * the end ("Heiße Luft pro Liter:") announces the description on the lines below.
 */
function nameOf(text: string): string {
  const m = /^([^:]{2,}?):\s+(.+)$/.exec(text);
  return clean(m ? m[1]! : text).replace(/\s*:$/, '');
}

function rowOf(doc: Doc, page: number, parsed: Parsed, columns: Column[]): ItemRow {
  const get = (k: ColumnKind) => parsed.byKind.get(k);
  const row: ItemRow = { page };
  const pos = get('position')?.join(' ').trim();
  if (pos && /^\d{1,4}\.?$/.test(pos)) row.position = pos.replace(/\.$/, '');
  const id = get('itemId')?.join(' ').trim();
  // A scan reads the table's rules beside a cell as "|" (or a stray low quote): no part of the text.
  let desc = clean((get('description') ?? []).join(' ')).replace(/^[|‚]+\s*|\s*\|+$/g, '');
  // Without a position column a running number printed before the name lands in the description
  // ("3 Vollkasko"), also before an article code ("1 GG-SCRW-A4-01 - High-Grade Screws").
  const numbered = !columns.some((c) => c.kind === 'position') && /^(\d{1,3})\.?\s+(?=\p{L}{3}|[A-Z][A-Z0-9]*[-/_][A-Z0-9])/u.exec(desc);
  if (numbered) {
    row.position = numbered[1]!;
    desc = desc.slice(numbered[0].length);
  }
  const stacked = columns.some((c) => c.kinds.has('itemId') && c.kinds.has('description') && c.kind === 'description');
  // An article number printed in front of the name: "[17589684] Beeswax XL", "0815 Stahlcoil".
  // Also with a dash between: "GG-SCRW-A4-01 - High-Grade Screws", "12345 - Toller Artikel".
  const code =
    /^(\[[^\]]+\]|\*[^*]+\*|\d{4,}\.?|[A-Z0-9]*\d[A-Z0-9]*[-/_][A-Z0-9-/_]+|(?=[A-Z0-9./_-]*\d)[A-Z0-9]+(?:[-/_.][A-Z0-9]+)+)\s+(?:[-\u2013]\s+)?(?=\p{L})/u.exec(
      desc,
    );
  if (code) {
    row.itemId = code[1]!.replace(/^[[*]|[\]*.]$/g, '');
    desc = desc.slice(code[0].length);
  }
  if (stacked && desc && !/\s/.test(desc) && /\d/.test(desc)) row.itemId = desc;
  else if (desc) {
    row.name = nameOf(desc);
    const rest = desc.slice(row.name.length).replace(/^:\s*/, '');
    if (rest) Object.assign(row, { description: rest, nameSet: 'colon', nameAlternatives: [desc] });
  }
  if (id && /\d/.test(id)) row.itemId = id.split(/\s+/)[0];

  const qtyTexts = get('quantity');
  const qty = firstNumber(doc, qtyTexts, true);
  if (qty) row.quantity = qty.value;
  // The unit: a word beside the quantity, or its own column.
  const unitTexts = [...(qtyTexts ?? []).filter((t) => !isNumberWord(t)), ...(get('unit') ?? [])];
  const unitWord =
    unitTexts.map(unitCode).find((u) => u !== undefined) ??
    (parsed.scanned ? unitTexts.map(misreadUnit).find((u) => u !== undefined) : undefined);
  if (unitWord) row.unit = unitWord;
  else if (unitTexts.some(isUnitLike)) row.unitPrinted = unitTexts.find(isUnitLike);
  // Two values a column gap apart in the price band: the price is the one aligned with its header
  // (the right one); the left one, in a table whose quantity column could not be read, is the quantity.
  const priceTexts = get('unitPrice') ?? [];
  const apart = priceTexts.lastIndexOf(';');
  const ownPrice = apart >= 0 ? priceTexts.slice(apart + 1) : priceTexts;
  const price = firstNumber(doc, ownPrice, true);
  if (price) row.unitPrice = price.value;
  const leftTexts = apart >= 0 && row.quantity === undefined ? priceTexts.slice(0, priceTexts.indexOf(';')) : [];
  const left = firstNumber(doc, leftTexts, true);
  if (left) {
    row.quantity = left.value;
    // Its unit printed beside it ("-120 h").
    row.unit ??= leftTexts.map(unitCode).find((u) => u !== undefined);
  }
  const amount = lastMoney(doc, get('lineAmount')) ?? garbledAmount(doc, parsed);
  if (amount) row.amount = amount.value;
  const rate = firstNumber(doc, get('vatRate'));
  if (rate && new Decimal(rate.value).gte(0) && new Decimal(rate.value).lt(30)) row.vatRate = new Decimal(rate.value).toString();
  const category = printedCategory((get('vatRate') ?? []).join(' '));
  if (category && row.vatRate !== undefined) row.vatCategory = category;
  row.arithmetic = checkArithmetic(row);
  if (row.arithmetic === true) impliedPriceBase(row);
  if (row.arithmetic !== true && row.amount !== undefined) repairByArithmetic(doc, row, parsed);
  garbledPrice(doc, row, parsed, ownPrice);
  // A quantity the scan garbled ("Tis tk" for "1 Stk"): amount ÷ price when that is a whole number.
  const pieces =
    row.quantity === undefined &&
    row.unitPrice !== undefined &&
    row.amount !== undefined &&
    parsed.scanned &&
    (get('quantity') ?? []).length > 0
      ? wholeQuantity(row.amount, row.unitPrice)
      : undefined;
  if (pieces) {
    row.quantity = pieces.toString();
    row.arithmetic = true;
  }
  return row;
}

/**
 * Amounts in the lines right under a header, none set apart: the table has rows. Four lines, since
 * its first row may print its amount a line lower, and a scan garbles the labels stacked under the
 * header ("3 -t-Nr" / "(Art)" for "Art-Nr" / "(Art)"), which then stay out of its band.
 */
function amountsUnder(doc: Doc, page: PageLayout, header: number): boolean {
  let above = page.lines[header]!;
  for (const line of page.lines.slice(header + 1, header + 5)) {
    if (line.top - above.bottom > 2.5 * line.height) return false;
    if (hasMoney(doc, line)) return true;
    above = line;
  }
  return false;
}

/**
 * The amount of an item printed a little lower than the rest of its row, in the line below
 * (beside the article's GTIN): taken where quantity × price comes to it, or where the row
 * prints a quantity and no price (the conversion holds the lines to the totals).
 */
function amountBelow(
  doc: Doc,
  columns: Column[],
  page: PageLayout,
  at: number,
  qty: NumberMatch | undefined,
  price: NumberMatch | undefined,
): NumberMatch | undefined {
  const [line, next] = [page.lines[at]!, page.lines[at + 1]];
  if (!qty || !next || next.top - line.bottom > 1.2 * line.height) return undefined;
  const below = readLine(columns, next);
  // A total set right under the last item ("Gesamtbetrag Netto  135,00 €") is no item's amount.
  const label = fold((below.byKind.get('description') ?? []).join(' '));
  if (closesTable(lineText(next)) || classifyTotal(label).length) return undefined;
  const amount = lastMoney(doc, below.byKind.get('lineAmount'));
  if (!amount || !price) return amount;
  return comesTo(qty.value, price.value, amount.value) ? amount : undefined;
}

/**
 * A line under an item that holds only a step of its price: its discount ("- €2.00") or, after
 * "=", the price it comes to ("= €18.00"), which is the net price where it multiplies out to
 * the amount.
 */
function priceStep(doc: Doc, row: ItemRow, parsed: Parsed): boolean {
  const texts = parsed.byKind.get('unitPrice');
  if (!texts || parsed.byKind.size !== 1) return false;
  const text = texts.join(' ').trim();
  if (/^[-\u2013]\s*\S/.test(text)) return scanNumbers(text, doc.mark).length === 1;
  if (!text.startsWith('=')) return false;
  const net = firstNumber(doc, [text.slice(1)], true);
  if (!net || row.quantity === undefined || row.amount === undefined) return false;
  if (!comesTo(row.quantity, net.value, row.amount)) return false;
  row.unitPrice = net.value;
  row.arithmetic = true;
  return true;
}

/**
 * When the columns do not multiply out (a "#" header over the quantities, a price in the
 * wrong band), the numbers of the line decide: the pair whose product is the amount is
 * quantity and price, the price being the one with money decimals.
 */
function repairByArithmetic(doc: Doc, row: ItemRow, parsed: Parsed): void {
  const numbers: string[] = [];
  let pricedAtOne = false;
  let discount: Decimal | undefined;
  for (const kind of ['position', 'quantity', 'unitPrice', 'discount', 'lineAmount', 'vatRate'] as ColumnKind[]) {
    const found = scanNumbers((parsed.byKind.get(kind) ?? []).join(' '), doc.mark);
    // The amount itself is the last number of its column; a percentage outside the VAT column is a discount.
    const plain = found.filter((n) => !n.percent);
    numbers.push(...(kind === 'lineAmount' ? plain.slice(0, -1) : plain).map((n) => n.value));
    if (kind === 'unitPrice') pricedAtOne = plain.some((n) => isOne(n.value));
    const pct = found.find((n) => n.percent);
    if (pct && kind !== 'vatRate' && discount === undefined) discount = new Decimal(pct.value);
  }
  const amount = new Decimal(row.amount!).abs();
  const factors = [new Decimal(1), ...(discount ? [new Decimal(1).minus(discount.dividedBy(100))] : [])];
  // What the columns said is kept where it fits: a printed price first, then a printed quantity, then any pair.
  const tries: Array<[string[], string[]]> = [
    ...(row.unitPrice ? [[numbers, [row.unitPrice]] as [string[], string[]]] : []),
    ...(row.quantity ? [[[row.quantity], numbers] as [string[], string[]]] : []),
    [numbers, numbers],
  ];
  for (const factor of factors) {
    for (const [qs, ps] of tries) {
      for (const qv of qs) {
        for (const pv of ps) {
          const q = new Decimal(qv);
          const p = new Decimal(pv);
          if (qv === pv && qs !== ps) continue;
          if (q.isZero() || !near(q.times(p).times(factor), amount)) continue;
          // One times the amount gives the amount either way round; one piece is common, a price of one is not.
          const swap = factor.eq(1) && p.eq(1) && !pricedAtOne;
          row.quantity = swap ? pv : qv;
          // With a discount the net price is the discounted one (BT-146); the printed one is the gross price.
          row.unitPrice = swap ? qv : factor.eq(1) ? pv : p.times(factor).toDecimalPlaces(2).toFixed(2);
          row.arithmetic = true;
          return;
        }
      }
    }
  }
}

const isOne = (v: string) => new Decimal(v).eq(1);

/**
 * A price the scan garbled into a whole number ("5730" for "5,50", "15555" for "15,55", "762€" for
 * "7.62 €") while quantity and amount read well: the price is amount ÷ quantity when that comes
 * out exact.
 */
function garbledPrice(doc: Doc, row: ItemRow, parsed: Parsed, priceTexts: readonly string[]): void {
  if (row.amount === undefined) return;
  const printed = scanNumbers(priceTexts.join(' '), doc.mark).filter((n) => !n.percent);
  // A text layer prints "762 €" as it means it; a scan loses the decimal point beside a currency sign as anywhere ("762€" for "7.62 €").
  const withCurrency = printed[0]?.symbol !== undefined && !parsed.scanned;
  if (printed.length !== 1 || printed[0]!.decimals >= 2 || withCurrency || !/^\d{3,}$/.test(printed[0]!.value)) return;
  const digits = printed[0]!.value;
  // A quantity the scan lost too: one piece, if the price then shows the amount's digits.
  const lostQuantity = row.quantity === undefined && parsed.scanned && (parsed.byKind.get('quantity') ?? []).length > 0;
  if (row.quantity === undefined && !lostQuantity) return;
  const q = new Decimal(row.quantity ?? 1);
  if (q.isZero()) return;
  // A credited line ("-2 pcs", "-15.24") has its price positive all the same.
  const p = new Decimal(row.amount).dividedBy(q);
  if (p.lte(0) || !p.times(100).isInteger() || !p.times(q).eq(row.amount)) return;
  // Where the columns already multiply out (a price per 100 or 1000 units) or the quantity is a guess, the printed digits must be the price's but for one.
  if ((row.arithmetic === true || lostQuantity) && editDistance(digits, p.toFixed(2).replace(/\D/g, '')) > 1) return;
  if (lostQuantity) row.quantity = '1';
  row.unitPrice = p.toFixed(2);
  row.arithmetic = true;
}

/** "(3 kg)", "pro 100 Stk", "per 10 pcs", "/ 100 m" printed with the item. */
const PRICE_BASE = /(?:\(|\b(?:per|pro|je|par|pour)\s+|\/\s*)(\d+(?:[.,]\d+)?)\s*([\p{L}²³]+)\.?\)?/gu;

/** A name's closing "(3 kg)": the quantity its price is for, in some unit. */
const BASE_AFTER_NAME = /^(.*\S)\s*\((\d+(?:[.,]\d+)?)\s*([\p{L}²³]+)\.?\)$/u;

/**
 * Some renderers print the price's base quantity right after the item's name ("Premium
 * Schrauben (1 kg)", "Standard Mounting" / "Brackets (3 kg)"): the name runs on to it over
 * every line the column broke it into, and the base, in the quantity's unit and the one the
 * arithmetic bears out, is no part of the name.
 */
function nameBeforeBase(row: ItemRow): void {
  if (row.name === undefined || row.unit === undefined || row.nameSet === 'colon') return;
  if (row.arithmetic !== true) return baseUnsure(row);
  const lines = [row.name, ...(row.description?.split('\n') ?? [])];
  let text = '';
  for (const [k, line] of lines.entries()) {
    text = k === 0 ? line : joinLine(text, line);
    const m = BASE_AFTER_NAME.exec(text);
    if (!m || unitCode(m[3]!) !== row.unit || !new Decimal(m[2]!.replace(',', '.')).eq(row.priceBase ?? 1)) continue;
    const rest = lines.slice(k + 1).join('\n');
    const nameSet = k > 0 ? (rest ? 'described' : 'joined') : row.nameSet === 'open' ? 'described' : row.nameSet;
    Object.assign(row, { name: m[1]!, nameSet, nameAlternatives: [row.name] });
    if (rest) row.description = rest;
    else delete row.description;
    return;
  }
}

/**
 * A name closing in a quantity of the item's unit ("Premium Schrauben (1 kg)" sold in kg) on a
 * line whose arithmetic does not tell whether it is the price's base: whether it is the name's is
 * for a person to confirm.
 */
function baseUnsure(row: ItemRow): void {
  const m = BASE_AFTER_NAME.exec(row.name!);
  if (!m || unitCode(m[3]!) !== row.unit) return;
  row.nameSet = 'open';
  row.nameAlternatives = [...new Set([m[1]!, ...(row.nameAlternatives ?? [])])];
}

/**
 * A price for more than one unit, printed with the item: quantity × price ÷ base is the
 * amount, in the unit of the quantity. Taken only where it is.
 */
function priceBaseOf(row: ItemRow): void {
  if (row.quantity === undefined || row.unitPrice === undefined || row.amount === undefined || row.unit === undefined) return;
  for (const m of `${row.name ?? ''} ${row.description ?? ''}`.matchAll(PRICE_BASE)) {
    const base = new Decimal(m[1]!.replace(',', '.'));
    if (base.lte(1) || unitCode(m[2]!) !== row.unit) continue;
    if (!near(new Decimal(row.quantity).times(row.unitPrice).dividedBy(base), new Decimal(row.amount))) continue;
    Object.assign(row, { priceBase: base.toString(), priceBaseUnit: row.unit, arithmetic: true });
    return;
  }
}

/** A price for 100 or 1000 units where quantity × price is a hundred or thousand times the amount ("2.500 Stk  3,80  95,00"). */
function impliedPriceBase(row: ItemRow): void {
  const [q, p, a] = [new Decimal(row.quantity!), new Decimal(row.unitPrice!), new Decimal(row.amount!)];
  if (near(q.times(p), a)) return;
  const base = [100, 1000].find((b) => near(q.times(p).dividedBy(b), a));
  if (base) Object.assign(row, { priceBase: String(base), ...(row.unit ? { priceBaseUnit: row.unit } : {}) });
}

export function checkArithmetic(row: ItemRow): boolean | undefined {
  if (row.quantity === undefined || row.unitPrice === undefined || row.amount === undefined) return undefined;
  const q = new Decimal(row.quantity);
  const p = new Decimal(row.unitPrice);
  const a = new Decimal(row.amount);
  return [1, 100, 1000].some((base) => near(q.times(p).dividedBy(base), a));
}
