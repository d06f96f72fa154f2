import { describe, expect, it } from 'vitest';
import { buildDoc } from '../../src/analysis/document.js';
import { analyseInvoice } from '../../src/analysis/index.js';
import { findLineItems } from '../../src/analysis/table.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

/**
 * Allowances and charges on one item, printed with it: stacked in a column of their own
 * under labels, or as rows of a small table under the item. Layouts drawn for the test.
 */

type Cell = [string, number, boolean?];

function page(header: Cell[][], rows: Cell[][], total = '250,00 €'): Text[][] {
  const texts: Text[] = [{ s: 'Gartenbedarf Lindner KG', x: 60, y: 50, size: 12, bold: true }];
  let y = 200;
  for (const line of header) {
    for (const [s, x, right] of line) texts.push({ s, x, y, size: 8, bold: true, right });
    y += 10;
  }
  y += 6;
  for (const row of rows) {
    for (const [s, x, right] of row) texts.push({ s, x, y, size: 8, right });
    y += 10;
  }
  texts.push({ s: 'Zwischensumme', x: 90, y: y + 20, size: 8 }, { s: total, x: 540, y: y + 20, size: 8, right: true });
  return [texts];
}

const header: Cell[][] = [
  [
    ['Pos.', 60],
    ['Artikel', 90],
    ['Menge', 290, true],
    ['Einzelpreis', 350, true],
    ['Nachlässe /', 440, true],
    ['Gesamt', 540, true],
  ],
  [['Zuschläge', 440, true]],
];

/** One item with an allowance printed under its label, a line below: 8,00 € a kilo, `quantity` kilos. */
const seeds = (quantity: string, amount: string): Text[][] =>
  page(header, [
    [
      ['1', 60],
      ['Rasensamen 5 kg', 90],
      [quantity, 290, true],
      ['8,00 €', 350, true],
      ['Treuerabatt:', 440, true],
      [amount, 540, true],
    ],
    [['- 0,25 €', 440, true]],
  ]);

async function rowsOf(pages: Text[][]) {
  return findLineItems(buildDoc(await extractTextLayer(await pdfOf(pages)))).rows;
}

