import { describe, expect, it } from 'vitest';
import { analyseInvoice, analyseWithEvidence } from '../../src/analysis/index.js';
import type { PageText, Word } from '../../src/reading/page-text.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { ocrLine as line, ocrPage as scan, pdfOf, type Text } from './fixtures.js';

/**
 * What scans do to a page that text layers never do: digits misread inside amounts, a logo
 * read as letters. Pages are given as the OCR path hands them over (words with confidences).
 */

describe('a VAT breakdown row the scan made illegible', () => {
  const page = (rows: Word[][]) =>
    scan([
      ...line(300, 200, 'Rechnungsnummer: 2024-118'),
      ...line(340, 200, 'Rechnungsdatum: 05.03.2024'),
      ...line(1500, 200, 'Umsatzsteueraufschlüsselung:'),
      ...rows.flat(),
      ...line(1700, 1200, 'Rechnungssumme ohne USt.'),
      ...line(1700, 2100, '473,00'),
      ...line(1740, 1200, 'Steuerbetrag'),
      ...line(1740, 2100, '56,87'),
      ...line(1780, 1200, 'Bruttosumme'),
      ...line(1780, 2100, '529,87'),
    ]);

  it('is completed from the totals when its rate is legible and base × rate gives the tax left over', () => {
    const { invoice } = analyseInvoice(
      page([
        [...line(1560, 200, 'VAT (S)'), ...line(1560, 1430, '275,00'), ...line(1560, 1900, '7'), ...line(1560, 2150, '19725')],
        [...line(1600, 200, 'VAT (S)'), ...line(1600, 1430, '198,00'), ...line(1600, 1880, '19'), ...line(1600, 2150, '37,62')],
      ]),
      { withLineItems: false },
    );
    expect(
      invoice.vatBreakdown?.map((r) => [r.vatCategoryRate, r.vatCategoryTaxableAmount, r.vatCategoryTaxAmount, r.vatCategoryCode]),
    ).toEqual([
      ['19', '198.00', '37.62', 'S'],
      ['7', '275.00', '19.25', 'S'],
    ]);
  });

  it('is left out when what the totals leave does not fit its rate', () => {
    const { invoice } = analyseInvoice(
      page([
        [...line(1560, 200, 'VAT (S)'), ...line(1560, 1430, '275,00'), ...line(1560, 1900, '16'), ...line(1560, 2150, '19725')],
        [...line(1600, 200, 'VAT (S)'), ...line(1600, 1430, '198,00'), ...line(1600, 1880, '19'), ...line(1600, 2150, '37,62')],
      ]),
      { withLineItems: false },
    );
    expect(invoice.vatBreakdown?.map((r) => r.vatCategoryRate)).toEqual(['19']);
  });
});

