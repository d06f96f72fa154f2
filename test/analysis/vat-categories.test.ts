import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
import { printedCategory } from '../../src/analysis/codes.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

/**
 * Invoices with several categories at one rate (0 % reverse charge, zero rated, intra-community):
 * category codes printed after the rate or the VAT word, a "Tax" heading over "Rate" and
 * "Amount", and allowances and charges listed with their rate above the breakdown.
 * Layout drawn for the test.
 */

const r = (s: string, x: number, y: number, size = 8): Text => ({ s, x, y, size, right: true });
const l = (s: string, x: number, y: number, size = 8): Text => ({ s, x, y, size });

function invoice(): Text[] {
  const items: Array<[string, string, string, string, string, string]> = [
    ['Beratung', '10 h', '100.00 €', '0 %AE', '0.00 €', '1,000.00 €'],
    ['Druckerpapier', '4 pcs', '5.00 €', '19 %S19', '3.80 €', '20.00 €'],
    ['Schulung', '2 h', '150.00 €', '0 %Z', '0.00 €', '300.00 €'],
    ['Lieferung EU', '1 pcs', '500.00 €', '0 %K', '0.00 €', '500.00 €'],
  ];
  const texts: Text[] = [
    l('Nordlicht Consulting Ltd.', 60, 50, 12),
    l('Invoice No. 2024-0077', 60, 120, 11),
    l('Date: 12 Mar 2024', 60, 136),
    l('#', 62, 200),
    l('Description', 80, 200),
    r('Qty', 300, 200),
    r('Price', 370, 200),
    l('Tax', 412, 200),
    r('Amount', 530, 200),
    l('Rate', 388, 212),
    l('Amount', 430, 212),
  ];
  items.forEach((row, i) => {
    const y = 226 + 14 * i;
    texts.push(
      l(String(i + 1), 62, y),
      l(row[0], 80, y),
      r(row[1], 300, y),
      r(row[2], 370, y),
      l(row[3], 388, y),
      r(row[4], 465, y),
      r(row[5], 530, y),
    );
  });
  texts.push(
    l('Subtotal', 60, 290),
    r('3.80 €', 465, 290),
    r('1,820.00 €', 530, 290),
    l('Discount', 60, 304),
    r('-20.00 €', 370, 304),
    l('0 % AE', 388, 304),
    r('0.00 €', 465, 304),
    r('-20.00 €', 530, 304),
    l('Net Total', 60, 318),
    r('1,800.00 €', 530, 318),
    l('Tax Breakdown', 60, 334),
    r('Sum', 370, 334),
    l('Rate', 388, 334),
    r('Tax Amount', 530, 334),
  );
  const rows: Array<[string, string, string, string]> = [
    ['S19', '20.00 €', '19 %', '3.80 €'],
    ['AE', '980.00 €', '0 %', '0.00 €'],
    ['Z', '300.00 €', '0 %', '0.00 €'],
    ['K', '500.00 €', '0 %', '0.00 €'],
  ];
  rows.forEach(([code, base, rate, tax], i) => {
    const y = 348 + 14 * i;
    // The code is set a little higher than its row, as a run of its own.
    texts.push(l(code, 80, y - 3, 7), l('VAT', 60, y), r(base, 370, y), r(rate, 410, y), r(tax, 530, y));
  });
  texts.push(l('Tax Total', 60, 410), r('3.80 €', 530, 410), l('Grand Total', 60, 424), r('1,803.80 €', 530, 424));
  texts.push(l('AE VAT exempt: reverse charge (Article 196 of Council Directive 2006/112/EC).', 60, 450));
  return texts;
}

