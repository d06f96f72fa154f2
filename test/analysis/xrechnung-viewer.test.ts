import { describe, expect, it } from 'vitest';
import { analyseInvoice, analyseWithEvidence } from '../../src/analysis/index.js';
import { classifyTotal } from '../../src/analysis/totals.js';
import { fold } from '../../src/analysis/text.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, RENDERED_TOTALS, type Text } from './fixtures.js';

/**
 * The KoSIT XRechnung viewer's HTML as a browser prints it: the two parties side by side, each a
 * column of labels with the values in narrow cells beside them, rows three text heights apart;
 * empty fields printed as a label alone; a value too long for its cell wrapped around its label;
 * totals with a column of "netto" / "brutto" between label and amount.
 */
const cell = (s: string, x: number, y: number): Text => ({ s, x, y, size: 9 });
const cells = (rows: Array<[string, number, number]>): Text[] => rows.map(([s, x, y]) => cell(s, x, y));

/** A label at `x` with its value at `x + 126`, wrapped around the label where it has several lines. */
function field(label: string, value: string[], x: number, y: number): Text[] {
  const top = y - ((value.length - 1) * 11) / 2;
  return [cell(label, x, y), ...value.map((v, i) => cell(v, x + 126, top + i * 11))];
}

function parties(): Text[] {
  const buyer: Array<[string, string[]]> = [
    ['Leitweg-ID:', []],
    ['Name:', ['Beispielmieter', 'GmbH']],
    ['Straße / Haus-Nr.:', ['Musterstr. 18']],
    ['Adresszusatz:', []],
    ['PLZ:', ['76138']],
    ['Ort:', ['Karlsruhe']],
    ['Land:', ['DE (Deutschland)']],
    ['Kennung / Kunden-Nr.:', ['GE2020211']],
  ];
  const seller: Array<[string, string[]]> = [
    ['', []],
    ['Firmenname:', ['ELEKTRON', 'Industrieservice', 'GmbH']],
    ['Straße / Haus-Nr.:', ['Erfurter Strasse', '13']],
    ['Adresszusatz:', []],
    ['PLZ:', ['74465']],
    ['Ort:', ['Demoort']],
    ['Ländercode:', ['DE (Deutschland)']],
    ['Kennung:', ['549910']],
  ];
  const column = (rows: Array<[string, string[]]>, x: number) =>
    rows.flatMap(([label, value], i) => (label ? field(label, value, x, 140 + i * 30) : []));
  return [
    { s: 'Informationen zum Käufer', x: 47, y: 110, size: 10, bold: true },
    { s: 'Informationen zum Verkäufer', x: 322, y: 110, size: 10, bold: true },
    ...column(buyer, 54),
    ...column(seller, 329),
  ];
}

function invoiceData(): Text[] {
  return [
    { s: 'Rechnungsdaten', x: 47, y: 400, size: 10, bold: true },
    ...field('Rechnungsnummer:', ['471102'], 54, 430),
    ...field('Rechnungsdatum:', ['5.3.2018'], 54, 460),
    // The invoice's data are set at the top of their cells.
    cell('Rechnungsart:', 54, 490),
    cell('389 (Self-billed', 180, 490),
    cell('invoice)', 180, 501),
    ...field('Währung:', ['EUR (Euro)'], 54, 520),
    { s: 'Zahlungsdaten', x: 47, y: 560, size: 10, bold: true },
    ...field('Skonto; weitere', ['Zahlbar innerhalb 30', 'Tagen netto bis', '04.07.2018, 3% Skonto', 'innerhalb 10 Tagen bis'], 54, 590),
    cell('Zahlungsbed.:', 54, 601),
    cell('15.06.2018', 180, 623),
  ];
}

/** A row of the totals: label, how it is counted, amount. */
const total = (label: string, counted: string, amount: string, y: number): Text[] => [
  cell(label, 54, y),
  ...(counted ? [cell(counted, 382, y)] : []),
  { s: amount, x: 558, y, size: 9, right: true },
];

