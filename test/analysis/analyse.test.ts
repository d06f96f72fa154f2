import { describe, expect, it } from 'vitest';
import { analyseInvoice, AnalysisError } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { englishInvoice, frenchInvoice, germanInvoice, longGermanInvoice, pdfOf, pdfWithoutText, premiumNotice } from './fixtures.js';

async function analyse(pages: Parameters<typeof pdfOf>[0]) {
  const text = await extractTextLayer(await pdfOf(pages));
  return analyseInvoice(text, { withLineItems: true });
}

describe('dates whose day and month could be the other way round', () => {
  const withDates = (issue: string, due: string) =>
    englishInvoice().map((page) =>
      page.map((t) => (t.s === 'March 5, 2024' ? { ...t, s: issue } : t.s === 'April 4, 2024' ? { ...t, s: due } : t)),
    );

  it('are read day first, but not reported at 0.9 or more while no date on the page settles the order', async () => {
    const { invoice, fieldConfidence } = await analyse(withDates('03/05/2024', '04/06/2024'));
    expect([invoice.invoiceIssueDate, invoice.paymentDueDate]).toEqual(['2024-05-03', '2024-06-04']);
    expect(fieldConfidence.invoiceIssueDate).toBeLessThan(0.9);
    expect(fieldConfidence.paymentDueDate).toBeLessThan(0.9);
  });

  it('keep their confidence where another date settles the order', async () => {
    const { invoice, fieldConfidence } = await analyse(withDates('03/05/2024', '04/17/2024'));
    expect([invoice.invoiceIssueDate, invoice.paymentDueDate]).toEqual(['2024-03-05', '2024-04-17']);
    expect(fieldConfidence.invoiceIssueDate).toBeGreaterThanOrEqual(0.9);
  });
});

