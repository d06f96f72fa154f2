import { describe, expect, it } from 'vitest';
import { analyseInvoice, analyseWithEvidence } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

/**
 * Forms that print each amount twice, without and with the tax: a line's "Total price" beside
 * its "Total price with tax", a breakdown row's tax before its base ("VAT rate  Tax  Without VAT
 * With VAT"). The line's amount and the breakdown's base are the ones without.
 */

const head: Text[] = [
  { s: 'Invoice', x: 57, y: 50, size: 14 },
  { s: 'Invoice no.: 2024-0311', x: 320, y: 50, size: 12 },
  { s: 'Issue date: Mar 5, 2024', x: 320, y: 70, size: 10 },
  { s: 'Harbour Supplies Ltd', x: 60, y: 90 },
  { s: '12 Quay Street', x: 60, y: 100 },
  { s: 'Cork T12 X2Y4', x: 60, y: 110 },
];

const cols = { name: 60, units: 300, price: 360, net: 420, rate: 460, gross: 540 };

function itemTable(rateWord: string, grossWord: string): Text[] {
  const header: Array<[string, number, boolean?]> = [
    ['Description', cols.name],
    ['Units', cols.units, true],
    ['Price per one', cols.price, true],
    ['Total price', cols.net, true],
    [rateWord, cols.rate, true],
    [grossWord, cols.gross, true],
  ];
  const rows = [
    ['Copy paper A4', '20 pcs', '€9.90', '€198.00', '19 %', '€235.62'],
    ['Toner black', '5 pcs', '€55.00', '€275.00', '7 %', '€294.25'],
  ];
  const xs = [cols.name, cols.units, cols.price, cols.net, cols.rate, cols.gross];
  return [
    ...header.map(([s, x, right]) => ({ s, x, y: 300, size: 8, bold: true, right })),
    ...rows.flatMap((row, r) => row.map((s, i) => ({ s, x: xs[i]!, y: 316 + 14 * r, size: 8, right: i > 0 }))),
  ];
}

/** The breakdown as the same form sets it: rate, tax, base, base with tax, each a column of its own. */
const breakdown: Text[] = [
  { s: 'Breakdown VAT', x: 60, y: 348, size: 7, bold: true },
  { s: 'VAT rate Tax', x: 60, y: 372, size: 7 },
  { s: 'Without VAT', x: 160, y: 372, size: 7 },
  { s: 'With VAT', x: 230, y: 372, size: 7 },
  ...[
    ['19.00%', '€37.62', '€198.00', '€235.62'],
    ['7.00%', '€19.25', '€275.00', '€294.25'],
  ].flatMap((row, r) => row.map((s, i) => ({ s, x: [60, 105, 160, 230][i]!, y: 382 + 9 * r, size: 7 }))),
  { s: 'Total with tax: €529.87', x: 380, y: 420, size: 11, bold: true },
];

async function analyse(texts: Text[]) {
  return analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: true }).invoice;
}

describe('amounts printed without and with the tax', () => {
  it('takes a line amount from the column without the tax, though the one with it stands last', async () => {
    for (const gross of ['Total price with tax', 'Betrag inkl. MwSt.', 'Gross amount']) {
      const invoice = await analyse([...head, ...itemTable('Tax', gross), ...breakdown]);
      expect(
        invoice.invoiceLine?.map((l) => [l.itemInformation.itemName, l.invoiceLineNetAmount]),
        gross,
      ).toEqual([
        ['Copy paper A4', '198.00'],
        ['Toner black', '275.00'],
      ]);
      // The breakdown's heading ends the items: it is no description of the last one.
      expect(invoice.invoiceLine?.[1]?.itemInformation.itemDescription, gross).toBeUndefined();
    }
  });

  it('reads a breakdown row that prints the tax before its base', async () => {
    const invoice = await analyse([...head, ...breakdown]);
    expect(invoice.vatBreakdown?.map((r) => [r.vatCategoryRate, r.vatCategoryTaxableAmount, r.vatCategoryTaxAmount])).toEqual([
      ['19', '198.00', '37.62'],
      ['7', '275.00', '19.25'],
    ]);
    expect(invoice.documentTotals).toMatchObject({
      invoiceTotalAmountWithoutVat: '473.00',
      invoiceTotalVatAmount: '56.87',
      invoiceTotalAmountWithVat: '529.87',
    });
  });

  it('never reads a tax before an amount as a breakdown row where nothing around speaks of VAT', async () => {
    const invoice = await analyse([
      ...head,
      { s: 'Instalments', x: 60, y: 372, size: 7 },
      { s: '19.00%', x: 60, y: 382, size: 7 },
      { s: '€37.62', x: 105, y: 382, size: 7 },
      { s: '€198.00', x: 160, y: 382, size: 7 },
      { s: 'Total: €529.87', x: 380, y: 420, size: 11, bold: true },
    ]);
    expect(invoice.vatBreakdown ?? []).toEqual([]);
  });
});

describe("an item's figures on its name's last line", () => {
  it('asks a person for every name of a table whose first item begins above its figures, and offers that name whole', async () => {
    const y0 = 316;
    const figures = (y: number, amount: string): Text[] => [
      { s: '12 pcs', x: cols.units, y, size: 8, right: true },
      { s: '€197.89', x: cols.price, y, size: 8, right: true },
      { s: amount, x: cols.net, y, size: 8, right: true },
    ];
    const page: Text[] = [
      ...head,
      ...[
        ['Description', cols.name],
        ['Units', cols.units],
        ['Price per one', cols.price],
        ['Total price', cols.net],
      ].map(([s, x], k) => ({ s: s as string, x: x as number, y: 300, size: 8, bold: true, right: k > 0 })),
      // A note set apart above the items is no part of the first name.
      { s: 'As agreed in our offer of 2 March', x: cols.name, y: y0, size: 8 },
      { s: 'Central administration, provision of', x: cols.name, y: y0 + 20, size: 8 },
      { s: 'tools for administration and support', x: cols.name, y: y0 + 30, size: 8 },
      ...figures(y0 + 30, '€2,374.68'),
      { s: 'Packaging of the application', x: cols.name, y: y0 + 44, size: 8 },
      { s: 'for 180 devices', x: cols.name, y: y0 + 54, size: 8 },
      ...figures(y0 + 54, '€2,374.68'),
      { s: 'Total: €4,749.36', x: 380, y: 420, size: 11, bold: true },
    ];
    const { invoice, evidence, candidates } = analyseWithEvidence(await extractTextLayer(await pdfOf([page])), { withLineItems: true });
    expect(invoice.invoiceLine).toHaveLength(2);
    expect([0, 1].map((i) => evidence[`invoiceLine[${i}].itemInformation.itemName`])).toEqual(['name:open', 'name:open']);
    expect(candidates['invoiceLine[0].itemInformation.itemName']).toContain(
      'Central administration, provision of tools for administration and support',
    );
  });
});
