import { describe, expect, it } from 'vitest';
import { analyseInvoice, analyseWithEvidence } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, RENDERED_TOTALS, type Text } from './fixtures.js';

async function totalsOf(texts: Text[]) {
  const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
  return { totals: invoice.documentTotals, vat: invoice.vatBreakdown };
}

const letter: Text[] = [
  { s: 'Getränke Nord GmbH', x: 57, y: 50, size: 14, bold: true },
  { s: 'Rechnungsnummer: 2024-551', x: 57, y: 200 },
  { s: 'Rechnungsdatum: 04.03.2024', x: 57, y: 212 },
];

/** A totals table: one header row of labels, one row per VAT rate, the sum row last; amounts without words of their own. */
function totalsTable(rows: string[][]): Text[] {
  const heads = ['Warenwert', 'Zu-/Abschlag', 'Fracht', 'Nettobetrag', 'MwSt-Betrag', 'MwSt-%', 'Endbetrag'];
  const right = [110, 175, 230, 310, 380, 430, 520];
  const out: Text[] = heads.map((s, i) => ({ s, x: right[i]!, y: 500, right: true }));
  rows.forEach((row, r) =>
    row.forEach((s, i) => s && out.push({ s, x: right[i]!, y: 514 + r * 12 + (r === rows.length - 1 ? 8 : 0), right: true })),
  );
  return out;
}

