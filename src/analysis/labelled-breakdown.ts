import { Decimal } from '../invoice/decimal.js';
import type { Doc } from './document.js';
import type { Line } from './layout.js';
import { VAT_CATEGORY_LABEL } from './lexicon.js';
import { scanNumbers } from './numbers.js';
import { fold } from './text.js';

/**
 * A VAT breakdown printed as labelled blocks, one per category, as renderings of the XML set it
 * (the XRechnung visualisation): "Umsatzsteuerkategorie: S (Standard rate)", then "Gesamtsumme
 * 113,03", "Umsatzsteuersatz 7,00%", "Umsatzsteuerbetrag 7,91", each amount beside its label.
 */

export interface LabelledVatRow {
  rate: string;
  base: string;
  tax: string;
  category: string;
  page: number;
  y: number;
  labelled: true;
}

/** The category's code after its label (an allowance's "Umsatzsteuerkategorie des Nachlasses" is no block). */
const CODE = /:\s*(S|Z|E|AE|K|G|O|L|M)\b/;

const PARTS: ReadonlyArray<['base' | 'rate' | 'tax', RegExp]> = [
  ['rate', /^(?:umsatzsteuersatz|steuersatz|vat rate|taux de tva)$/],
  ['tax', /^(?:umsatzsteuerbetrag|steuerbetrag|vat amount|montant de tva)$/],
  ['base', /^(?:gesamtsumme|total|steuerbasisbetrag|taxable amount|montant total|base imposable)$/],
];

/** A block's lines: at most this many after its opening line. */
const BLOCK_LINES = 4;

export function labelledVatRows(doc: Doc): LabelledVatRow[] {
  // A block may run over a page break: its category at the foot of one page, its amounts atop the next.
  const lines = doc.pages.flatMap((page) => page.lines);
  return lines.flatMap((line, i) => {
    const text = line.segments.map((s) => s.text).join(' ');
    const category = VAT_CATEGORY_LABEL.test(fold(text).trim()) ? CODE.exec(text)?.[1] : undefined;
    const found = category ? blockParts(doc, lines.slice(i + 1, i + 2 + BLOCK_LINES)) : undefined;
    const [base, rate, tax] = [found?.get('base'), found?.get('rate'), found?.get('tax')];
    // The three agree, to the cent: a block read whole.
    if (!base || !rate || !tax || base.times(rate).dividedBy(100).minus(tax).abs().gt(0.01)) return [];
    return [
      {
        rate: rate.toString(),
        base: base.toFixed(2),
        tax: tax.toFixed(2),
        category: category!,
        page: line.page,
        y: line.top,
        labelled: true,
      },
    ];
  });
}

/** The parts of a block, each once, up to the first line that is none; the category's name may wrap onto a line of its own first ("tax)"). */
function blockParts(doc: Doc, lines: readonly Line[]): Map<string, Decimal> {
  const found = new Map<string, Decimal>();
  for (const next of lines) {
    const [part, value] = partOf(doc, next) ?? [];
    if (!part && found.size === 0 && !/\d/.test(next.segments.map((s) => s.text).join(' '))) continue;
    if (!part || found.has(part)) break;
    found.set(part, value!);
  }
  return found;
}

/** "netto", "brutto": how the amount beside it is counted, which the HTML viewer sets in a column between label and amount. */
const COUNTED = /^(?:netto|brutto|net|gross)$/;

/**
 * A line's label and the number beside it. A rate is under 100 whatever its decimal mark: the
 * viewer prints "7.00%" on a page whose amounts read "113,03".
 */
function partOf(doc: Doc, line: Line): ['base' | 'rate' | 'tax', Decimal] | undefined {
  const [label, ...rest] = line.segments;
  const value = rest.at(-1);
  if (!label || !value || !rest.slice(0, -1).every((s) => COUNTED.test(fold(s.text).trim()))) return undefined;
  const bare = fold(label.text).replace(/[:\s]+$/, '');
  const part = PARTS.find(([, re]) => re.test(bare))?.[0];
  if (part === 'rate') {
    const rate = /^(\d{1,2}(?:[.,]\d+)?)\s*%?$/.exec(value.text.trim())?.[1];
    return rate === undefined ? undefined : [part, new Decimal(rate.replace(',', '.'))];
  }
  const number = scanNumbers(value.text, doc.mark)[0];
  return part && number ? [part, new Decimal(number.value).abs()] : undefined;
}