/** A breakdown block: its category, its name maybe wrapped, then base, rate and tax each beside its label. */
function block(y: number, category: string[], base: string, rate: string, tax: string): Text[] {
  const at = y + 11 * category.length + 9;
  return [
    { s: 'Aufschlüsselung der Umsatzsteuer auf Ebene der Rechnung', x: 47, y, size: 10, bold: true },
    ...category.map((c, i) => cell(i === 0 ? `Umsatzsteuerkategorie: ${c}` : c, 54, y + 20 + 11 * i)),
    ...total('Gesamtsumme', 'netto', base, at + 20),
    ...total('Umsatzsteuersatz', '', rate, at + 40),
    ...total('Umsatzsteuerbetrag', '', tax, at + 60),
  ];
}

function totalsPage(): Text[] {
  return [
    { s: 'Gesamtbeträge der Rechnung', x: 47, y: 60, size: 10, bold: true },
    ...total('Summe aller Positionen', 'netto', '180,76', 80),
    ...total('Summe Nachlässe', 'netto', '9,07', 100),
    ...total('Summe Zuschläge', 'netto', '5,80', 120),
    ...total('Gesamtsumme', 'netto', '177,49', 140),
    ...total('Summe Umsatzsteuer in Abrechnungswährung', '', '20,16', 160),
    ...total('Gesamtsumme', 'brutto', '197,65', 180),
    ...total('Fälliger Betrag', 'brutto', '197,65', 200),
    ...block(240, ['S (Standard rate)'], '113,03', '7.00%', '7,91'),
    { s: 'Aufschlüsselung der Umsatzsteuer auf Ebene der Rechnung', x: 47, y: 360, size: 10, bold: true },
    // Where the block runs over the page break, its amounts stand on the next page (below).
    cell('Umsatzsteuerkategorie: S (Standard rate)', 54, 800),
    { s: 'Nachlass auf Ebene der Rechnung', x: 47, y: 480, size: 10, bold: true },
    ...total('Grundbetrag', 'netto', '115,30', 500),
    ...total('Nachlass', 'netto', '8,07', 520),
    ...total('Umsatzsteuersatz des Nachlasses', '', '7.00', 540),
    { s: 'Zuschlag auf Ebene der Rechnung', x: 47, y: 580, size: 10, bold: true },
    ...total('Zuschlag', 'netto', '5,80', 600),
    ...total('Umsatzsteuersatz des Zuschlages', '', '7.00', 620),
  ];
}

const nextPage = (): Text[] => [
  ...total('Gesamtsumme', 'netto', '64,46', 60),
  ...total('Umsatzsteuersatz', '', '19.00%', 80),
  ...total('Umsatzsteuerbetrag', '', '12,25', 100),
];

async function viewer() {
  const pdf = await pdfOf([[...parties(), ...invoiceData()], totalsPage(), nextPage()]);
  return analyseInvoice(await extractTextLayer(pdf), { withLineItems: false }).invoice;
}

