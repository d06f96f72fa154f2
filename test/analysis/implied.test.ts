import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { germanInvoice, pdfOf, type Text } from './fixtures.js';

/** What a page implies without printing it: each rule on a layout of its own, and the value marked as inferred. */

async function analyse(texts: Text[]) {
  return analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: true });
}

const without = (texts: Text[], ...drop: string[]) => texts.filter((t) => !drop.some((d) => t.s.includes(d)));

/** A one-page German invoice: sender line, address window, one table of items, totals; no country printed anywhere. */
function invoiceWith(opts: {
  items: Array<[string, string, string, string, string]>;
  totals: Text[];
  notes?: Text[];
  header?: Text[];
}): Text[] {
  const rows = opts.items.flatMap(([name, qty, price, rate, amount], i): Text[] => {
    const y = 330 + 14 * i;
    return [
      { s: String(i + 1), x: 57, y },
      { s: name, x: 80, y },
      { s: qty, x: 330, y, right: true },
      { s: price, x: 420, y, right: true },
      ...(rate ? [{ s: rate, x: 470, y, right: true }] : []),
      { s: amount, x: 538, y, right: true },
    ];
  });
  return [
    { s: 'Holzbau Lindner GmbH', x: 360, y: 50, size: 14, bold: true },
    { s: 'Holzbau Lindner GmbH · Mühlweg 4 · 79098 Freiburg', x: 57, y: 128, size: 6.5 },
    { s: 'Café Sonnenschein KG', x: 57, y: 145, size: 10 },
    { s: 'Marktplatz 9', x: 57, y: 158, size: 10 },
    { s: '79100 Freiburg', x: 57, y: 171, size: 10 },
    { s: 'Rechnungsnummer:', x: 360, y: 145 },
    { s: '2024-311', x: 460, y: 145 },
    { s: 'Rechnungsdatum:', x: 360, y: 157 },
    { s: '03.06.2024', x: 460, y: 157 },
    ...(opts.header ?? []),
    { s: 'Rechnung', x: 57, y: 260, size: 16, bold: true },
    { s: 'Wir danken für Ihren Auftrag und berechnen Ihnen die folgenden Leistungen:', x: 57, y: 285 },
    { s: 'Pos.', x: 57, y: 312, bold: true },
    { s: 'Bezeichnung', x: 80, y: 312, bold: true },
    { s: 'Menge', x: 330, y: 312, bold: true, right: true },
    { s: 'Einzelpreis', x: 420, y: 312, bold: true, right: true },
    ...(opts.items.some((i) => i[3]) ? [{ s: 'USt.', x: 470, y: 312, bold: true, right: true }] : []),
    { s: 'Betrag', x: 538, y: 312, bold: true, right: true },
    ...rows,
    ...opts.totals,
    ...(opts.notes ?? []),
    { s: 'Holzbau Lindner GmbH · Mühlweg 4 · 79098 Freiburg', x: 57, y: 770, size: 7 },
    { s: 'Sparkasse Freiburg · IBAN DE02 6805 0101 0012 3456 78', x: 57, y: 779, size: 7 },
  ];
}

const totalsRow = (label: string, value: string, y: number): Text[] => [
  { s: label, x: 360, y },
  { s: value, x: 538, y, right: true },
];

describe('countries a page does not print', () => {
  it("takes the seller's from its VAT id and the buyer's from the seller's when both post codes have one shape", async () => {
    const [page] = germanInvoice();
    const r = await analyse(page!);
    expect(r.invoice.seller?.sellerPostalAddress?.sellerCountryCode).toBe('DE');
    expect(r.invoice.buyer?.buyerPostalAddress?.buyerCountryCode).toBe('DE');
    expect(r.fieldSource['buyer.buyerPostalAddress.buyerCountryCode']).toBe('inferred');
    expect(r.fieldSource['invoiceNumber']).toBe('printed');
  });

  it("takes the seller's from a German tax number, or from its post code read in the page's language", async () => {
    const [page] = germanInvoice();
    const noVatId = without(page!, 'USt-IdNr');
    expect((await analyse(noVatId)).invoice.seller?.sellerPostalAddress?.sellerCountryCode).toBe('DE');
    const neither = without(noVatId, 'Steuernummer');
    const r = await analyse(neither);
    expect(r.invoice.seller?.sellerPostalAddress?.sellerCountryCode).toBe('DE');
    expect(r.fieldSource['seller.sellerPostalAddress.sellerCountryCode']).toBe('inferred');
  });

  it("leaves the buyer's open when its post code has another shape than the seller's", async () => {
    const [page] = germanInvoice();
    const abroad = page!.map((t) => (t.s === '50667 Köln' ? { ...t, s: '1010 Wien' } : t));
    expect((await analyse(abroad)).invoice.buyer?.buyerPostalAddress?.buyerCountryCode).toBeUndefined();
  });
});