describe('a logo read as letters above the letterhead address', () => {
  it('is not taken for the seller name', async () => {
    const { invoice } = analyseInvoice(
      scan([
        ...line(150, 1880, 'AAN EEE', 0.35),
        ...line(190, 1880, 'ES', 0.28),
        ...line(232, 1880, 'Nordlicht GmbH'),
        ...line(274, 1880, 'Hafenweg 12'),
        ...line(316, 1880, '24103 Kiel'),
        ...line(700, 300, 'Beispiel AG'),
        ...line(742, 300, 'Lindenweg 12'),
        // A blank line inside the window address: a loose block, on the left where windows are.
        ...line(826, 300, '50667 Köln'),
        ...line(1100, 200, 'Rechnungsnummer: 2024-118'),
      ]),
      { withLineItems: false },
    );
    expect(invoice.seller?.sellerName).toBe('Nordlicht GmbH');
    expect(invoice.buyer?.buyerName).toBe('Beispiel AG');
  });

  it('is not taken for the buyer where two lines of the address block merged into tall noise', () => {
    // Tesseract's single block swallowed "Ma jolie boutique / Alexandre Payet" at the right into two tall, unsure tokens.
    for (const [first, second] of [
      ['nn', 'ee'],
      ['rs', 'Later'],
    ]) {
      const { invoice } = analyseInvoice(
        scan([
          ...line(136, 460, 'Au bon moulin SARL - 1242 chemin de l olive - 84340 Malaucène - France'),
          ...line(393, 134, 'Facture FA-2017-0010'),
          ...line(519, 152, 'Adresse de livraison'),
          { text: first!, x: 1360, y: 516, width: 64, height: 167, confidence: 0.18 },
          { text: second!, x: 1427, y: 516, width: 276, height: 169, confidence: 0.27 },
          ...line(590, 154, 'Entrepôt Nord'),
          ...line(638, 154, '35 rue de la République'),
          ...line(684, 154, '69001 Lyon'),
          ...line(665, 1361, '35 rue de la République'),
          ...line(716, 1360, '69001 Lyon'),
        ]),
        { withLineItems: false },
      );
      expect(invoice.buyer?.buyerName).toBeUndefined();
    }
  });

  it('is found in a sender line whose dots the scan lost between the name and the street', () => {
    const { invoice } = analyseInvoice(
      scan([
        ...line(626, 300, 'Seller Company 123 Seller St Suite 100 - Building A - 12345 Seller City'),
        ...line(695, 300, 'Buyer Company'),
        ...line(759, 300, '456 Buyer St'),
        ...line(944, 300, '67890 Buyer City'),
        ...line(695, 1423, 'Invoice Number:'),
        ...line(695, 1895, 'DOC-12345'),
      ]),
      { withLineItems: false },
    );
    expect(invoice.seller?.sellerName).toBe('Seller Company');
    expect(invoice.seller?.sellerPostalAddress?.sellerCity).toBe('Seller City');
  });

  it('keeps a long badly read line (a name in a display font), which is text', () => {
    const { invoice } = analyseInvoice(
      scan([
        ...line(700, 300, 'Vestine Boutique Lyon', 0.4),
        ...line(742, 300, '35 rue de la République'),
        ...line(784, 300, '69001 Lyon'),
        ...line(1100, 200, 'Facture n° FA-2017-0010'),
      ]),
      { withLineItems: false },
    );
    expect(invoice.buyer?.buyerName).toBe('Vestine Boutique Lyon');
  });
});