describe("the XRechnung viewer's HTML printed to PDF", () => {
  it('reads each party from its own column, its values wrapped around their labels, its empty fields passed over', async () => {
    const invoice = await viewer();
    expect(invoice.buyer).toMatchObject({
      buyerName: 'Beispielmieter GmbH',
      buyerIdentifier: 'GE2020211',
      buyerPostalAddress: { buyerAddressLine1: 'Musterstr. 18', buyerPostCode: '76138', buyerCity: 'Karlsruhe', buyerCountryCode: 'DE' },
    });
    expect(invoice.seller).toMatchObject({
      sellerName: 'ELEKTRON Industrieservice GmbH',
      sellerPostalAddress: { sellerAddressLine1: 'Erfurter Strasse 13', sellerPostCode: '74465', sellerCity: 'Demoort' },
    });
  });

  it('takes the totals by their labels, the net or gross word beside them and no rate for an amount', async () => {
    expect((await viewer()).documentTotals).toMatchObject(RENDERED_TOTALS);
  });

  it('reads each labelled breakdown block, one of them over a page break, with its rate printed "7.00%"', async () => {
    const rows = (await viewer()).vatBreakdown?.map((r) => [
      r.vatCategoryCode,
      r.vatCategoryRate,
      r.vatCategoryTaxableAmount,
      r.vatCategoryTaxAmount,
    ]);
    expect(rows).toEqual([
      ['S', '7', '113.03', '7.91'],
      ['S', '19', '64.46', '12.25'],
    ]);
  });

  it('takes the category a block prints, its name wrapped, over one its exemption reason suggests', async () => {
    const page: Text[] = [
      ...total('Summe aller Positionen', 'netto', '120,00', 80),
      ...total('Gesamtsumme', 'netto', '120,00', 100),
      ...total('Summe Umsatzsteuer in Abrechnungswährung', '', '0,00', 120),
      ...total('Gesamtsumme', 'brutto', '120,00', 140),
      ...block(180, ['O (Services outside scope of', 'tax)'], '120,00', '0%', '0,00'),
      cell('Befreiungsgrund: als gemeinnützig anerkannt', 54, 310),
    ];
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([[...parties(), ...invoiceData()], page])), {
      withLineItems: false,
    });
    expect(invoice.vatBreakdown?.map((r) => [r.vatCategoryCode, r.vatCategoryRate, r.vatCategoryTaxableAmount])).toEqual([
      ['O', '0', '120.00'],
    ]);
  });

  it('reads a type code whose name wraps, and terms wrapped in a narrow cell whole', async () => {
    const invoice = await viewer();
    expect(invoice.invoiceTypeCode).toBe('389');
    expect(invoice.paymentTerms).toBe('Zahlbar innerhalb 30 Tagen netto bis 04.07.2018, 3% Skonto innerhalb 10 Tagen bis 15.06.2018');
  });
});

describe('terms in a narrow cell beside a label wrapped over lines', () => {
  it("runs on beside the label's second line, over the page break, and through a word that is also a label's", async () => {
    const first: Text[] = [
      ...parties(),
      { s: 'Zahlungsdaten', x: 47, y: 760, size: 10, bold: true },
      { s: 'Karteninformation', x: 313, y: 760, size: 10, bold: true },
      ...cells([
        ['Skonto; weitere', 55, 790],
        ['Zahlbar innerhalb', 190, 790],
        ['Kartennummer:', 321, 795],
        ['Zahlungsbed.:', 55, 801],
        ['14 Tagen nach', 190, 801],
      ]),
    ];
    const second: Text[] = [
      cell('Erhalt der', 190, 40),
      cell('Rechnung.', 190, 51),
      cell('Karteninhaber:', 321, 51),
      cell('Fälligkeitsdatum:', 55, 80),
    ];
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([first, second])), { withLineItems: false });
    expect(invoice.paymentTerms).toBe('Zahlbar innerhalb 14 Tagen nach Erhalt der Rechnung.');
  });
});