describe('totals printed as a table under column headers', () => {
  it('reads the sum row by its headers; the rows above are the VAT breakdown', async () => {
    const { totals, vat } = await totalsOf([
      ...letter,
      ...totalsTable([
        ['326,50', '-8,10', '3,00', '321,40', '61,07', '19,0', '382,47'],
        ['130,70', '-3,11', '', '127,59', '8,93', '7,0', '136,52'],
        ['457,20', '-11,21', '3,00', '448,99', '70,00', 'EUR', '518,99'],
      ]),
    ]);
    expect(totals).toMatchObject({
      sumOfInvoiceLineNetAmount: '457.20',
      sumOfAllowancesOnDocumentLevel: '11.21',
      sumOfChargesOnDocumentLevel: '3.00',
      invoiceTotalAmountWithoutVat: '448.99',
      invoiceTotalVatAmount: '70.00',
      invoiceTotalAmountWithVat: '518.99',
    });
    expect(vat?.map((r) => [r.vatCategoryRate, r.vatCategoryTaxableAmount, r.vatCategoryTaxAmount])).toEqual([
      ['19', '321.40', '61.07'],
      ['7', '127.59', '8.93'],
    ]);
  });

  it('doubts the 0 % rows of a breakdown whose bases miss the net total, not the row its tax vouches for', async () => {
    // One of the two 0 % bases is misread (70,00 as 20,00, as a scan may): nothing on the page says which.
    const texts = [
      ...letter,
      ...totalsTable([
        ['100,00', '', '', '100,00', '19,00', '19,0', '119,00'],
        ['50,00', '', '', '50,00', '0,00', '0,0', '50,00'],
        ['20,00', '', '', '20,00', '0,00', '0,0', '20,00'],
        ['220,00', '', '', '220,00', '19,00', 'EUR', '239,00'],
      ]),
    ];
    const { evidence } = analyseWithEvidence(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
    const bases = [0, 1, 2].map((i) => evidence[`vatBreakdown[${i}].vatCategoryTaxableAmount`]);
    expect(bases).toEqual(['vatrow:inconsistent', 'vatrow:inconsistent:unvouched', 'vatrow:inconsistent:unvouched']);
    expect(evidence['vatBreakdown[1].vatCategoryTaxAmount']).toBe('vatrow:inconsistent');
  });

  it('keeps the signs of a corrective invoice, allowances included, and does not take a discount line for a VAT row', async () => {
    const { totals, vat } = await totalsOf([
      ...letter,
      { s: 'Rechnungsrabatt 2,00% Basisbetrag: -5,00, MwSt.-% 19,0, Rabattbetrag: 0,10', x: 57, y: 470 },
      ...totalsTable([
        ['-5,00', '0,15', '', '-4,85', '-0,92', '19,0', '-5,77'],
        ['-2,90', '0,08', '', '-2,82', '-0,20', '7,0', '-3,02'],
        ['-7,90', '0,23', '', '-7,67', '-1,12', 'EUR', '-8,79'],
      ]),
    ]);
    expect(totals).toMatchObject({
      sumOfInvoiceLineNetAmount: '-7.90',
      sumOfAllowancesOnDocumentLevel: '-0.23',
      invoiceTotalAmountWithoutVat: '-7.67',
      invoiceTotalVatAmount: '-1.12',
      invoiceTotalAmountWithVat: '-8.79',
    });
    expect(vat?.map((r) => r.vatCategoryRate)).toEqual(['19', '7']);
  });
});

describe('balances', () => {
  it('adds an earlier balance still open to what is due, as a negative prepaid amount', async () => {
    const { totals } = await totalsOf([
      ...letter,
      { s: 'Beitrag inklusive 19 % Versicherungsteuer', x: 57, y: 400 },
      { s: '220,00 €', x: 520, y: 400, right: true },
      { s: 'Ausstehende Forderung (Stand 04.03.2024)', x: 57, y: 412 },
      { s: '220,00 €', x: 520, y: 412, right: true },
      { s: 'zu zahlender Beitrag', x: 57, y: 424 },
      { s: '440,00 €', x: 520, y: 424, right: true },
    ]);
    expect(totals).toMatchObject({ invoiceTotalAmountWithVat: '220.00', paidAmount: '-220.00', amountDueForPayment: '440.00' });
  });

  it('reads a rounding amount and adds it to what is due, in German and English, where the balance is printed or not', async () => {
    const box = (rows: Array<[string, string]>): Text[] => [
      ...letter,
      ...rows.flatMap(([s, amount], i): Text[] => [
        { s, x: 57, y: 400 + 12 * i },
        { s: amount, x: 520, y: 400 + 12 * i, right: true },
      ]),
    ];
    const head: Array<[string, string]> = [
      ['Gesamtbetrag Netto', '121,50 €'],
      ['Umsatzsteuer (19,00 %)', '23,09 €'],
      ['Gesamtbetrag Brutto', '144,59 €'],
    ];
    const german = await totalsOf(
      box([...head, ['Rundungsbetrag', '0,01 €'], ['Vorausbezahlter Betrag', '10,00 €'], ['Offener Betrag', '134,60 €']]),
    );
    expect(german.totals).toMatchObject({ paidAmount: '10.00', roundingAmount: '0.01', amountDueForPayment: '134.60' });
    const english = await totalsOf(
      box([...head, ['Rounding Amount', '0,01 €'], ['Prepaid Amount', '10,00 €'], ['Open Amount', '134,60 €']]),
    );
    expect(english.totals).toMatchObject({ paidAmount: '10.00', roundingAmount: '0.01', amountDueForPayment: '134.60' });
    const unprinted = await totalsOf(box([...head, ['Rounding Amount', '0,01 €']]));
    expect(unprinted.totals).toMatchObject({ roundingAmount: '0.01', amountDueForPayment: '144.60' });
  });

  it('takes payments listed under the total as paying it in full only when they add up to it', async () => {
    const shop = (payments: Array<[string, string]>) => [
      ...letter,
      { s: 'Exclusief BTW', x: 57, y: 400 },
      { s: '€ 100,00', x: 300, y: 400, right: true },
      { s: 'BTW 21%', x: 57, y: 412 },
      { s: '€ 21,00', x: 300, y: 412, right: true },
      { s: 'Totaal', x: 57, y: 424 },
      { s: '€ 121,00', x: 300, y: 424, right: true },
      ...payments.flatMap(([label, amount], i): Text[] => [
        { s: label, x: 340, y: 440 + 12 * i },
        { s: amount, x: 520, y: 440 + 12 * i, right: true },
      ]),
    ];
    const paid = await totalsOf(
      shop([
        ["'iDEAL' op 21 april 2024", '€ 100,00'],
        ['Cadeaukaart op 21 april 2024', '€ 21,00'],
      ]),
    );
    expect(paid.totals).toMatchObject({ invoiceTotalAmountWithVat: '121.00', paidAmount: '121.00', amountDueForPayment: '0.00' });
    const partly = await totalsOf(shop([["'iDEAL' op 21 april 2024", '€ 100,00']]));
    expect(partly.totals).toMatchObject({ invoiceTotalAmountWithVat: '121.00', amountDueForPayment: '121.00' });
    expect(partly.totals?.paidAmount ?? '0.00').toBe('0.00');
  });

  it('lets the arithmetic choose the gross total among two labelled sums, with the lines giving the net', async () => {
    const { totals } = await totalsOf([
      ...letter,
      ...[
        ['Pos.', 'Beschreibung', 'Menge', 'Einzelpreis', 'Betrag'],
        ['1', 'Privathaftpflicht', '1', '40,00 €', '40,00 €'],
        ['2', 'Schlüsselverlust', '1', '10,00 €', '10,00 €'],
      ].flatMap((row, r) => row.map((s, i): Text => ({ s, x: [57, 90, 330, 420, 520][i]!, y: 300 + r * 14, right: i >= 2 }))),
      { s: 'Gesamtbeitrag', x: 57, y: 400 },
      { s: '50,00 €', x: 520, y: 400, right: true },
      { s: 'Versicherungsteuer 19 %', x: 57, y: 412 },
      { s: '9,50 €', x: 520, y: 412, right: true },
      { s: 'Rechnungsbeitrag', x: 57, y: 424 },
      { s: '59,50 €', x: 520, y: 424, right: true },
    ]);
    expect(totals).toMatchObject({
      invoiceTotalAmountWithoutVat: '50.00',
      invoiceTotalVatAmount: '9.50',
      invoiceTotalAmountWithVat: '59.50',
    });
  });

  it('reads totals whose amounts carry their currency code in front ("EUR 8,489.58"): the code is no label', async () => {
    const { totals } = await totalsOf([
      ...letter,
      { s: 'Total net', x: 330, y: 500 },
      { s: 'EUR 44,682.01', x: 540, y: 500, right: true },
      { s: 'Tax 19 % (S)', x: 330, y: 512 },
      { s: 'EUR 8,489.58', x: 540, y: 512, right: true },
      { s: 'Total incl. VAT', x: 330, y: 524 },
      { s: 'EUR 53,171.59', x: 540, y: 524, right: true },
    ]);
    expect(totals).toMatchObject({
      invoiceTotalAmountWithoutVat: '44682.01',
      invoiceTotalVatAmount: '8489.58',
      invoiceTotalAmountWithVat: '53171.59',
    });
  });

  /** A totals box from y = 500 down: a label at `x`, its amount right-aligned at 538, one row each 12 points. */
  const box = (x: number, rows: Array<[string, string]>): Text[] =>
    rows.flatMap(([label, amount], i) => [
      { s: label, x, y: 500 + 12 * i },
      { s: amount, x: 538, y: 500 + 12 * i, right: true },
    ]);

  it('takes an "Aufschlag" below the subtotal for a document-level charge', async () => {
    const { totals } = await totalsOf([
      ...letter,
      ...box(360, [
        ['Zwischensumme', '100,00'],
        ['Aufschlag', '5,80'],
        ['Summe netto', '105,80'],
        ['MwSt. 19 %', '20,10'],
        ['Gesamtsumme', '125,90'],
      ]),
    ]);
    expect(totals).toMatchObject({
      sumOfInvoiceLineNetAmount: '100.00',
      sumOfChargesOnDocumentLevel: '5.80',
      invoiceTotalAmountWithoutVat: '105.80',
      invoiceTotalAmountWithVat: '125.90',
    });
  });

  it('reads an "Additional charge" as a document-level charge, though a VAT table header stands to its left', async () => {
    const { totals } = await totalsOf([
      ...letter,
      ...box(300, [
        ['Items total', '€208.00'],
        ['Additional charge (delivery)', '€25.00'],
        ['Total net', '€233.00'],
        ['Total tax', '€0.00'],
        ['Grand total', '€233.00'],
      ]),
      { s: 'VAT rate    Code    Taxable amount    VAT', x: 57, y: 512, size: 8 },
      { s: '0.00 %      AE      233.00        0.00', x: 57, y: 524, size: 8 },
    ]);
    expect(totals).toMatchObject({
      sumOfInvoiceLineNetAmount: '208.00',
      sumOfChargesOnDocumentLevel: '25.00',
      invoiceTotalAmountWithoutVat: '233.00',
      invoiceTotalVatAmount: '0.00',
      invoiceTotalAmountWithVat: '233.00',
    });
  });
});

describe('the totals of a rendering of the XML (the XRechnung visualisation)', () => {
  it('reads each sum by its label: two "Gesamtsumme" told apart by the arithmetic, the third-party sum no total', async () => {
    const rows: Array<[string, string]> = [
      ['Summe aller Positionen', '180,76'],
      ['Summe Nachlässe', '9,07'],
      ['Summe Zuschläge', '5,80'],
      ['Gesamtsumme', '177,49'],
      ['Summe Umsatzsteuer in Abrechnungswährung', '20,16'],
      ['Gesamtsumme', '197,65'],
      ['Gezahlter Betrag', '50,00'],
      ['Summe Fremdforderungen', '0,00'],
      ['Fälliger Betrag', '147,65'],
    ];
    const { totals } = await totalsOf([
      ...letter,
      { s: 'Gesamtbeträge der Rechnung', x: 57, y: 480, bold: true },
      ...rows.flatMap(([label, amount], i): Text[] => [
        { s: label, x: 57, y: 500 + 12 * i },
        { s: amount, x: 520, y: 500 + 12 * i, right: true },
      ]),
    ]);
    expect(totals).toMatchObject({
      ...RENDERED_TOTALS,
      paidAmount: '50.00',
      amountDueForPayment: '147.65',
    });
  });
});

describe('a VAT breakdown printed as labelled blocks, one per category', () => {
  it('reads each block: its category, base, rate and tax, where the three agree', async () => {
    const block = (y: number, category: string, base: string, rate: string, tax: string): Text[] => [
      { s: `VAT category: ${category}`, x: 57, y },
      ...(
        [
          ['Total', base],
          ['VAT rate', rate],
          ['VAT amount', tax],
        ] as const
      ).flatMap(([label, value], i): Text[] => [
        { s: label, x: 57, y: y + 12 * (i + 1) },
        { s: value, x: 520, y: y + 12 * (i + 1), right: true },
      ]),
    ];
    const { vat } = await totalsOf([
      ...letter,
      { s: 'Total amount', x: 57, y: 400 },
      { s: '177.49', x: 520, y: 400, right: true },
      { s: 'Total VAT', x: 57, y: 412 },
      { s: '20.16', x: 520, y: 412, right: true },
      { s: 'Total', x: 57, y: 424 },
      { s: '197.65', x: 520, y: 424, right: true },
      { s: 'Sales tax breakdown at invoice level', x: 57, y: 450, bold: true },
      ...block(470, 'S (Standard rate)', '113.03', '7.00%', '7.91'),
      ...block(530, 'S (Standard rate)', '64.46', '19.00%', '12.25'),
    ]);
    expect(vat?.map((r) => [r.vatCategoryCode, r.vatCategoryRate, r.vatCategoryTaxableAmount, r.vatCategoryTaxAmount])).toEqual([
      ['S', '7', '113.03', '7.91'],
      ['S', '19', '64.46', '12.25'],
    ]);
  });
});