describe('VAT categories and the breakdown', () => {
  const exempt = invoiceWith({
    items: [
      ['Krankengymnastik', '6', '25,00', '0 % (E)', '150,00'],
      ['Hausbesuch', '2', '12,00', '0 % (E)', '24,00'],
    ],
    totals: [...totalsRow('Gesamtbetrag', '174,00', 400)],
    notes: [
      { s: 'Steuerfreie Heilbehandlung nach', x: 57, y: 440 },
      { s: '§ 4 Nr. 14 UStG', x: 57, y: 451 },
    ],
  });

  it('gives each line the category printed beside its rate, builds the breakdown from the lines and quotes the printed exemption note', async () => {
    const r = await analyse(exempt);
    expect(r.invoice.invoiceLine?.map((l) => l.lineVatInformation?.[0])).toEqual([
      { invoicedItemVatCategoryCode: 'E', invoicedItemVatRate: '0' },
      { invoicedItemVatCategoryCode: 'E', invoicedItemVatRate: '0' },
    ]);
    expect(r.invoice.vatBreakdown).toEqual([
      {
        vatCategoryTaxableAmount: '174.00',
        vatCategoryTaxAmount: '0.00',
        vatCategoryCode: 'E',
        vatCategoryRate: '0',
        vatExemptionReasonText: 'Steuerfreie Heilbehandlung nach § 4 Nr. 14 UStG',
      },
    ]);
    expect(r.fieldSource['vatBreakdown[0].vatCategoryTaxableAmount']).toBe('inferred');
  });

  it('ends the exemption note at its legal reference, not reading on into an address set under it', async () => {
    const noted = invoiceWith({
      items: [['Krankengymnastik', '6', '25,00', '0 % (E)', '150,00']],
      totals: [...totalsRow('Gesamtbetrag', '150,00', 400)],
      notes: [
        { s: 'Kleinunternehmer gemäß § 19 UStG', x: 57, y: 440 },
        { s: 'Hans Test Teststr. 1 55232 Teststadt', x: 57, y: 451 },
      ],
    });
    expect((await analyse(noted)).invoice.vatBreakdown?.[0]?.vatExemptionReasonText).toBe('Kleinunternehmer gemäß § 19 UStG');
  });

  it("quotes no note for an intra-community row, least of all another row's reverse charge: its VATEX code states the reason", async () => {
    const supplied = invoiceWith({
      items: [['Stahlcoil', '1', '100,00', '0 % (K)', '100,00']],
      totals: [...totalsRow('Gesamtbetrag', '100,00', 400)],
      notes: [{ s: 'Reverse charge: Articles 44 and 196 of Directive 2006/112/EC', x: 57, y: 440 }],
    });
    const row = (await analyse(supplied)).invoice.vatBreakdown?.[0];
    expect(row?.vatCategoryCode).toBe('K');
    expect(row?.vatExemptionReasonText).toBeUndefined();
  });

  it('builds the breakdown from the lines where allowances and charges are printed as 0,00', async () => {
    const zeroAdjusted = invoiceWith({
      items: [['Beratung', '2', '80,00', '19 %', '160,00']],
      totals: [
        ...totalsRow('Summe aller Positionen', '160,00', 400),
        ...totalsRow('Summe Nachlässe', '0,00', 412),
        ...totalsRow('Summe Zuschläge', '0,00', 424),
        ...totalsRow('Gesamtsumme netto', '160,00', 436),
        ...totalsRow('Umsatzsteuer', '30,40', 448),
        ...totalsRow('Gesamtbetrag', '190,40', 460),
      ],
    });
    const r = await analyse(zeroAdjusted);
    expect(r.invoice.documentTotals?.sumOfAllowancesOnDocumentLevel).toBe('0.00');
    expect(r.invoice.vatBreakdown).toEqual([
      { vatCategoryTaxableAmount: '160.00', vatCategoryTaxAmount: '30.40', vatCategoryCode: 'S', vatCategoryRate: '19' },
    ]);
  });

  it('guesses no category for a 0 % that nothing on the page explains', async () => {
    const bare = invoiceWith({ items: [['Beratung', '2', '80,00', '0 %', '160,00']], totals: totalsRow('Gesamtbetrag', '160,00', 400) });
    const r = await analyse(bare);
    expect(r.invoice.invoiceLine?.[0]?.lineVatInformation?.[0]?.invoicedItemVatCategoryCode).toBeUndefined();
    expect(r.invoice.vatBreakdown ?? []).toEqual([]);
  });

  it('takes the 0 % of a seller established outside the EU, without an EU VAT id, as outside the scope of VAT', async () => {
    const foreign = (t: Text): Text =>
      t.s.includes('Holzbau Lindner GmbH · Mühlweg 4') ? { ...t, s: 'Lindner Timber Inc. · 4 Mill Road · Portland, OR 97201, US' } : t;
    const bare = invoiceWith({ items: [['Beratung', '2', '80,00', '0 %', '160,00']], totals: totalsRow('Gesamtbetrag', '160,00', 400) });
    const r = await analyse(without(bare.map(foreign), 'IBAN', 'Holzbau Lindner GmbH'));
    expect(r.invoice.seller?.sellerPostalAddress?.sellerCountryCode).toBe('US');
    expect(r.invoice.invoiceLine?.[0]?.lineVatInformation?.[0]).toEqual({ invoicedItemVatRate: '0', invoicedItemVatCategoryCode: 'O' });
    expect(r.invoice.vatBreakdown).toEqual([
      { vatCategoryTaxableAmount: '160.00', vatCategoryTaxAmount: '0.00', vatCategoryCode: 'O', vatCategoryRate: '0' },
    ]);
    expect(r.fieldSource['vatBreakdown[0].vatCategoryCode']).toBe('inferred');
  });

  it("takes a British seller's 0 % as outside the scope of VAT only for an invoice issued after the United Kingdom left the EU", async () => {
    const british =
      (date: string) =>
      (t: Text): Text =>
        t.s.includes('Holzbau Lindner GmbH · Mühlweg 4')
          ? { ...t, s: 'Lindner Timber Ltd · 4 Mill Road · London SW1A 1AA · United Kingdom' }
          : t.s === '03.06.2024'
            ? { ...t, s: date }
            : t;
    const bare = invoiceWith({ items: [['Beratung', '2', '80,00', '0 %', '160,00']], totals: totalsRow('Gesamtbetrag', '160,00', 400) });
    const category = async (date: string) => {
      const r = await analyse(without(bare.map(british(date)), 'IBAN', 'Holzbau Lindner GmbH'));
      expect(r.invoice.seller?.sellerPostalAddress?.sellerCountryCode).toBe('GB');
      return r.invoice.invoiceLine?.[0]?.lineVatInformation?.[0]?.invoicedItemVatCategoryCode;
    };
    expect(await category('03.06.2024')).toBe('O');
    // In 2018 a British seller was in the EU VAT area: its 0 % may be an intra-community supply, exempt or zero rated.
    expect(await category('31.10.2018')).toBeUndefined();
  });

  it('takes a page that charges no VAT to a buyer established outside the EU, and says nothing of why, as outside the scope of VAT', async () => {
    const abroad = (t: Text): Text =>
      t.s === 'Marktplatz 9' ? { ...t, s: 'Bahnhofstrasse 12' } : t.s === '79100 Freiburg' ? { ...t, s: '8001 Zürich' } : t;
    const silent = invoiceWith({ items: [['Beratung', '2', '80,00', '', '160,00']], totals: totalsRow('Gesamtbetrag', '160,00', 400) });
    const swiss = [...silent.map(abroad), { s: 'Schweiz', x: 57, y: 184, size: 10 }];
    const r = await analyse(swiss);
    expect(r.invoice.buyer?.buyerPostalAddress?.buyerCountryCode).toBe('CH');
    expect(r.invoice.invoiceLine?.[0]?.lineVatInformation?.[0]).toEqual({ invoicedItemVatRate: '0', invoicedItemVatCategoryCode: 'O' });
    expect(r.invoice.vatBreakdown).toEqual([
      { vatCategoryTaxableAmount: '160.00', vatCategoryTaxAmount: '0.00', vatCategoryCode: 'O', vatCategoryRate: '0' },
    ]);
    expect(r.fieldSource['vatBreakdown[0].vatCategoryCode']).toBe('inferred');
    // The same page to a buyer in the EU explains nothing: exempt, zero rated and reverse charge remain.
    const austrian = [
      ...silent.map((t) => (t.s === '79100 Freiburg' ? { ...t, s: '1010 Wien' } : t)),
      { s: 'Österreich', x: 57, y: 184, size: 10 },
    ];
    const domestic = await analyse(austrian);
    expect(domestic.invoice.buyer?.buyerPostalAddress?.buyerCountryCode).toBe('AT');
    expect(domestic.invoice.vatBreakdown ?? []).toEqual([]);
  });

  it('finds the bases of rates printed with their tax only, from the one way the items divide among them', async () => {
    const taxOnly = invoiceWith({
      items: [
        ['Trennblätter A4', '20', '9,90', '', '198,00'],
        ['Joghurt Banane', '50', '5,50', '', '275,00'],
      ],
      totals: [
        ...totalsRow('Nettobetrag', '473,00', 400),
        ...totalsRow('USt. 7 %', '19,25', 412),
        ...totalsRow('USt. 19 %', '37,62', 424),
        ...totalsRow('Gesamtbetrag', '529,87', 436),
      ],
    });
    const r = await analyse(taxOnly);
    expect(r.invoice.vatBreakdown).toEqual([
      { vatCategoryTaxableAmount: '275.00', vatCategoryTaxAmount: '19.25', vatCategoryCode: 'S', vatCategoryRate: '7' },
      { vatCategoryTaxableAmount: '198.00', vatCategoryTaxAmount: '37.62', vatCategoryCode: 'S', vatCategoryRate: '19' },
    ]);
    expect(r.invoice.invoiceLine?.map((l) => l.lineVatInformation?.[0]?.invoicedItemVatRate)).toEqual(['19', '7']);
  });

  it('pairs a rate printed on a line of its own with the tax on the line right under it', async () => {
    const items: Array<[string, string, string, string, string]> = [
      ['Trennblätter A4', '20', '9,90', '', '198,00'],
      ['Joghurt Banane', '50', '5,50', '', '275,00'],
    ];
    const stacked = (lines: Array<[string, string]>) =>
      invoiceWith({
        items,
        totals: [
          ...totalsRow('Total without VAT', '473,00', 400),
          ...lines.flatMap(([label, value], i) => totalsRow(label, value, 416 + 16 * i)),
          ...totalsRow('Total with VAT', '529,87', 500),
        ],
      });
    const r = await analyse(
      stacked([
        ['VAT Rate', '7%'],
        ['VAT', '19,25'],
        ['VAT Rate', '19%'],
        ['VAT', '37,62'],
      ]),
    );
    expect(r.invoice.vatBreakdown).toEqual([
      { vatCategoryTaxableAmount: '275.00', vatCategoryTaxAmount: '19.25', vatCategoryCode: 'S', vatCategoryRate: '7' },
      { vatCategoryTaxableAmount: '198.00', vatCategoryTaxAmount: '37.62', vatCategoryCode: 'S', vatCategoryRate: '19' },
    ]);
    // Rates listed apart from their taxes say nothing of which tax is whose.
    const apart = await analyse(
      stacked([
        ['VAT Rate', '7%'],
        ['VAT Rate', '19%'],
        ['VAT', '19,25'],
        ['VAT', '37,62'],
      ]),
    );
    expect(apart.invoice.vatBreakdown ?? []).toEqual([]);
  });

  it('adds up lines of two rates into the breakdown when their taxes give the printed VAT total', async () => {
    const twoRates = invoiceWith({
      items: [
        ['Brot', '10', '3,00', '7 %', '30,00'],
        ['Kaffeemaschine', '1', '100,00', '19 %', '100,00'],
      ],
      totals: [
        ...totalsRow('Nettobetrag', '130,00', 400),
        ...totalsRow('Umsatzsteuer', '21,10', 412),
        ...totalsRow('Gesamtbetrag', '151,10', 424),
      ],
    });
    const r = await analyse(twoRates);
    expect(r.invoice.vatBreakdown).toEqual([
      { vatCategoryTaxableAmount: '30.00', vatCategoryTaxAmount: '2.10', vatCategoryCode: 'S', vatCategoryRate: '7' },
      { vatCategoryTaxableAmount: '100.00', vatCategoryTaxAmount: '19.00', vatCategoryCode: 'S', vatCategoryRate: '19' },
    ]);
  });

  it('finds the one rate that turns the net total into the VAT total when no rate is printed', async () => {
    const noRates = invoiceWith({
      items: [['Dachreparatur', '1', '2.400,00', '', '2.400,00']],
      totals: [
        ...totalsRow('Nettobetrag', '2.400,00', 400),
        ...totalsRow('Umsatzsteuer', '456,00', 412),
        ...totalsRow('Gesamtbetrag', '2.856,00', 424),
      ],
    });
    const r = await analyse(noRates);
    expect(r.invoice.vatBreakdown).toEqual([
      { vatCategoryTaxableAmount: '2400.00', vatCategoryTaxAmount: '456.00', vatCategoryCode: 'S', vatCategoryRate: '19' },
    ]);
    expect(r.invoice.invoiceLine?.[0]?.lineVatInformation?.[0]).toEqual({ invoicedItemVatRate: '19', invoicedItemVatCategoryCode: 'S' });
  });

  it("reads printed document-level allowances and charges when they add up to their totals and to each rate's base", async () => {
    const adjusted = invoiceWith({
      items: [
        ['Kunstrasen', '3', '3,00', '19 %', '9,00'],
        ['Mineralwasser', '20', '5,00', '7 %', '100,00'],
      ],
      totals: [
        ...totalsRow('Summe Positionen', '109,00', 400),
        { s: 'Abschlag   Sondernachlass   19 %', x: 57, y: 430 },
        { s: '-1,00', x: 520, y: 430, right: true },
        { s: 'Zuschlag   Versandkosten   7 %', x: 57, y: 442 },
        { s: '5,00', x: 520, y: 442, right: true },
        ...totalsRow('Summe Abschläge', '-1,00', 470),
        ...totalsRow('Summe Zuschläge', '5,00', 482),
        ...totalsRow('Nettobetrag', '113,00', 494),
        ...totalsRow('19 % USt. auf 8,00', '1,52', 506),
        ...totalsRow('7 % USt. auf 105,00', '7,35', 518),
        ...totalsRow('Gesamtbetrag', '121,87', 530),
      ],
    });
    const r = await analyse(adjusted);
    expect(r.invoice.documentLevelAllowances).toEqual([
      {
        documentLevelAllowanceAmount: '1.00',
        documentLevelAllowanceVatRate: '19',
        documentLevelAllowanceReason: 'Sondernachlass',
        documentLevelAllowanceVatCategoryCode: 'S',
      },
    ]);
    expect(r.invoice.documentLevelCharges).toEqual([
      {
        documentLevelChargeAmount: '5.00',
        documentLevelChargeVatRate: '7',
        documentLevelChargeReason: 'Versandkosten',
        documentLevelChargeVatCategoryCode: 'S',
      },
    ]);
  });

  it('never takes the sum of the charges ("Total charges") for a charge of its own', async () => {
    const summed = invoiceWith({
      items: [['Kunstrasen', '10', '20,00', '19 %', '200,00']],
      totals: [
        ...totalsRow('Total invoice line net amount', '200,00', 400),
        ...totalsRow('Total allowances', '0,00', 412),
        ...totalsRow('Total charges', '25,00', 424),
        ...totalsRow('Total amount', '225,00', 436),
        ...totalsRow('19 % USt. auf 225,00', '42,75', 448),
        ...totalsRow('Total', '267,75', 460),
      ],
    });
    const r = await analyse(summed);
    // The charge the breakdown implies, with the default word for its reason, not the sum's label.
    expect(r.invoice.documentTotals?.sumOfChargesOnDocumentLevel).toBe('25.00');
    expect(r.invoice.documentLevelCharges?.map((c) => [c.documentLevelChargeAmount, c.documentLevelChargeReason])).toEqual([
      ['25.00', 'Charge'],
    ]);
  });

  it('takes the page\'s reasons for the adjustments the breakdown gives where the printed rows do not add up, and no sum row ("Gesamtbetrag der Abschläge") or kind word run into a reason ("AbschlagStammkundenrabatt") for one', async () => {
    const adjusted = invoiceWith({
      items: [['Stahlcoil', '10', '90,00', '19 %', '900,00']],
      totals: [
        ...totalsRow('Positionssumme', '900,00', 400),
        ...totalsRow('Gesamtbetrag der Zuschläge', '30,00', 412),
        ...totalsRow('Gesamtbetrag der Abschläge', '-21,25', 424),
        ...totalsRow('Rechnungssumme ohne USt.', '908,75', 436),
        ...totalsRow('Steuerbetrag', '172,66', 448),
        ...totalsRow('Bruttosumme', '1.081,41', 460),
        { s: 'Zuschlag   Einwegverpackung   19 % VAT (S)', x: 57, y: 500 },
        { s: '30,00', x: 538, y: 500, right: true },
        { s: 'AbschlagStammkundenrabatt   19 % VAT (S)', x: 57, y: 512 },
        { s: '-21,25', x: 538, y: 512, right: true },
        // The item's own allowance, set apart from its row: already in its amount, no document-level one.
        { s: 'Abschlag   Lagerware   10   1.000,00', x: 57, y: 540 },
        { s: '-100,00', x: 538, y: 540, right: true },
      ],
    });
    const r = await analyse(adjusted);
    expect(r.invoice.documentLevelAllowances?.map((a) => [a.documentLevelAllowanceReason, a.documentLevelAllowanceAmount])).toEqual([
      ['Stammkundenrabatt', '21.25'],
    ]);
    expect(r.invoice.documentLevelCharges?.map((c) => [c.documentLevelChargeReason, c.documentLevelChargeAmount])).toEqual([
      ['Einwegverpackung', '30.00'],
    ]);
    expect(r.fieldSource['documentLevelAllowances[0].documentLevelAllowanceReason']).toBe('printed');
  });

  it('keeps the number of a numbered allowance label in its reason ("Rechnungsrabatt 1:")', async () => {
    const adjusted = invoiceWith({
      items: [
        ['Kunstrasen', '10', '10,00', '19 %', '100,00'],
        ['Mineralwasser', '20', '5,00', '7 %', '100,00'],
      ],
      totals: [
        ...totalsRow('Summe Positionen', '200,00', 400),
        { s: 'Rechnungsrabatt 1:   2,00%   MwSt.-% 19,0   Rabattbetrag:', x: 57, y: 430 },
        { s: '-2,00', x: 520, y: 430, right: true },
        { s: 'Rechnungsrabatt 2:   MwSt.-% 19,0   Rabattbetrag:', x: 57, y: 442 },
        { s: '-1,00', x: 520, y: 442, right: true },
        ...totalsRow('Summe Abschläge', '-3,00', 470),
        ...totalsRow('Nettobetrag', '197,00', 482),
        ...totalsRow('19 % USt. auf 97,00', '18,43', 494),
        ...totalsRow('7 % USt. auf 100,00', '7,00', 506),
        ...totalsRow('Gesamtbetrag', '222,43', 518),
      ],
    });
    const r = await analyse(adjusted);
    expect(r.invoice.documentLevelAllowances?.map((a) => [a.documentLevelAllowanceReason, a.documentLevelAllowanceAmount])).toEqual([
      ['Rechnungsrabatt 1', '2.00'],
      ['Rechnungsrabatt 2', '1.00'],
    ]);
    // The same as a table: the number ends the label's column, the percentage stands in the next.
    const table = adjusted.map((t) =>
      t.s.startsWith('Rechnungsrabatt 1:') ? { ...t, s: 'Abschlag   Rechnungsrabatt 1      2   19 % VAT (S)' } : t,
    );
    expect((await analyse(table)).invoice.documentLevelAllowances?.[0]?.documentLevelAllowanceReason).toBe('Rechnungsrabatt 1');
  });

  it('ends a reason at the labels of the figures printed after it ("Transportkosten   :   MwSt.-% 19,0")', async () => {
    const adjusted = invoiceWith({
      items: [['Kunstrasen', '10', '10,00', '19 %', '100,00']],
      totals: [
        ...totalsRow('Summe Positionen', '100,00', 400),
        { s: 'Transportkosten   :          MwSt.-% 19,0   Frachtbetrag:', x: 57, y: 430 },
        { s: '3,00', x: 520, y: 430, right: true },
        ...totalsRow('Summe Zuschläge', '3,00', 470),
        ...totalsRow('Nettobetrag', '103,00', 482),
        ...totalsRow('19 % USt. auf 103,00', '19,57', 494),
        ...totalsRow('Gesamtbetrag', '122,57', 518),
      ],
    });
    const r = await analyse(adjusted);
    expect(r.invoice.documentLevelCharges?.map((c) => [c.documentLevelChargeReason, c.documentLevelChargeAmount])).toEqual([
      ['Transportkosten', '3.00'],
    ]);
  });

  it('reads the VAT category set after a reason ("Zuschlag Fracht und Verpackung, S") as the category, not as words of the reason, nor the kind word before it ("Nachlass Treuerabatt")', async () => {
    const adjusted = invoiceWith({
      items: [['Kunstrasen', '10', '10,00', '19 %', '100,00']],
      totals: [
        ...totalsRow('Summe Positionen', '100,00', 400),
        ...totalsRow('Nachlass Treuerabatt, S', '-5,00', 400 + 12),
        ...totalsRow('Zuschlag Fracht und Verpackung, S', '24,90', 424),
        ...totalsRow('Gesamtbetrag netto', '119,90', 436),
        ...totalsRow('Umsatzsteuer 19 %', '22,78', 448),
        ...totalsRow('Gesamtbetrag brutto', '142,68', 460),
      ],
    });
    const r = await analyse(adjusted);
    expect(
      r.invoice.documentLevelAllowances?.map((a) => [a.documentLevelAllowanceReason, a.documentLevelAllowanceVatCategoryCode]),
    ).toEqual([['Treuerabatt', 'S']]);
    expect(r.invoice.documentLevelCharges).toEqual([
      {
        documentLevelChargeAmount: '24.90',
        documentLevelChargeVatRate: '19',
        documentLevelChargeReason: 'Fracht und Verpackung',
        documentLevelChargeVatCategoryCode: 'S',
      },
    ]);
  });

  it('reads an adjustment\'s reason after a label that names only its kind, or an aside that prints its rate ("Extra charge: Shipping", "Allowance (Tax: 19.00%): Discount")', async () => {
    const adjusted = invoiceWith({
      items: [['Coffee beans', '5', '20,00', '19 %', '100,00']],
      totals: [
        ...totalsRow('Line Total Amount', '100,00', 400),
        { s: 'Allowance (Tax: 19,00%): Discount', x: 57, y: 412 },
        { s: '- 10,00', x: 300, y: 412, right: true },
        { s: 'Extra charge: Standard Shipping Fee', x: 57, y: 424 },
        { s: '5,00', x: 300, y: 424, right: true },
        ...totalsRow('Net Total Amount', '95,00', 436),
        ...totalsRow('Value Added Tax (19,00% of 95,00)', '18,05', 448),
        ...totalsRow('Gross Total Amount', '113,05', 460),
      ],
    });
    const r = await analyse(adjusted);
    expect(r.invoice.documentLevelAllowances).toEqual([
      {
        documentLevelAllowanceAmount: '10.00',
        documentLevelAllowanceVatRate: '19',
        documentLevelAllowanceReason: 'Discount',
        documentLevelAllowanceVatCategoryCode: 'S',
      },
    ]);
    expect(r.invoice.documentLevelCharges?.map((c) => c.documentLevelChargeReason)).toEqual(['Standard Shipping Fee']);
  });
});