describe('several VAT categories at one rate', () => {
  it('reads a category code printed after the rate or the VAT word, and only there', () => {
    expect(printedCategory('0 %AE')).toBe('AE');
    expect(printedCategory('19 % S19')).toBe('S');
    expect(printedCategory('VAT AE')).toBe('AE');
    expect(printedCategory('0 % VAT (E)')).toBe('E');
    expect(printedCategory('19% MwSt')).toBeUndefined();
    expect(printedCategory('VAT Summary')).toBeUndefined();
  });

  it('reads the rate under a "Tax" heading set over "Rate" and "Amount", with the category printed beside it', async () => {
    const { invoice: got } = analyseInvoice(await extractTextLayer(await pdfOf([invoice()])), { withLineItems: true });
    expect(
      got.invoiceLine?.map((line) => [
        line.lineVatInformation?.[0]?.invoicedItemVatRate,
        line.lineVatInformation?.[0]?.invoicedItemVatCategoryCode,
      ]),
    ).toEqual([
      ['0', 'AE'],
      ['19', 'S'],
      ['0', 'Z'],
      ['0', 'K'],
    ]);
    expect(got.invoiceLine?.map((line) => line.invoiceLineNetAmount)).toEqual(['1000.00', '20.00', '300.00', '500.00']);
  });

  it('reads one breakdown row per category, each with the code set beside it, and takes the discount above for no row', async () => {
    const { invoice: got } = analyseInvoice(await extractTextLayer(await pdfOf([invoice()])), { withLineItems: true });
    expect(got.vatBreakdown?.map((row) => [row.vatCategoryCode, row.vatCategoryRate, row.vatCategoryTaxableAmount])).toEqual([
      ['S', '19', '20.00'],
      ['AE', '0', '980.00'],
      ['Z', '0', '300.00'],
      ['K', '0', '500.00'],
    ]);
  });

  it("gives a discount the category printed beside its rate, and none where the rate's rows differ in category", async () => {
    const read = async (texts: Text[]) =>
      analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: true }).invoice.documentLevelAllowances?.map((a) => [
        a.documentLevelAllowanceAmount,
        a.documentLevelAllowanceVatRate,
        a.documentLevelAllowanceVatCategoryCode,
      ]);
    expect(await read(invoice())).toEqual([['20.00', '0', 'AE']]);
    // Without "AE" beside it, the 0 % discount may be AE, Z or K: the last 0 % row's K was written before.
    const unmarked = invoice().map((t) => (t.s === '0 % AE' ? { ...t, s: '0 %' } : t));
    expect(await read(unmarked)).toEqual([['20.00', '0', undefined]]);
  });

  it('gives rows of one rate no category the words around them would imply', async () => {
    // Without the codes beside the rows, "reverse charge" printed below cannot say which 0 % row it is.
    const texts = invoice().filter((t) => !['S19', 'AE', 'Z', 'K'].includes(t.s));
    const { invoice: got } = analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
    const zero = got.vatBreakdown?.filter((row) => row.vatCategoryRate === '0') ?? [];
    expect(zero.map((row) => row.vatCategoryTaxableAmount)).toEqual(['980.00', '300.00', '500.00']);
    expect(zero.map((row) => row.vatCategoryCode)).toEqual([undefined, undefined, undefined]);
  });
});

describe('an exemption reason wrapped around its breakdown row', () => {
  // The row's amounts are centred on the reason's lines, as ZUGFeRD's reference rendering sets them.
  const page = (reason: string[], amountsY = 286.3, more: Text[] = []): Text[] => [
    l('Praxis für Physiotherapie', 60, 50, 12),
    ...more,
    l('Rechnungsnummer: 471102', 60, 120),
    l('Rechnungsdatum: 06.11.2018', 60, 132),
    l('Umsatzsteueraufschlüsselung:', 50, 240),
    l('Art (Kategorie)', 50, 257),
    r('Steuerbasisbetrag', 378, 257),
    r('USt. %', 438, 257),
    r('USt.-Betrag', 536, 257),
    l('VAT (E)', 50, 270),
    ...reason.map((s, k) => l(s, 50, 281 + 11.25 * k)),
    r('380,00', 378, amountsY),
    r('0', 462, amountsY),
    r('0,00', 546, amountsY),
    l('Belegsummen:', 50, 328),
    l('Rechnungssumme ohne USt.', 300, 342),
    r('380,00', 546, 342),
    l('Steuerbetrag', 300, 354),
    r('0,00', 546, 354),
    l('Bruttosumme', 300, 366),
    r('380,00', 546, 366),
  ];
  const reasons = async (texts: Text[]) =>
    analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false }).invoice.vatBreakdown?.map(
      (b) => b.vatExemptionReasonText,
    );

  it('reads the whole reason, its lines above and below the amounts', async () => {
    expect(await reasons(page(['Steuerfreie', 'Leistungen nach', '§4 Nr. 14 UStG']))).toEqual([
      'Steuerfreie Leistungen nach §4 Nr. 14 UStG',
    ]);
    expect(await reasons(page(['Umsatzsteuerbefreit', 'nach §4 Nr. 10a', 'UStG']))).toEqual(['Umsatzsteuerbefreit nach §4 Nr. 10a UStG']);
  });

  it("takes the row's own wording, set above and beside its amounts, over the same exemption named elsewhere", async () => {
    const seller = [l('Weitere Informationen:', 60, 160), l('Kleinunternehmer gemäß § 19 UStG', 260, 160)];
    const cell = ['Kein Ausweis von', 'Umsatzsteuer, da', 'Kleinunternehmer gemäß', '§ 19 UStG'];
    expect(await reasons(page(cell, 292.25, seller))).toEqual(['Kein Ausweis von Umsatzsteuer, da Kleinunternehmer gemäß § 19 UStG']);
  });

  it('does not run on past the amounts into words that end in no legal reference', async () => {
    expect(await reasons(page(['Steuerfreie Leistungen nach §4 Nr. 14', 'Bankverbindung', 'Sparkasse Musterstadt']))).toEqual([
      'Steuerfreie Leistungen nach §4 Nr. 14',
    ]);
  });
});