describe('analyseInvoice on generated PDFs', () => {
  it('reads a German DIN 5008 letter: info block, address window, sender line, table, VAT per rate, footer', async () => {
    const { invoice, fieldConfidence, extractionConfidence } = await analyse(germanInvoice());
    expect(invoice).toMatchObject({
      invoiceNumber: 'RE-2024-0815',
      invoiceIssueDate: '2024-03-14',
      invoiceTypeCode: '380',
      invoiceCurrencyCode: 'EUR',
      paymentDueDate: '2024-04-13',
      purchaseOrderReference: 'PO-9981',
      deliveryInformation: { actualDeliveryDate: '2024-03-12' },
      seller: {
        sellerName: 'Musterbau GmbH',
        sellerVatIdentifier: 'DE123456788',
        sellerTaxRegistrationIdentifier: '22/123/45678',
        sellerPostalAddress: { sellerAddressLine1: 'Hafenstraße 7', sellerPostCode: '20457', sellerCity: 'Hamburg' },
      },
      buyer: {
        buyerName: 'Beispiel AG',
        buyerIdentifier: 'K-4711',
        buyerPostalAddress: { buyerAddressLine1: 'Lindenweg 12', buyerPostCode: '50667', buyerCity: 'Köln' },
      },
      paymentInstructions: {
        creditTransfer: [{ paymentAccountIdentifier: 'DE89370400440532013000', paymentServiceProviderIdentifier: 'COBADEFFXXX' }],
      },
      documentTotals: {
        sumOfInvoiceLineNetAmount: '1405.50',
        invoiceTotalAmountWithoutVat: '1405.50',
        invoiceTotalVatAmount: '209.45',
        invoiceTotalAmountWithVat: '1614.95',
        amountDueForPayment: '1614.95',
      },
    });
    expect(invoice.vatBreakdown).toEqual([
      { vatCategoryTaxableAmount: '925.50', vatCategoryTaxAmount: '175.85', vatCategoryCode: 'S', vatCategoryRate: '19' },
      { vatCategoryTaxableAmount: '480.00', vatCategoryTaxAmount: '33.60', vatCategoryCode: 'S', vatCategoryRate: '7' },
    ]);
    expect(
      invoice.invoiceLine?.map((l) => [
        l.itemInformation?.itemName,
        l.itemInformation?.itemSellersIdentifier,
        l.invoicedQuantity,
        l.invoicedQuantityUnitOfMeasureCode,
        l.priceDetails?.itemNetPrice,
        l.invoiceLineNetAmount,
        l.lineVatInformation?.[0]?.invoicedItemVatRate,
      ]),
    ).toEqual([
      ['Betonmischer 120 l', 'A-100', '2', 'C62', '349.00', '698.00', '19'],
      ['Montage vor Ort', 'B-220', '3.5', 'HUR', '65.00', '227.50', '19'],
      ['Kies 0/16', 'C-7', '12.5', 'TNE', '38.40', '480.00', '7'],
    ]);
    expect(invoice.invoiceLine?.[0]?.itemInformation?.itemDescription).toBe('inkl. Zubehörpaket');
    // Totals that satisfy every EN 16931 sum are trusted more than a lone label would be.
    expect(fieldConfidence['documentTotals.invoiceTotalAmountWithVat']).toBeGreaterThan(0.9);
    expect(extractionConfidence).toBeGreaterThan(0.8);
  });

  it('reads an English invoice: "Bill to", written-out dates, amounts with € and thousands commas, paid and balance', async () => {
    const { invoice } = await analyse(englishInvoice());
    expect(invoice).toMatchObject({
      invoiceNumber: 'INV-2024-0042',
      invoiceIssueDate: '2024-03-05',
      paymentDueDate: '2024-04-04',
      purchaseOrderReference: 'PO-77',
      invoiceCurrencyCode: 'EUR',
      seller: {
        sellerName: 'Northwind Traders B.V.',
        sellerVatIdentifier: 'NL810433941B01',
        sellerPostalAddress: { sellerCity: 'Amsterdam', sellerPostCode: '1015 CS', sellerCountryCode: 'NL' },
      },
      buyer: {
        buyerName: 'Acme Corporation',
        buyerVatIdentifier: 'BE0403170701',
        buyerPostalAddress: { buyerAddressLine1: 'Rue de la Loi 200', buyerCity: 'Brussels', buyerCountryCode: 'BE' },
      },
      paymentInstructions: {
        creditTransfer: [{ paymentAccountIdentifier: 'NL91ABNA0417164300', paymentServiceProviderIdentifier: 'ABNANL2A' }],
      },
      documentTotals: {
        invoiceTotalAmountWithoutVat: '2182.50',
        invoiceTotalVatAmount: '458.33',
        invoiceTotalAmountWithVat: '2640.83',
        paidAmount: '500.00',
        amountDueForPayment: '2140.83',
      },
    });
    expect(
      invoice.invoiceLine?.map((l) => [
        l.itemInformation?.itemName,
        l.invoicedQuantity,
        l.priceDetails?.itemNetPrice,
        l.invoiceLineNetAmount,
      ]),
    ).toEqual([
      ['Consulting services', '10', '120.00', '1200.00'],
      ['Travel expenses', '1', '85.50', '85.50'],
      ['Software licence (annual)', '3', '299.00', '897.00'],
    ]);
  });

  it('reads a French invoice: sender line, "Facturé à" on the right, 1 234,56 € amounts, HT/TVA/TTC', async () => {
    const { invoice } = await analyse(frenchInvoice());
    expect(invoice).toMatchObject({
      invoiceNumber: 'F-2024-117',
      invoiceIssueDate: '2024-04-02',
      paymentDueDate: '2024-05-02',
      invoiceCurrencyCode: 'EUR',
      seller: {
        sellerName: 'Atelier Lumière SAS',
        sellerVatIdentifier: 'FR32123456789',
        sellerPostalAddress: {
          sellerAddressLine1: '14 rue des Lilas',
          sellerPostCode: '69003',
          sellerCity: 'Lyon',
          sellerCountryCode: 'FR',
        },
      },
      buyer: {
        buyerName: 'Boulangerie Dupont',
        buyerPostalAddress: { buyerAddressLine1: '8 place du Marché', buyerPostCode: '13001', buyerCity: 'Marseille' },
      },
      paymentInstructions: { creditTransfer: [{ paymentAccountIdentifier: 'FR7630006000011234567890189' }] },
      documentTotals: {
        invoiceTotalAmountWithoutVat: '1854.60',
        invoiceTotalVatAmount: '370.92',
        invoiceTotalAmountWithVat: '2225.52',
        amountDueForPayment: '2225.52',
      },
      vatBreakdown: [{ vatCategoryTaxableAmount: '1854.60', vatCategoryTaxAmount: '370.92', vatCategoryRate: '20', vatCategoryCode: 'S' }],
    });
    expect(
      invoice.invoiceLine?.map((l) => [
        l.itemInformation?.itemName,
        l.invoicedQuantity,
        l.priceDetails?.itemNetPrice,
        l.invoiceLineNetAmount,
        l.lineVatInformation?.[0]?.invoicedItemVatRate,
      ]),
    ).toEqual([
      ['Lampe de bureau', '4', '89.90', '359.60', '20'],
      ['Abat-jour lin', '10', '24.50', '245.00', '20'],
      ['Installation atelier', '1', '1250.00', '1250.00', '20'],
    ]);
  });

  it('follows a table across a page break, with the header repeated and a carry-over line', async () => {
    const { pages, net, rows } = longGermanInvoice();
    const { invoice } = await analyse(pages);
    expect(invoice.invoiceNumber).toBe('2024/771');
    expect(invoice.invoiceIssueDate).toBe('2024-06-30');
    expect(invoice.invoiceLine).toHaveLength(rows.length);
    expect(
      invoice.invoiceLine?.map((l) => [
        l.itemInformation?.itemName,
        l.invoicedQuantity,
        l.priceDetails?.itemNetPrice,
        l.invoiceLineNetAmount,
      ]),
    ).toEqual(rows.map((r) => [r.name, r.qty, r.price, r.amount]));
    expect(invoice.documentTotals?.sumOfInvoiceLineNetAmount).toBe(net);
    expect(invoice.documentTotals?.invoiceTotalAmountWithoutVat).toBe(net);
    expect(invoice.buyer?.buyerName).toBe('Werkstatt Süd GmbH');
    expect(invoice.seller?.sellerName).toBe('Teilehandel Nord KG');
  });

  it('takes text lines with one amount each as items when their sum is printed below them', async () => {
    const { invoice } = await analyse(premiumNotice());
    expect(invoice.invoiceNumber).toBe('BR-2024-0042');
    expect(invoice.buyer?.buyerName).toBe('Frau\nPetra Beispiel');
    expect(invoice.invoiceLine?.map((l) => [l.itemInformation?.itemName, l.invoiceLineNetAmount])).toEqual([
      ['Hausratversicherung Tarif Komfort', '84.00'],
      ['Glasbruch-Zusatz', '12.50'],
      ['Fahrradschutz bis 1.500 €', '23.50'],
    ]);
    expect(invoice.documentTotals?.sumOfInvoiceLineNetAmount).toBe('120.00');
  });

  it('leaves line items out unless asked for, but still uses them for the totals', async () => {
    const text = await extractTextLayer(await pdfOf(germanInvoice()));
    const { invoice } = analyseInvoice(text, { withLineItems: false });
    expect(invoice.invoiceLine).toBeUndefined();
    expect(invoice.documentTotals?.invoiceTotalAmountWithoutVat).toBe('1405.50');
  });

  it('reports an item table whose rows it could not read, but not the empty table a booking aid prints', async () => {
    const header = ['Pos.', 'Bezeichnung', 'Menge', 'Einzelpreis', 'Gesamtpreis'].map((s, i) => ({
      s,
      x: [50, 90, 320, 400, 480][i]!,
      y: 300,
      bold: true,
    }));
    const page = (rows: Array<{ s: string; x: number; y: number; right?: boolean }>) => [
      { s: 'Rechnung Nr. 4711', x: 50, y: 250, size: 12, bold: true },
      ...header,
      ...rows,
      { s: 'Nettobetrag', x: 320, y: 420 },
      { s: '1.250,00 €', x: 540, y: 420, right: true },
    ];
    // Amounts under the header that make no item (in the quantity column, none in the amount column).
    const unreadable = page([
      { s: 'Pauschale laut Aufstellung', x: 90, y: 316 },
      { s: '1.250,00', x: 350, y: 316, right: true },
    ]);
    expect((await analyse([unreadable])).unread).toEqual(['BG-25']);
    expect((await analyse([page([{ s: 'Zahlungsbedingungen:', x: 50, y: 360 }])])).unread).toBeUndefined();
    expect((await analyse(germanInvoice())).unread).toBeUndefined();
  });

  it('reports the items of a page whose column titles were not read, from a row that holds quantity × price = amount', async () => {
    const page = (rows: Array<{ s: string; x: number; y: number; right?: boolean }>) => [
      { s: 'Gutschrift Nr. 471102', x: 50, y: 250, size: 12, bold: true },
      // The column titles as a scan read them, with two lines of its noise before the first row: no table is found under them.
      { s: 'u Mee Beschreibung ; Nettopreis 5 Menge USt.', x: 50, y: 300 },
      { s: 'is', x: 60, y: 309 },
      { s: '(Art) USt.', x: 60, y: 318 },
      ...rows,
      { s: 'Umsatzsteuer (S)   198,00   19   37,62', x: 50, y: 400 },
      { s: 'Rechnungssumme ohne USt.', x: 320, y: 420 },
      { s: '198,00', x: 540, y: 420, right: true },
    ];
    const row = ['1', 'Trennblatter', '9,9000', '20 Stk', '19', '198,00'].map((s, i) => ({
      s,
      x: [50, 70, 300, 360, 420, 540][i]!,
      y: 330,
    }));
    expect((await analyse([page(row)])).unread).toEqual(['BG-25']);
    // The breakdown's and the totals' numbers hold no such product: a page without the row stays as it was.
    expect((await analyse([page([])])).unread).toBeUndefined();
  });

  it('reads a credit note printed with negative quantities and amounts with positive ones (381): "-2 × 7,62 = -15,24" is 2 × 7.62 = 15.24', async () => {
    const texts = [
      { s: 'Kontor Nord GmbH', x: 50, y: 50, size: 12, bold: true },
      { s: 'Hafenstraße 3, 20457 Hamburg', x: 50, y: 66 },
      { s: 'Gutschrift Nr. G-2025-07', x: 50, y: 200, size: 12, bold: true },
      { s: 'Datum: 03.03.2025', x: 400, y: 200 },
      { s: 'Beschreibung', x: 50, y: 240, bold: true },
      { s: 'Menge', x: 330, y: 240, bold: true, right: true },
      { s: 'Preis', x: 420, y: 240, bold: true, right: true },
      { s: 'Betrag', x: 540, y: 240, bold: true, right: true },
      { s: 'Druckerpapier', x: 50, y: 256 },
      { s: '-2', x: 330, y: 256, right: true },
      { s: '7,62', x: 420, y: 256, right: true },
      { s: '-15,24', x: 540, y: 256, right: true },
      { s: 'Nettobetrag', x: 320, y: 290 },
      { s: '-15,24', x: 540, y: 290, right: true },
      { s: 'USt. 19 %', x: 320, y: 302 },
      { s: '-2,90', x: 540, y: 302, right: true },
      { s: 'Gesamtbetrag', x: 320, y: 314 },
      { s: '-18,14', x: 540, y: 314, right: true },
    ];
    const { invoice } = await analyse([texts]);
    expect(invoice.invoiceTypeCode).toBe('381');
    expect(invoice.invoiceLine?.map((l) => [l.invoicedQuantity, l.priceDetails?.itemNetPrice, l.invoiceLineNetAmount])).toEqual([
      ['2', '7.62', '15.24'],
    ]);
  });

  it('gives every returned field a confidence between 0 and 1, and nothing for fields not returned', async () => {
    const { invoice, fieldConfidence, extractionConfidence } = await analyse(englishInvoice());
    for (const v of Object.values(fieldConfidence)) (expect(v).toBeGreaterThanOrEqual(0), expect(v).toBeLessThanOrEqual(1));
    expect(fieldConfidence.invoiceNumber).toBeDefined();
    expect(invoice.contractReference).toBeUndefined();
    expect(fieldConfidence.contractReference).toBeUndefined();
    expect(extractionConfidence).toBeGreaterThan(0);
  });

  it('reports PDF_NO_TEXT for a PDF without any text', async () => {
    const text = await extractTextLayer(await pdfWithoutText());
    expect(text).toHaveLength(1);
    expect(text[0]!.words).toEqual([]);
    expect(() => analyseInvoice(text, { withLineItems: true })).toThrow(AnalysisError);
    try {
      analyseInvoice(text, { withLineItems: true });
    } catch (e) {
      expect((e as AnalysisError).code).toBe('PDF_NO_TEXT');
    }
  });

  it('accepts OCR words in pixels and discounts their confidence by the recogniser’s certainty', async () => {
    const text = await extractTextLayer(await pdfOf(englishInvoice()));
    // The same page as an OCR engine at 200 dpi would report it: pixel coordinates, word confidences.
    const scale = 200 / 72;
    const ocr = text.map((p) => ({
      ...p,
      width: p.width * scale,
      height: p.height * scale,
      source: 'ocr' as const,
      words: p.words.map((w) => ({
        text: w.text,
        x: w.x * scale,
        y: w.y * scale,
        width: w.width * scale,
        height: w.height * 0.75 * scale,
        confidence: 0.8,
      })),
    }));
    const fromText = analyseInvoice(text, { withLineItems: true });
    const fromOcr = analyseInvoice(ocr, { withLineItems: true });
    expect(fromOcr.invoice.invoiceNumber).toBe('INV-2024-0042');
    expect(fromOcr.invoice.documentTotals).toEqual(fromText.invoice.documentTotals);
    expect(fromOcr.invoice.invoiceLine).toEqual(fromText.invoice.invoiceLine);
    expect(fromOcr.fieldConfidence.invoiceNumber!).toBeLessThan(fromText.fieldConfidence.invoiceNumber!);
  });
});