describe('allowances and charges printed with an item', () => {
  it('reads a column of labelled allowances and charges, with the price stepped down under the item, where they make up the amount', async () => {
    const rows = await rowsOf(
      page(header, [
        [
          ['1', 60],
          ['Gartenschlauch 20 m', 90],
          ['4 Stk', 290, true],
          ['12,50 €', 350, true],
          ['Mengenrabatt', 440, true],
          ['47,00 €', 540, true],
        ],
        [
          ['- 0,50 €', 350, true],
          ['gewährt:', 440, true],
        ],
        [
          ['= 12,00 €', 350, true],
          ['- 3,00 €', 440, true],
        ],
        [['Verpackung:', 440, true]],
        [['+ 2,00 €', 440, true]],
      ]),
    );
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({
      quantity: '4',
      unitPrice: '12.00',
      amount: '47.00',
      arithmetic: true,
      allowances: [{ amount: '3.00', reason: 'Mengenrabatt gewährt' }],
      charges: [{ amount: '2.00', reason: 'Verpackung' }],
    });
  });

  it('reads the column under an English title ("Allowances / Charges")', async () => {
    const english: Cell[][] = [
      [
        ['Item', 60],
        ['Product', 90],
        ['Quantity', 290, true],
        ['Unit Price', 350, true],
        ['Allowances /', 440, true],
        ['Total Price', 540, true],
      ],
      [['Charges', 440, true]],
    ];
    const rows = await rowsOf(
      page(english, [
        [
          ['1', 60],
          ['Premium Filter Cartridges', 90],
          ['2 kg', 290, true],
          ['€15.00', 350, true],
          ['Expedited', 440, true],
          ['€45.00', 540, true],
        ],
        [['Processing Fee:', 440, true]],
        [['+ €15.00', 440, true]],
      ]),
    );
    expect(rows[0]).toMatchObject({
      amount: '45.00',
      arithmetic: true,
      charges: [{ amount: '15.00', reason: 'Expedited Processing Fee' }],
    });
  });

  it('reads an allowance printed under its label, one line below the item', async () => {
    const rows = await rowsOf(seeds('2,5', '19,75 €'));
    expect(rows[0]).toMatchObject({ amount: '19.75', arithmetic: true, allowances: [{ amount: '0.25', reason: 'Treuerabatt' }] });
  });

  it('reads the rows of a small table of allowances under the item ("Abschlag  Grund  %  Grundbetrag  Betrag"): the reason without the kind column or a code printed after it', async () => {
    const rows = await rowsOf(
      page(
        [
          [
            ['Pos.', 60],
            ['Artikel', 90],
            ['Menge', 290, true],
            ['Einzelpreis', 350, true],
            ['Gesamt', 540, true],
          ],
        ],
        [
          [
            ['1', 60],
            ['Hochbeet Lärche', 90],
            ['20 Stk', 290, true],
            ['10,00 €', 350, true],
            ['180,00 €', 540, true],
          ],
          [['Qualität A, unbehandelt', 90]],
          [
            ['Abschlag', 90],
            ['Treuebonus (CAO)', 150],
            ['5', 300, true],
            ['200,00', 360, true],
            ['-10,00', 540, true],
          ],
          [
            ['Abschlag', 90],
            ['Selbstabholung', 150],
            ['200,00', 360, true],
            ['-10,00', 540, true],
          ],
        ],
      ),
    );
    expect(rows[0]).toMatchObject({
      quantity: '20',
      unitPrice: '10.00',
      amount: '180.00',
      arithmetic: true,
      allowances: [
        { amount: '10.00', reason: 'Treuebonus' },
        { amount: '10.00', reason: 'Selbstabholung' },
      ],
    });
  });

  it('takes no allowance the amount does not bear out', async () => {
    const rows = await rowsOf(seeds('2', '15,00 €'));
    expect(rows[0]).toMatchObject({ amount: '15.00', arithmetic: false });
    expect(rows[0]!.allowances).toBeUndefined();
  });

  it('writes them into the invoice line (BG-27, BG-28)', async () => {
    const pdf = await pdfOf(seeds('2,5', '19,75 €'));
    const result = analyseInvoice(await extractTextLayer(pdf), { withLineItems: true });
    expect(result.invoice.invoiceLine?.[0]?.invoiceLineAllowances).toEqual([
      { invoiceLineAllowanceAmount: '0.25', invoiceLineAllowanceReason: 'Treuerabatt' },
    ]);
  });

  const simple: Cell[][] = [
    [
      ['Pos.', 60],
      ['Artikel', 90],
      ['Menge', 290, true],
      ['Einzelpreis', 350, true],
      ['Gesamt', 540, true],
    ],
  ];
  /** Two items with a line under the first: what it prints, and the subtotal under both. */
  const twoItems = (under: Cell[], total: string) =>
    page(
      simple,
      [
        [
          ['1', 60],
          ['Pflanzkübel Terrakotta', 90],
          ['3', 290, true],
          ['4,00', 350, true],
          ['12,00', 540, true],
        ],
        under,
        [
          ['2', 60],
          ['Blumenerde 40 l', 90],
          ['5', 290, true],
          ['5,50', 350, true],
          ['27,50', 540, true],
        ],
      ],
      total,
    );
  const discounted = (total: string) =>
    twoItems(
      [
        ['abzgl.', 250],
        ['16,7% Rabatt', 300],
        ['-2,00', 540, true],
      ],
      total,
    );

  it('nets an amount printed before the allowance under it, where the items then add up to their subtotal', async () => {
    const rows = await rowsOf(discounted('37,50'));
    expect(rows[0]).toMatchObject({ unitPrice: '4.00', amount: '10.00', allowances: [{ amount: '2.00', reason: 'abzgl. 16,7% Rabatt' }] });
    expect(rows[1]).toMatchObject({ amount: '27.50' });
    expect(rows[1]!.allowances).toBeUndefined();
  });

  /** "1,00 %  - 0,12" under the item: figures only, in the price and amount columns. */
  const percentOff = (percent: string, total: string) =>
    twoItems(
      [
        [percent, 350, true],
        ['- 0,12', 540, true],
      ],
      total,
    );

  it('nets a row of figures only under the item, a percentage and what it takes off, as a discount with no reason printed (code 95)', async () => {
    const rows = await rowsOf(percentOff('1,00 %', '39,38'));
    expect(rows[0]).toMatchObject({ amount: '11.88', allowances: [{ amount: '0.12', code: '95' }] });
    expect(rows[0]!.allowances![0]!.reason).toBeUndefined();
    // A percentage that does not take that amount off the item's is no discount of it.
    const off = await rowsOf(percentOff('2,00 %', '39,38'));
    expect(off[0]).toMatchObject({ amount: '12.00' });
    expect(off[0]!.allowances).toBeUndefined();
  });

  it('keeps the printed amount where the subtotal is the sum of the printed amounts', async () => {
    const rows = await rowsOf(discounted('39,50'));
    expect(rows[0]).toMatchObject({ amount: '12.00' });
    expect(rows[0]!.allowances).toBeUndefined();
  });
});

describe('allowances and charges on a scan', () => {
  /** The page as a scan hands it over: every word read at 0.95, the named ones at what the recogniser gave them. */
  async function scannedRows(pages: Text[][], unsure: Record<string, number>) {
    const read = (await extractTextLayer(await pdfOf(pages))).map((p) => ({
      ...p,
      source: 'ocr' as const,
      words: p.words.map((w) => ({ ...w, confidence: unsure[w.text] ?? 0.95 })),
    }));
    return findLineItems(buildDoc(read)).rows;
  }
  const fee = (word: string) =>
    page(header, [
      [
        ['1', 60],
        ['Filterkartusche', 90],
        ['2 Stk', 290, true],
        ['15,00 €', 350, true],
        ['Expedited', 440, true],
        ['45,00 €', 540, true],
      ],
      [[`${word} Fee:`, 440, true]],
      [['+ 15,00 €', 440, true]],
    ]);

  it('marks a reason with a word the recogniser made up ("Se" for "Processing" at 0.12) as garbled', async () => {
    const [row] = await scannedRows(fee('Se'), { Se: 0.12 });
    expect(row!.charges).toEqual([{ amount: '15.00', reason: 'Expedited Se Fee', legibility: ':garbled' }]);
  });

  it('leaves a reason read clearly unmarked', async () => {
    const [row] = await scannedRows(fee('Processing'), {});
    expect(row!.charges).toEqual([{ amount: '15.00', reason: 'Expedited Processing Fee' }]);
  });
});