describe('labels and values a scan pulled apart', () => {
  it("reads a party's number printed apart from its label, and a date whose separators were misread, behind a misread colon", () => {
    const { invoice } = analyseInvoice(
      scan([
        ...line(300, 200, 'Rechnungsnummer: 2024-118'),
        ...line(340, 200, 'Liefer- und Leistungsdatum'),
        ...line(340, 940, '3'),
        ...line(340, 990, '05703.2024'),
        ...line(600, 200, 'Käufer:'),
        // Taller than its neighbours, as tesseract boxes it sometimes: not part of the block below.
        { text: 'Nummer', x: 200, y: 640, width: 140, height: 64, confidence: 0.96 },
        // The colon read as a letter.
        ...line(650, 560, 'z'),
        ...line(650, 600, 'GE2020211'),
        ...line(700, 200, 'Kunden AG Mitte'),
        ...line(742, 200, 'Kundenstraße 15'),
        ...line(784, 200, 'DE 69876 Frankfurt'),
      ]),
      { withLineItems: false },
    );
    expect(invoice.deliveryInformation?.actualDeliveryDate).toBe('2024-03-05');
    expect(invoice.buyer?.buyerName).toBe('Kunden AG Mitte');
    expect(invoice.buyer?.buyerIdentifier).toBe('GE2020211');
  });

  it('knows a field label with one letter misread, but not a word one letter away from labels of two fields', () => {
    const read = (label: string) =>
      analyseInvoice(
        scan([
          ...line(300, 200, 'Rechnungsnummer: 2024-118'),
          ...line(340, 200, 'Rechnungsdatum'),
          ...line(340, 700, '04.03.2024'),
          ...line(380, 200, label),
          ...line(380, 700, '01.03.2024'),
        ]),
        { withLineItems: false },
      ).invoice;
    expect(read('Loistungsdatum').deliveryInformation?.actualDeliveryDate).toBe('2024-03-01');
    expect(read('Leistungedatum').deliveryInformation?.actualDeliveryDate).toBe('2024-03-01');
    expect(read('Leistungsdatum').invoiceIssueDate).toBe('2024-03-04');
    // Two letters off is another word.
    expect(read('Loistungedatum').deliveryInformation?.actualDeliveryDate).toBeUndefined();
  });

  it('knows a label whose every g lost its descender ("Zahlunasbedinaunaen:"), but not other a\'s changed', () => {
    const terms = (label: string) =>
      analyseInvoice(
        scan([
          ...line(300, 200, 'Rechnungsnummer: 2024-118'),
          ...line(340, 200, label),
          ...line(380, 200, 'Der Rechnungsbetrag wird über Ihre Kreditkarte abgebucht.'),
        ]),
        { withLineItems: false },
      ).invoice.paymentTerms;
    expect(terms('Zahlungsbedingungen:')).toBe('Der Rechnungsbetrag wird über Ihre Kreditkarte abgebucht.');
    expect(terms('Zahlunasbedinaunaen:')).toBe('Der Rechnungsbetrag wird über Ihre Kreditkarte abgebucht.');
    expect(terms('Zahlunesbedinaunaen:')).toBeUndefined();
  });

  it('knows a party label with a letter or two misread, but not a different word that starts alike', () => {
    const page = (label: string) =>
      scan([
        ...line(560, 200, label),
        ...line(600, 200, 'Nummer'),
        ...line(600, 557, 'z'),
        ...line(600, 603, '9314110911'),
        ...line(650, 200, 'Muster-Autovermietung'),
        ...line(692, 200, 'Musterstr. 99'),
        ...line(734, 200, 'DE 99199 Musterhausen'),
      ]);
    const misread = analyseInvoice(page('Verkiinfer-'), { withLineItems: false }).invoice;
    expect(misread.seller?.sellerName).toBe('Muster-Autovermietung');
    expect(misread.seller?.sellerPostalAddress?.sellerCity).toBe('Musterhausen');
    const short = analyseInvoice(page('Verkiufer:'), { withLineItems: false }).invoice;
    expect(short.seller?.sellerName).toBe('Muster-Autovermietung');
    const other = analyseInvoice(page('Lieferavis'), { withLineItems: false }).invoice;
    expect(other.seller?.sellerName).not.toBe('Muster-Autovermietung');
    // A box edge read before the label ("| Lieferant") leaves it a label, never part of the name.
    const boxed = analyseInvoice(page('| Lieferant'), { withLineItems: false }).invoice;
    expect(boxed.seller?.sellerName).toBe('Muster-Autovermietung');
  });

  it('keeps a house number the scan set apart from its street', () => {
    const { invoice } = analyseInvoice(
      scan([
        ...line(600, 200, 'Käufer:'),
        ...line(650, 200, 'ConsultingService GmbH'),
        ...line(692, 200, 'Musterstr.'),
        ...line(692, 420, '18'),
        ...line(734, 200, 'DE 76138 Karlsruhe'),
      ]),
      { withLineItems: false },
    );
    expect(invoice.buyer?.buyerPostalAddress?.buyerAddressLine1).toBe('Musterstr. 18');
  });

  it('does not make a date of ten digits with no separator left', () => {
    const { invoice } = analyseInvoice(
      scan([...line(300, 200, 'Rechnungsnummer: 2024-118'), ...line(340, 200, 'Leistungsdatum:'), ...line(340, 990, '2090872013')]),
      { withLineItems: false },
    );
    expect(invoice.deliveryInformation?.actualDeliveryDate).toBeUndefined();
  });
});

// The text layer never carries confidences: nothing of the above applies to it.
describe('text layers', () => {
  it('keep short lines at the top of an address', async () => {
    const texts: Text[] = [
      { s: 'IBM', x: 360, y: 50, size: 12 },
      { s: 'Hafenweg 12', x: 360, y: 64 },
      { s: '24103 Kiel', x: 360, y: 76 },
      { s: 'Rechnungsnummer: 2024-118', x: 57, y: 260 },
    ];
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
    expect(invoice.seller?.sellerName).toBe('IBM');
  });
});