describe("a party's identifier and account in the viewer's narrow cells", () => {
  /** The payment section: the mandate's empty "IBAN:" on the left, the account's IBAN wrapped around its label on the right. */
  const payment = (iban: [string, string]): Text[] => [
    { s: 'Lastschrift', x: 47, y: 600, size: 10, bold: true },
    { s: 'Überweisung', x: 313, y: 600, size: 10, bold: true },
    cell('IBAN:', 55, 630),
    cell(iban[0], 456, 630),
    cell('IBAN:', 321, 636),
    cell(iban[1], 456, 642),
    cell('BIC:', 321, 660),
  ];
  const read = async (texts: Text[]) => analyseWithEvidence(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });

  it('joins an IBAN the cell wrapped where its checksum holds across the break', async () => {
    const { invoice } = await read([...parties(), ...payment(['DE89 3704 0044', '0532 0130 00'])]);
    expect(invoice.paymentInstructions?.creditTransfer?.[0]?.paymentAccountIdentifier).toBe('DE89370400440532013000');
  });

  it("holds an IBAN shorter than its country's at even odds: the rest of it is cut off", async () => {
    const { invoice, fieldConfidence } = await read([...parties(), ...payment(['DE12 1234 5678', '9012 3456 78'])]);
    expect(invoice.paymentInstructions?.creditTransfer?.[0]?.paymentAccountIdentifier).toBe('DE1212345678');
    expect(fieldConfidence['paymentInstructions.creditTransfer[0].paymentAccountIdentifier']).toBeLessThanOrEqual(0.5);
  });

  it('keeps the confidence of a short IBAN printed whole on its line (test data print such), with the BIC under it', async () => {
    const page = [
      ...parties(),
      cell('IBAN:', 321, 636),
      cell('DE12 1234 4321 9876 00', 456, 636),
      cell('BIC:', 321, 648),
      cell('ABCDDEFFXXX', 456, 648),
    ];
    const { invoice, fieldConfidence } = await read(page);
    expect(invoice.paymentInstructions?.creditTransfer?.[0]?.paymentAccountIdentifier).toBe('DE1212344321987600');
    expect(fieldConfidence['paymentInstructions.creditTransfer[0].paymentAccountIdentifier']).toBeGreaterThan(0.6);
  });

  it('takes no identifier printed with its scheme (a GLN the reading has no scheme for), nor one over two lines', async () => {
    const withScheme = parties().concat(field('Schema der Kennung:', ['0088 (EAN Location Code)'], 329, 140 + 8 * 30));
    const { invoice } = await read(withScheme);
    expect(invoice.seller?.sellerName).toBe('ELEKTRON Industrieservice GmbH');
    expect(invoice.seller?.sellerIdentifier).toBeUndefined();
    expect(invoice.buyer?.buyerIdentifier).toBe('GE2020211');
    const wrapped = parties().map((t) => (t.s === '549910' ? { ...t, s: '987654321' } : t));
    const second = await read(wrapped.concat(cell('7894897438', 455, 361)));
    expect(second.invoice.seller?.sellerIdentifier).toBeUndefined();
  });
});

describe("terms that are no form's value", () => {
  it('end before the heading under them, though a scan left a colon left of them', async () => {
    const page: Text[] = [
      { s: 'Kontorbedarf Weser GmbH', x: 60, y: 40, size: 14, bold: true },
      { s: 'Rechnung', x: 60, y: 120, size: 16, bold: true },
      { s: '473,00', x: 540, y: 294, size: 9, right: true },
      { s: '529,87', x: 540, y: 306, size: 9, right: true },
      ...cells([
        [':', 30, 294],
        ['Rechnungssumme Netto', 90, 294],
        ['Rechnungssumme Brutto', 90, 306],
        ['Zahlungsinformationen:', 60, 330],
        ['Zahlbar innerhalb 30 Tagen netto bis 04.04.2013, 3% Skonto innerhalb 10 Tagen bis 15.03.2013', 60, 342],
        ['Bank-/Steuerinformationen', 60, 354],
        ['Kontonr.:', 60, 366],
        ['1234 5678 90', 160, 366],
      ]),
    ];
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([page])), { withLineItems: false });
    expect(invoice.paymentTerms).toBe('Zahlbar innerhalb 30 Tagen netto bis 04.04.2013, 3% Skonto innerhalb 10 Tagen bis 15.03.2013');
  });
});

describe('labels of totals a rendering qualifies', () => {
  it('reads the kind of a sum from the label before its "netto" or "brutto", and the net or gross total of a bare sum from that word', () => {
    const first = (label: string) => classifyTotal(fold(label))[0];
    expect(
      ['Summe Nachlässe netto', 'Summe Zuschläge netto', 'Gesamtsumme netto', 'Gesamtsumme brutto', 'Fälliger Betrag brutto'].map(first),
    ).toEqual(['allowances', 'charges', 'netTotal', 'grossTotal', 'due']);
  });

  it('takes no rate for an amount, though it is printed with two decimals', () => {
    expect(classifyTotal(fold('Umsatzsteuersatz des Nachlasses'))).toEqual([]);
    expect(classifyTotal(fold('Steuersatz'))).toEqual([]);
  });
});