describe('item names a person may have to confirm', () => {
  it('offers the whole printed text of a name cut at its colon as the other reading', async () => {
    const pages = englishInvoice().map((page) =>
      page.map((t) => (t.s === 'Consulting services' ? { ...t, s: 'Consulting: March sprint' } : t)),
    );
    const { invoice, candidates } = await analyse(pages);
    expect(invoice.invoiceLine?.[0]?.itemInformation?.itemName).toBe('Consulting');
    expect(candidates?.['invoiceLine[0].itemInformation.itemName']).toEqual(['Consulting: March sprint']);
    expect(candidates?.['invoiceLine[1].itemInformation.itemName']).toBeUndefined();
  });

  it('reports a name cut at its colon as a guess: issuers put the words after it in the name or apart', async () => {
    const pages = englishInvoice().map((page) =>
      page.map((t) => (t.s === 'Consulting services' ? { ...t, s: 'Consulting: March sprint' } : t)),
    );
    const { fieldConfidence } = await analyse(pages);
    expect(fieldConfidence['invoiceLine[0].itemInformation.itemName']).toBeLessThanOrEqual(0.5);
    expect(fieldConfidence['invoiceLine[1].itemInformation.itemName']).toBeGreaterThan(0.5);
  });
});

describe('parts the page prints but the analysis could not read', () => {
  it('names a delivery date whose label is printed but whose value is not a date, and nothing when no such label is printed', async () => {
    const withDelivery = (value: string) =>
      englishInvoice().map((page) => [...page, { s: 'Delivery date', x: 380, y: 138 }, { s: value, x: 545, y: 138, right: true }]);
    expect((await analyse(withDelivery('see delivery note'))).unread).toEqual(['BT-72']);
    const read = await analyse(withDelivery('March 1, 2024'));
    expect(read.invoice.deliveryInformation?.actualDeliveryDate).toBe('2024-03-01');
    expect(read.unread).toBeUndefined();
    expect((await analyse(englishInvoice())).unread).toBeUndefined();
  });
});

