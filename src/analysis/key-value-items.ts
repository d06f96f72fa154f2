import { PRINTED_CATEGORY, unitCode } from './codes.js';
import type { Doc } from './document.js';
import { Decimal } from '../invoice/decimal.js';
import type { Line } from './layout.js';
import { scanNumbers } from './numbers.js';
import { checkArithmetic, type ItemRow, type ItemTable } from './table.js';
import { fold } from './text.js';

/**
 * Items printed as blocks of labelled values rather than as a table, as the XRechnung
 * visualisation renders them: "Position: 1", then "Menge 1.0000", "Einheit HUR (hour)",
 * "Preis pro Einheit (netto) 99", "Gesamtpreis (netto) 99,00", "Umsatzsteuersatz: 19,00%",
 * "Bezeichnung: Erbrachte Dienstleistungen", two pairs to a line. Each value is read by its label.
 */

type ItemField = 'quantity' | 'unit' | 'unitPrice' | 'amount' | 'vatRate' | 'vatCategory' | 'name';

/** Labels of an item block, folded, without their colon. */
const ITEM_LABELS: ReadonlyArray<[ItemField, RegExp]> = [
  ['quantity', /^(?:menge|quantity|invoiced quantity|quantite|anzahl)$/],
  ['unit', /^(?:einheit|unit|unit of measure|unite)$/],
  [
    'unitPrice',
    /^(?:preis pro einheit(?: \(netto\))?|nettopreis|einzelpreis(?: \(netto\))?|(?:item )?net price|unit price|price per unit(?: \(net\))?|prix unitaire(?: ht)?)$/,
  ],
  [
    'amount',
    /^(?:gesamtpreis(?: \(netto\))?|nettobetrag|positionsbetrag|line (?:net )?amount|line total|total price(?: \(net\))?|montant (?:net|ht))$/,
  ],
  ['vatRate', /^(?:umsatzsteuersatz|steuersatz|vat rate|tax rate|taux de tva)$/],
  ['vatCategory', /^(?:umsatzsteuer(?:kategorie)?|vat category|tax category|categorie de tva)$/],
  ['name', /^(?:bezeichnung|artikelname|item name|name|designation|libelle)$/],
];

/** "Position: 1", "Pos. 2", "Item 3": the line that opens an item's block. */
const POSITION = /^(?:position|pos\.?|item|ligne|line)\s*:?$/;
/** An identifier label opens a block only under the item's number alone on its line ("1" / "Identifier: 1"). */
const NUMBERED = /^(?:identifier|kennung|identifiant)\s*:?$/;

export function keyValueItems(doc: Doc): ItemTable {
  const rows: ItemRow[] = [];
  const lines = new Set<string>();
  // A block may go on over a page break.
  let current: { row: ItemRow; values: Map<ItemField, string> } | undefined;
  for (const page of doc.pages) {
    page.lines.forEach((line, k) => {
      const position = positionOf(line, page.lines[k - 1]);
      if (position !== undefined) {
        if (current) rows.push(rowOf(doc, current.row, current.values));
        current = { row: { page: page.page, position }, values: new Map() };
      }
      if (!current) return;
      // Only lines that give the item a value are its own: a totals line after the last item ("Nettobetrag") stays the totals'.
      let fresh = position !== undefined;
      for (const [field, value] of pairsOf(line)) {
        if (current.values.has(field)) continue;
        current.values.set(field, value);
        fresh = true;
      }
      if (fresh) lines.add(`${page.page}:${line.index}`);
    });
  }
  if (current) rows.push(rowOf(doc, current.row, current.values));
  const items = rows.filter((r) => r.amount !== undefined && r.name !== undefined);
  const sum = items.reduce((s, r) => s.plus(r.amount!), new Decimal(0));
  // Blocks opened by their position but none read whole (a scan): the page prints items all the same.
  if (items.length === 0) return { rows: [], lines: new Set(), ...(rows.length > 0 ? { rowsPrinted: true } : {}) };
  return { rows: items, lines, lineSum: sum.toFixed(2), rowsPrinted: true };
}

function positionOf(line: Line, above: Line | undefined): string | undefined {
  const [label, value] = line.segments;
  const number = value?.text.trim();
  if (!label || !number || !/^\d{1,4}$/.test(number)) return undefined;
  const folded = fold(label.text).trim();
  const numbered = NUMBERED.test(folded) && above?.segments.length === 1 && above.segments[0]!.text.trim() === number;
  return POSITION.test(folded) || numbered ? number : undefined;
}

function fieldOf(text: string): ItemField | undefined {
  const bare = fold(text).replace(/[:\s]+$/, '');
  return ITEM_LABELS.find(([, re]) => re.test(bare))?.[0];
}

/** Each label of the line with the segment right after it, or with its value in one ("Umsatzsteuersatz: 19,00%"). */
function pairsOf(line: Line): Array<[ItemField, string]> {
  const out: Array<[ItemField, string]> = [];
  line.segments.forEach((seg, i) => {
    const field = fieldOf(seg.text);
    const value = line.segments[i + 1];
    if (field && value && !fieldOf(value.text)) out.push([field, value.text.trim()]);
    // A unit's label whose value the scan lost: a unit is printed all the same.
    else if (field === 'unit' && !value) out.push([field, '']);
    const inline = /^(.{1,40}?):\s*(\S.*)$/.exec(seg.text);
    const inlineField = inline ? fieldOf(inline[1]!) : undefined;
    if (inline && inlineField) out.push([inlineField, inline[2]!.trim()]);
  });
  return out;
}

function rowOf(doc: Doc, row: ItemRow, values: Map<ItemField, string>): ItemRow {
  const number = (field: ItemField) => {
    const text = values.get(field);
    return text === undefined ? undefined : scanNumbers(text, doc.mark)[0]?.value;
  };
  const out: ItemRow = { ...row };
  const name = values.get('name');
  if (name) out.name = name;
  const quantity = number('quantity');
  if (quantity !== undefined) out.quantity = quantity;
  // "HUR (hour)": the code, or the printed word.
  const unitText = values.get('unit');
  const unit = unitText === undefined ? undefined : (unitCode(unitText.split(/\s+/)[0]!) ?? unitCode(unitText));
  // A unit printed that no code is known for, or that the scan misread or lost ("(piece" without its "H87"), is for a person to code.
  if (unit) out.unit = unit;
  else if (unitText !== undefined) out.unitPrinted = unitText;
  const price = number('unitPrice');
  if (price !== undefined) out.unitPrice = price;
  const amount = number('amount');
  if (amount !== undefined) out.amount = amount;
  const rate = number('vatRate');
  if (rate !== undefined) out.vatRate = new Decimal(rate).toString();
  // "S (Standard rate)": the category's code.
  const category =
    /^(S|Z|E|AE|K|G|O|L|M)\b/.exec(values.get('vatCategory') ?? '')?.[1] ?? PRINTED_CATEGORY.exec(values.get('vatCategory') ?? '')?.[1];
  if (category && out.vatRate !== undefined) out.vatCategory = category;
  const arithmetic = checkArithmetic(out);
  return arithmetic === undefined ? out : { ...out, arithmetic };
}