describe('values printed without a table or label of their own', () => {
  it("reads the seller's phone and e-mail but not the buyer's, and the invoicing period", async () => {
    const page = invoiceWith({
      items: [['Wartung', '1', '90,00', '19 %', '90,00']],
      totals: totalsRow('Gesamtbetrag', '107,10', 400),
      header: [
        { s: 'Tel. 0761 123456-0', x: 360, y: 70 },
        { s: 'info@holzbau-lindner.example', x: 360, y: 81 },
        { s: 'Abrechnungszeitraum: 01.05.2024 bis 31.05.2024', x: 360, y: 181 },
      ],
    }).flatMap((t) =>
      t.s === '79100 Freiburg'
        ? [t, { s: 'Tel. 0761 999999', x: 57, y: 184, size: 10 }, { s: 'kasse@cafe-sonnenschein.example', x: 57, y: 197, size: 10 }]
        : [t],
    );
    const { invoice } = await analyse(page);
    expect(invoice.seller?.sellerContact).toEqual({
      sellerContactTelephoneNumber: '0761 123456-0',
      sellerContactEmailAddress: 'info@holzbau-lindner.example',
    });
    expect(invoice.invoicingPeriod).toEqual({ invoicingPeriodStartDate: '2024-05-01', invoicingPeriodEndDate: '2024-05-31' });
  });

  it('repairs a labelled VAT id that lost a letter of its country prefix only when the check digits pass', async () => {
    const page = (id: string) => [...without(germanInvoice()[0]!, 'USt-IdNr'), { s: `TVA ${id}`, x: 420, y: 788, size: 7 }];
    const repaired = await analyse(page('F63530848134'));
    expect(repaired.invoice.seller?.sellerVatIdentifier).toBe('FR63530848134');
    expect(repaired.fieldSource['seller.sellerVatIdentifier']).toBe('inferred');
    expect((await analyse(page('F64530848134'))).invoice.seller?.sellerVatIdentifier).toBeUndefined();
  });

  it('takes a flat fee with only a description and an amount as an item, and an "Incl." row with an amount as part of the item above', async () => {
    const page = invoiceWith({
      items: [['Tablet 64 GB', '1', '399,00', '19 %', '399,00']],
      totals: totalsRow('Gesamtbetrag', '454,93', 420),
    }).concat([
      { s: 'Incl. Urheberrechtsabgabe', x: 80, y: 344 },
      { s: '19 %', x: 470, y: 344, right: true },
      { s: '4,24', x: 538, y: 344, right: true },
      { s: 'Anzeige Stadtmagazin vom 06.12.2024', x: 80, y: 358 },
      { s: '55,93', x: 538, y: 358, right: true },
    ]);
    const { invoice } = await analyse(page);
    expect(invoice.invoiceLine?.map((l) => [l.itemInformation?.itemName, l.invoiceLineNetAmount])).toEqual([
      ['Tablet 64 GB', '399.00'],
      ['Anzeige Stadtmagazin vom 06.12.2024', '55.93'],
    ]);
  });
});

describe('territories', () => {
  it('gives an address in a French overseas department its own country code', async () => {
    const [page] = germanInvoice();
    const reunion = page!.map((t) =>
      t.s === '50667 Köln' ? { ...t, s: '97400 Saint-Denis' } : t.s === 'USt-IdNr.: DE123456788' ? { ...t, s: 'N° TVA: FR11999999998' } : t,
    );
    const r = await analyse(reunion.filter((t) => !t.s.startsWith('Steuernummer')));
    expect(r.invoice.buyer?.buyerPostalAddress?.buyerCountryCode).toBe('RE');
  });
});
