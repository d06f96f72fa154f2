import type { Invoice } from '../invoice/model.js';
import type { Finding } from '../validation/index.js';
import { readPageTexts } from './pdfjs.js';

/**
 * comparePDF2XML: does the printed invoice say what its XML says? The visible text (pdfjs-dist)
 * is searched for the invoice number, the dates, the totals and the parties of the XML, in the
 * spellings invoices print them (23.01.2025, 1.234,56, 1,234.56, …). Everything the XML carries
 * and the page does not show is an error finding with source 'pdf'.
 */

/** The text of every page, items separated by spaces. */
export async function visibleText(bytes: Uint8Array): Promise<string> {
  const pages = await readPageTexts(bytes, async (page) => {
    const content = await page.getTextContent();
    return content.items.map((item) => ('str' in item ? item.str + (item.hasEOL ? '\n' : ' ') : '')).join('');
  });
  return pages.join('\n');
}

interface Check {
  bt: string;
  label: string;
  value: string | undefined;
  kind: 'text' | 'date' | 'amount';
}

export function compareVisibleText(text: string, invoice: Invoice): Finding[] {
  const normalised = normalise(text);
  if (normalised.trim() === '') {
    return [
      {
        ruleId: 'PDF2XML-NO-TEXT',
        severity: 'error',
        message: 'The PDF has no text layer, so it cannot be compared with the XML (a scan?).',
        source: 'pdf',
      },
    ];
  }
  const amounts = amountsIn(normalised);
  const compact = normalised.replace(/\s+/g, '');
  const t = invoice.documentTotals;
  const checks: Check[] = [
    { bt: 'BT-1', label: 'invoice number', value: invoice.invoiceNumber, kind: 'text' },
    { bt: 'BT-2', label: 'issue date', value: invoice.invoiceIssueDate, kind: 'date' },
    { bt: 'BT-9', label: 'payment due date', value: invoice.paymentDueDate, kind: 'date' },
    { bt: 'BT-27', label: 'seller name', value: invoice.seller?.sellerName, kind: 'text' },
    { bt: 'BT-44', label: 'buyer name', value: invoice.buyer?.buyerName, kind: 'text' },
    { bt: 'BT-109', label: 'total without VAT', value: t?.invoiceTotalAmountWithoutVat, kind: 'amount' },
    { bt: 'BT-110', label: 'total VAT', value: t?.invoiceTotalVatAmount, kind: 'amount' },
    { bt: 'BT-112', label: 'total with VAT', value: t?.invoiceTotalAmountWithVat, kind: 'amount' },
    { bt: 'BT-115', label: 'amount due', value: t?.amountDueForPayment, kind: 'amount' },
  ];
  const findings: Finding[] = [];
  for (const check of checks) {
    if (check.value === undefined) continue;
    const shown =
      check.kind === 'amount'
        ? amounts.has(canonicalAmount(check.value))
        : check.kind === 'date'
          ? dateSpellings(check.value).some((d) => compact.includes(d))
          : compact.includes(normalise(check.value).replace(/\s+/g, ''));
    if (!shown) {
      findings.push({
        ruleId: `PDF2XML-${check.bt}`,
        severity: 'error',
        message: `The visible text of the PDF does not show the ${check.label} (${check.bt}) of the XML: ${check.value}`,
        location: check.bt,
        source: 'pdf',
      });
    }
  }
  return findings;
}

function normalise(text: string): string {
  return text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[\u00a0\u202f]/g, ' ');
}

/** Absolute value with exactly two decimals: credit notes print amounts with or without sign. */
function canonicalAmount(decimal: string): string {
  const [int = '0', frac = ''] = decimal.replace(/^[-+]/, '').split('.');
  const digits = frac.replace(/0+$/, '').padEnd(2, '0');
  return `${int.replace(/^0+(?=\d)/, '')}.${digits}`;
}

// Thousands separators in use: . , ' ’ and (thin) spaces; decimal separators: . and ,
const GROUPED = /(?<![\d.,])\d{1,3}(?:[.,'’ ]\d{3})+(?:[.,]\d{1,4})?(?![\d])/g;
const PLAIN = /(?<![\d])\d+(?:[.,]\d{1,4})?(?![\d])/g;

/** Every amount the text may show, each read both ways (1.234,56 and 1,234.56). */
function amountsIn(text: string): Set<string> {
  const found = new Set<string>();
  for (const re of [GROUPED, PLAIN]) {
    for (const [token] of text.matchAll(re)) {
      const decimalAt = Math.max(token.lastIndexOf(','), token.lastIndexOf('.'));
      const hasDecimals = decimalAt >= 0 && token.length - decimalAt - 1 !== 3;
      const int = (hasDecimals ? token.slice(0, decimalAt) : token).replace(/[.,'’ ]/g, '');
      const frac = hasDecimals ? token.slice(decimalAt + 1) : '';
      found.add(canonicalAmount(`${int}.${frac}`));
      // "1.234" may also be 1.234 with three decimals, or 1,234 = 1.234 in German notation.
      if (!hasDecimals && decimalAt >= 0) found.add(canonicalAmount(token.replace(/[,']/g, '.').replace(/ /g, '')));
    }
  }
  return found;
}

const MONTHS: ReadonlyArray<readonly string[]> = [
  ['januar', 'january', 'janvier'],
  ['februar', 'february', 'février'],
  ['märz', 'march', 'mars'],
  ['april', 'april', 'avril'],
  ['mai', 'may', 'mai'],
  ['juni', 'june', 'juin'],
  ['juli', 'july', 'juillet'],
  ['august', 'august', 'août'],
  ['september', 'september', 'septembre'],
  ['oktober', 'october', 'octobre'],
  ['november', 'november', 'novembre'],
  ['dezember', 'december', 'décembre'],
];

/** The ways a date is printed, without spaces (the text is compared without spaces too). */
function dateSpellings(iso: string): string[] {
  const [y = '', m = '', d = ''] = iso.split('-');
  const day = String(Number(d));
  const month = String(Number(m));
  const yy = y.slice(2);
  const numeric = [
    `${y}-${m}-${d}`,
    `${d}.${m}.${y}`,
    `${day}.${month}.${y}`,
    `${d}/${m}/${y}`,
    `${m}/${d}/${y}`,
    `${d}-${m}-${y}`,
    `${d}.${m}.${yy}`,
    `${y}${m}${d}`,
  ];
  const names = (MONTHS[Number(m) - 1] ?? []).flatMap((name) => [
    `${day}.${name}${y}`,
    `${day}${name}${y}`,
    `${name}${day},${y}`,
    `${d}.${name}${y}`,
  ]);
  return [...numeric, ...names];
}