describe("the seller's contact", () => {
  it("takes the phone and e-mail of the contact person's block above the items before the footer's", async () => {
    const [page] = germanInvoice();
    const pages = [
      [
        ...page!.filter((t) => !t.s.startsWith('Tel.')),
        { s: 'Ihr Ansprechpartner: Jan Peters', x: 360, y: 232 },
        { s: 'Telefon: 040 1234599', x: 360, y: 244 },
        { s: 'E-Mail: j.peters@musterbau.de', x: 360, y: 256 },
        { s: 'Telefon 040 1234500 · info@musterbau.de', x: 57, y: 788, size: 7 },
      ],
    ];
    const { invoice } = await analyse(pages);
    expect(invoice.seller?.sellerContact?.sellerContactTelephoneNumber).toBe('040 1234599');
    expect(invoice.seller?.sellerContact?.sellerContactEmailAddress).toBe('j.peters@musterbau.de');
  });

  it("never takes the buyer's e-mail, though the page repeats it beside the seller's contact person", async () => {
    const [page] = germanInvoice();
    const pages = [
      [
        ...page!.filter((t) => !t.s.startsWith('Tel.')),
        { s: 'einkauf@beispiel-ag.de', x: 57, y: 197, size: 10 },
        { s: 'Ihr Ansprechpartner: Jan Peters', x: 360, y: 232 },
        { s: 'E-Mail: einkauf@beispiel-ag.de j.peters@musterbau.de', x: 360, y: 256 },
      ],
    ];
    const { invoice } = await analyse(pages);
    expect(invoice.seller?.sellerContact?.sellerContactEmailAddress).toBe('j.peters@musterbau.de');
  });
});