describe('an IBAN the scan misread a digit of as a letter', () => {
  const page = (iban: string) =>
    scan([
      ...line(300, 200, 'Rechnungsnummer: 2024-118'),
      ...line(340, 200, 'Rechnungsdatum: 05.03.2024'),
      ...line(1200, 200, `IBAN: ${iban}`),
      ...line(1700, 1200, 'Gesamtbetrag'),
      ...line(1700, 2100, '119,00'),
    ]);
  const ibanOf = (iban: string) => analyseInvoice(page(iban), { withLineItems: false }).invoice.paymentInstructions?.creditTransfer?.[0];

  it('takes the look-alike letters for digits where exactly one reading passes the checksum, and leaves letters a bank code holds', () => {
    expect(ibanOf('DEO2120300000000202051')?.paymentAccountIdentifier).toBe('DE02120300000000202051');
    expect(ibanOf('NLSOINGB0683251309')?.paymentAccountIdentifier).toBe('NL50INGB0683251309');
    // No reading passes: nothing is made up.
    expect(ibanOf('DEO2120300000000202052')?.paymentAccountIdentifier).toBeUndefined();
  });
});

describe('an amount due worked out from the gross', () => {
  const page1 = [
    ...line(300, 200, 'Rechnungsnummer: 2024-118'),
    ...line(340, 200, 'Rechnungsdatum: 05.03.2024'),
    ...line(1700, 1200, 'Rechnungssumme ohne USt.'),
    ...line(1700, 2100, '858,75'),
    ...line(1740, 1200, 'Steuerbetrag'),
    ...line(1740, 2100, '163,16'),
    ...line(1780, 1200, 'Bruttosumme'),
    ...line(1780, 2100, '1021,91'),
  ];
  /** A page the recogniser read as noise: the prepaid amount and what is left to pay were printed there. */
  const noise = Array.from({ length: 30 }, (_, i) => line(200 + 90 * i, 300, 'ee ER nn', 0.3)).flat();
  const due = (pages: PageText[]) =>
    analyseWithEvidence(pages, { withLineItems: false }).fieldConfidence['documentTotals.amountDueForPayment'];

  it('is held as a guess where a page of the scan was read as noise', () => {
    expect(due([...scan(page1), { ...scan(noise)[0]!, page: 2 }])).toBeLessThanOrEqual(0.5);
  });

  it('is held as a guess where the page prints an amount due that no equation of the totals explains', () => {
    const open = [
      ...line(1820, 1200, 'Offene Zahlungen'),
      ...line(1820, 2100, '1021,91'),
      ...line(1860, 1200, 'Zahlbetrag'),
      ...line(1860, 2100, '2043,82'),
    ];
    expect(due(scan([...page1, ...open]))).toBeLessThanOrEqual(0.5);
  });

  it('keeps its measured confidence where every page was read', () => {
    expect(due(scan(page1))).toBeGreaterThan(0.6);
  });
});

describe("an item's name on a scan", () => {
  const page = (first: Word[]) =>
    scan([
      ...line(300, 200, 'Rechnungsnummer: 2024-118'),
      ...line(1000, 200, 'Pos'),
      ...line(1000, 400, 'Beschreibung'),
      ...line(1000, 1200, 'Menge'),
      ...line(1000, 1600, 'Preis'),
      ...line(1000, 2100, 'Betrag'),
      ...line(1100, 200, '1'),
      ...first,
      ...line(1100, 1200, '2'),
      ...line(1100, 1600, '9,90'),
      ...line(1100, 2100, '19,80'),
      ...line(1300, 1200, 'Rechnungssumme netto'),
      ...line(1300, 2100, '19,80'),
    ]);
  const nameConfidence = (first: Word[]) =>
    analyseWithEvidence(page(first), { withLineItems: true }).fieldConfidence['invoiceLine[0].itemInformation.itemName'];

  it('is held as a guess where the recogniser made one of its words up ("RESES" at 0.22 for "Verpflegung")', () => {
    expect(nameConfidence([...line(1100, 400, 'RESES', 0.22), ...line(1100, 480, 'Frühstück')])).toBeLessThanOrEqual(0.5);
  });

  it('keeps its measured confidence where its words were read clearly', () => {
    expect(nameConfidence(line(1100, 400, 'Verpflegung Frühstück'))).toBeGreaterThan(0.6);
  });
});