describe('an exemption reason in a breakdown printed as labelled values', () => {
  it('takes the reason beside its label, not the category line nor the labels of the amounts under it', async () => {
    const rows: Array<[string, string]> = [
      ['Umsatzsteuerkategorie: E (Exempt from tax)', ''],
      ['Gesamtsumme', '380,00'],
      ['Umsatzsteuersatz', '0,00%'],
      ['Umsatzsteuerbetrag', '0,00'],
    ];
    const texts: Text[] = [
      l('Praxis für Physiotherapie', 60, 50, 12),
      l('Rechnungsnummer: 471102', 60, 120),
      l('Rechnungsdatum: 06.11.2018', 60, 132),
      l('Aufschlüsselung der Umsatzsteuer auf Ebene der Rechnung', 60, 300, 10),
      ...rows.flatMap(([label, amount], i) => [l(label, 62, 320 + 11 * i), ...(amount ? [r(amount, 500, 320 + 11 * i)] : [])]),
      l('Befreiungsgrund:', 62, 372),
      l('Steuerfreie Leistungen nach §4 Nr. 14 UStG', 160, 372),
      l('Gesamtsumme', 62, 400),
      r('380,00', 500, 400),
      l('Fälliger Betrag', 62, 412),
      r('380,00', 500, 412),
    ];
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
    expect(invoice.vatBreakdown?.map((b) => [b.vatCategoryCode, b.vatExemptionReasonText])).toEqual([
      ['E', 'Steuerfreie Leistungen nach §4 Nr. 14 UStG'],
    ]);
  });
});

describe('a 0 % nothing on the page explains', () => {
  it("codes the lines Z as the row's guess, at even odds, not as a category the breakdown printed", async () => {
    const page: Text[] = [
      l('Praxis am Markt', 60, 50, 12),
      l('Invoice No. 2024-0078', 60, 120, 11),
      l('Date: 12 Mar 2024', 60, 136),
      l('Description', 60, 200),
      r('Quantity', 330, 200),
      r('Subtotal', 530, 200),
      l('Treatment', 60, 216),
      r('10', 330, 216),
      r('260.00 EUR', 530, 216),
      l('Home visit', 60, 230),
      r('10', 330, 230),
      r('120.00 EUR', 530, 230),
      l('Total without VAT', 330, 270),
      r('380.00 EUR', 530, 270),
      l('VAT Rate', 330, 284),
      r('0%', 530, 284),
      l('VAT', 330, 298),
      r('0 EUR', 530, 298),
      l('Total with VAT', 330, 312),
      r('380.00 EUR', 530, 312),
    ];
    const { invoice, fieldConfidence } = analyseInvoice(await extractTextLayer(await pdfOf([page])), { withLineItems: true });
    expect(invoice.invoiceLine?.map((line) => line.lineVatInformation[0]?.invoicedItemVatCategoryCode)).toEqual(['Z', 'Z']);
    const lineCategory = fieldConfidence['invoiceLine[0].lineVatInformation[0].invoicedItemVatCategoryCode'];
    expect(lineCategory).toBeLessThanOrEqual(0.5);
  });
});
