import { describe, expect, it } from 'vitest';
import { analyseInvoice, analyseWithEvidence } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

async function header(texts: Text[]) {
  return (await analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false })).invoice;
}

/** A small letter around the part under test: letterhead, address window, one total. */
const letter = (rest: Text[]): Text[] => [
  { s: 'Kontorbedarf Weser GmbH', x: 50, y: 40, size: 14, bold: true },
  { s: 'Kontorbedarf Weser GmbH · Deichstraße 4 · 28195 Bremen', x: 50, y: 110, size: 6.5 },
  { s: 'Gärtnerei Lindholm KG', x: 50, y: 125, size: 10 },
  { s: 'Moorweg 19', x: 50, y: 138, size: 10 },
  { s: '26122 Oldenburg', x: 50, y: 151, size: 10 },
  ...rest,
  { s: 'Gesamtbetrag', x: 380, y: 420, bold: true },
  { s: '119,00 €', x: 545, y: 420, right: true, bold: true },
];

/** An info strip: small labels side by side, each value in the row below it. */
const strip = (y: number, cells: Array<[string, string]>, width = 120): Text[] =>
  cells.flatMap(([label, value], i) => [
    { s: label, x: 50 + i * width, y, size: 6.5 },
    { s: value, x: 50 + i * width, y: y + 9, size: 8, bold: true },
  ]);

describe('labels printed above their values', () => {
  it('reads each value from the row below, never the next label beside it', async () => {
    const invoice = await header(
      letter([
        { s: 'Rechnung', x: 50, y: 230, size: 16, bold: true },
        ...strip(260, [
          ['Rechnungsnummer', 'RE-88120'],
          ['Ihr Zeichen', 'Einkauf Nord'],
          ['Kundennummer', 'KD-5521'],
          ['Leistungszeitpunkt', '14.02.2024'],
        ]),
        ...strip(290, [
          ['Rechnungsdatum', '16.02.2024'],
          ['Fällig am', '01.03.2024'],
          ['Bestellnummer', 'B-2024-77'],
          ['Vertragsnummer', 'V-900'],
        ]),
      ]),
    );
    expect(invoice.invoiceNumber).toBe('RE-88120');
    expect(invoice.buyerReference).toBe('Einkauf Nord');
    expect(invoice.buyer?.buyerIdentifier).toBe('KD-5521');
    expect(invoice.deliveryInformation?.actualDeliveryDate).toBe('2024-02-14');
    expect(invoice.invoiceIssueDate).toBe('2024-02-16');
    expect(invoice.paymentDueDate).toBe('2024-03-01');
    expect(invoice.purchaseOrderReference).toBe('B-2024-77');
    expect(invoice.contractReference).toBe('V-900');
  });

  it('ends a long value where the next column begins, though only a word space separates them', async () => {
    // "Referentie koper" holds a reference that runs up to the contact person's name beside it.
    const cells: Array<[string, string]> = [
      ['Klantnummer', '138'],
      ['Referentie koper', '90000000-03083-72'],
      ['Contactpersoon', 'Tim Tester'],
    ];
    const texts = letter([
      { s: 'Factuur 1234567', x: 50, y: 230, size: 16, bold: true },
      ...cells.flatMap(([label, value], i) => [
        { s: label, x: 50 + i * 78, y: 260, size: 7 },
        { s: value, x: 50 + i * 78, y: 270, size: 8 },
      ]),
    ]);
    const invoice = await header(texts);
    expect(invoice.buyerReference).toBe('90000000-03083-72');
    expect(invoice.buyer?.buyerIdentifier).toBe('138');
  });

  // Printed labels per field, in the languages the lexicon reads; each printed above a value of its kind.
  const LABELS: Array<[string, string[], string, (i: Record<string, any>) => unknown]> = [
    [
      'customer number',
      ['Kunden-Nr.', 'Kd.-Nr.', 'Customer No.', 'N° client', 'Klantnr.', 'Debiteurnummer', 'Codice cliente', 'N. cliente'],
      'C-20417',
      (i) => i.buyer?.buyerIdentifier,
    ],
    [
      'delivery date',
      [
        'Lieferdatum',
        'Leistungszeitpunkt',
        'Delivery date',
        'Date de livraison',
        'Leveringsdatum',
        'Datum levering',
        'Data di consegna',
        'Data prestazione',
      ],
      '14.02.2024',
      (i) => i.deliveryInformation?.actualDeliveryDate,
    ],
    [
      'due date',
      [
        'Fälligkeitsdatum',
        'Due date',
        "Date d'échéance",
        'Vervaldatum',
        'Uiterste betaaldatum',
        'Scadenza',
        'Data scadenza',
        'Da pagare entro',
      ],
      '01.03.2024',
      (i) => i.paymentDueDate,
    ],
    [
      'buyer reference',
      [
        'Ihr Zeichen',
        'Buyer reference',
        'Buyer ref.',
        'Référence acheteur',
        'Uw referentie',
        'Referentie koper',
        'Riferimento cliente',
        'Rif. acquirente',
        'Leitweg-ID',
        'Leitwege-ID',
      ],
      'Abt. 7-Nord',
      (i) => i.buyerReference,
    ],
    [
      'order reference',
      ['Bestellnummer', 'Purchase order', 'N° de commande', 'Uw order', 'Bestelnummer', 'Numero ordine', 'Vs. ordine', 'Rif. ordine'],
      'PO-7781',
      (i) => i.purchaseOrderReference,
    ],
    [
      'contract reference',
      [
        'Vertragsnummer',
        'Contract No.',
        'N° de contrat',
        'Référence contrat',
        'Réf. contrat',
        'Contractnummer',
        'Overeenkomst',
        'Contratto n.',
        'Numero contratto',
      ],
      'CT-1204',
      (i) => i.contractReference,
    ],
    [
      'invoice number',
      [
        'Rechnungsnummer',
        'Re.-Nr.',
        'Invoice No.',
        'Tax invoice no.',
        'Taxable invoice num.',
        'Invoice ref.',
        'N° de facture',
        'Réf. facture',
        'Factuurnummer',
        'Numero fattura',
        'Numero documento',
        'Documento n.',
      ],
      'R-2024-311',
      (i) => i.invoiceNumber,
    ],
    [
      'issue date',
      [
        'Rechnungsdatum',
        'Invoice date',
        'Date de facture',
        'Factuurdatum',
        'Datum factuur',
        'Data fattura',
        'Data documento',
        'Data di emissione',
      ],
      '16.02.2024',
      (i) => i.invoiceIssueDate,
    ],
  ];
  for (const [field, labels, value, read] of LABELS) {
    it(`reads the ${field} under each of its labels, the next label standing to its right`, async () => {
      for (const label of labels) {
        // The neighbour on the right is a label of another field whose value suits this one's kind.
        const invoice = await header(
          letter(
            strip(260, [
              [label, value],
              ['Kundennummer', 'K-1'],
              ['Lieferdatum', '10.02.2024'],
              ['Ihre Referenz', 'Lager'],
            ]),
          ),
        );
        expect(read(invoice as Record<string, any>), label).toBe(
          /^\d\d\.\d\d\.\d{4}$/.test(value) ? value.split('.').reverse().join('-') : value,
        );
      }
    });
  }
});

describe('a strip of labels the lexicon does not all know', () => {
  it('passes over a neighbour that is printed like a label and heads a value of its own', async () => {
    const invoice = await header(
      letter(
        strip(
          260,
          [
            ['Rif. acquirente', '04011000-12345-34'],
            ['Referente', 'Anna Verdi'],
            ['Customer reference', 'Dept. 12'],
          ],
          150,
        ),
      ),
    );
    expect(invoice.buyerReference).toBe('04011000-12345-34');
  });
});

describe('the type code a rendering of the XML prints', () => {
  it('takes the code beside "Rechnungsart" or "Invoice type code" over the title, and no code EN 16931 does not know', async () => {
    const typed = async (label: string, value: string) =>
      (
        await header(
          letter([
            { s: 'Rechnung', x: 50, y: 190, size: 16, bold: true },
            { s: label, x: 50, y: 230 },
            { s: value, x: 150, y: 230 },
          ]),
        )
      ).invoiceTypeCode;
    expect(await typed('Rechnungsart:', '389 (Self-billed invoice)')).toBe('389');
    expect(await typed('Invoice type code:', '204')).toBe('204');
    expect(await typed('Rechnungsart:', '999 (Unknown)')).toBe('380');
  });
});

describe('the invoice currency beside the currency the VAT is booked in', () => {
  it('reads "Rechnungswährung : GBP", not "Währung der Umsatzsteuerbuchung : EUR"', async () => {
    const invoice = await header(
      letter([
        { s: 'Rechnungswährung', x: 50, y: 200 },
        { s: ': GBP', x: 200, y: 200 },
        { s: 'Währung der Umsatzsteuerbuchung', x: 50, y: 214 },
        { s: ': EUR', x: 200, y: 214 },
      ]),
    );
    expect(invoice.invoiceCurrencyCode).toBe('GBP');
  });

  it('reads "Your reference" as the order where no order is labelled, and as the buyer\'s reference beside a labelled order', async () => {
    const form = (rows: Array<[string, string]>): Text[] =>
      rows.flatMap(([label, value], i) => [
        { s: label, x: 330, y: 200 + i * 12 },
        { s: value, x: 450, y: 200 + i * 12 },
      ]);
    const alone = await header(letter(form([['Your Reference:', 'PO-2024-118']])));
    expect(alone.purchaseOrderReference).toBe('PO-2024-118');
    expect(alone.buyerReference).toBeUndefined();
    const both = await header(
      letter(
        form([
          ['Your Order:', 'A7450891'],
          ['Your Reference:', 'dept0815'],
        ]),
      ),
    );
    expect(both.purchaseOrderReference).toBe('A7450891');
    expect(both.buyerReference).toBe('dept0815');
  });
});

describe('dates and titles as invoices print them', () => {
  it('reads day-month-year with the month abbreviated between hyphens, and Italian month names', async () => {
    const invoice = await header(
      letter([
        { s: 'Issue date:', x: 360, y: 200 },
        { s: '06-Dec-2018', x: 545, y: 200, right: true },
        { s: 'Data di consegna:', x: 360, y: 212 },
        { s: '5 giugno 2018', x: 545, y: 212, right: true },
      ]),
    );
    expect(invoice.invoiceIssueDate).toBe('2018-12-06');
    expect(invoice.deliveryInformation?.actualDeliveryDate).toBe('2018-06-05');
  });

  it('reads the due date a summary line names with the amount due ("Total amount due on August 3, 2014 $4.11")', async () => {
    const invoice = await header(
      letter([
        { s: 'Invoice Date:', x: 360, y: 200 },
        { s: 'July 31, 2014', x: 545, y: 200, right: true },
        { s: 'TOTAL AMOUNT DUE ON August 3, 2014', x: 300, y: 212 },
        { s: '$4.11', x: 545, y: 212, right: true },
      ]),
    );
    expect(invoice.invoiceIssueDate).toBe('2014-07-31');
    expect(invoice.paymentDueDate).toBe('2014-08-03');
  });

  it('reads no delivery date from a label whose value is a range: its start is no date of the delivery', async () => {
    const delivered = async (value: string) =>
      (
        await header(
          letter([
            { s: 'Leistungs-Datum :', x: 360, y: 200 },
            { s: value, x: 545, y: 200, right: true },
          ]),
        )
      ).deliveryInformation?.actualDeliveryDate;
    expect(await delivered('01.09.13 - 30.09.13')).toBeUndefined();
    expect(await delivered('01.09.2013 bis 30.09.2013')).toBeUndefined();
    expect(await delivered('30.09.2013')).toBe('2013-09-30');
  });

  it('reads a self-billing invoice and a corrective invoice by their titles', async () => {
    const type = async (title: string) => (await header(letter([{ s: title, x: 50, y: 230, size: 16, bold: true }]))).invoiceTypeCode;
    expect(await type('SELF-BILLING INVOICE')).toBe('389');
    expect(await type('Facture corrective')).toBe('384');
    expect(await type('Nota di credito')).toBe('381');
  });

  it('reads a kind of invoice that issuers code either way as a guess a person must confirm, unless its code is printed', async () => {
    const typed = async (title: string) => {
      const pages = await extractTextLayer(await pdfOf([letter([{ s: title, x: 50, y: 230, size: 16, bold: true }])]));
      const result = await analyseInvoice(pages, { withLineItems: false });
      return [result.invoice.invoiceTypeCode, result.fieldConfidence.invoiceTypeCode];
    };
    const [code, confidence] = await typed('Baurechnung Nr. 181301674 vom 25.04.2018');
    expect(code).toBe('380');
    expect(confidence).toBeLessThanOrEqual(0.5);
    const pages = await extractTextLayer(await pdfOf([letter([{ s: 'Schlussrechnung', x: 50, y: 230, size: 16, bold: true }])]));
    // The refusal offers the code the kind stands for.
    expect((await analyseInvoice(pages, { withLineItems: false })).candidates?.invoiceTypeCode).toEqual(['877']);
    expect((await typed('Teilrechnung'))[1]).toBeLessThanOrEqual(0.5);
    expect((await typed('Rechnung'))[1]).toBeGreaterThan(0.9);
    expect(await typed('Baurechnung (204) Nr. 181301674 vom 25.04.2018')).toEqual(['204', expect.any(Number)]);
    expect((await typed('Baurechnung (204) Nr. 181301674 vom 25.04.2018'))[1]).toBeGreaterThan(0.5);
  });

  it('reads the number printed with a bare label on the line under a lone title, and no number under other lines', async () => {
    const under = async (title: string) =>
      (
        await header(
          letter([
            { s: title, x: 50, y: 200, size: 16, bold: true },
            { s: 'N° FA-2026-0017', x: 50, y: 222, size: 10 },
            { s: 'Date : 15/08/2026', x: 50, y: 236, size: 10 },
          ]),
        )
      ).invoiceNumber;
    expect(await under('FACTURE')).toBe('FA-2026-0017');
    expect(await under('Invoice')).toBe('FA-2026-0017');
    expect(await under('Lieferschein')).toBeUndefined();
  });

  it('reads a title that goes on with its number and date, and the type code a rendering prints after its name', async () => {
    const type = async (title: string) => (await header(letter([{ s: title, x: 50, y: 230, size: 12, bold: true }]))).invoiceTypeCode;
    expect(await type('Gutschrift (Selbst ausgestellte Rechnung) Nr. 47110818 vom 31.10.2018 für Lieferungen')).toBe('389');
    expect(await type('Rechnung des Versicherers (575) Nr. 00.123.456.7-2018-1 vom 11.03.2018')).toBe('575');
    expect(await type('Baurechnung (204) Nr. 181301674 vom 25.04.2018')).toBe('204');
    // A number in parentheses that is no type code EN 16931 allows is not read as one.
    expect(await type('Rechnung (999) Nr. 4711 vom 25.04.2018')).toBe('380');
  });
});

describe('Italian headings and numbers', () => {
  it('reads number and date from a title line "Fattura differita n. … del …"', async () => {
    const invoice = await header(letter([{ s: 'Fattura differita n. 471102 del 05/06/2018', x: 50, y: 230, size: 11, bold: true }]));
    expect(invoice.invoiceNumber).toBe('471102');
    expect(invoice.invoiceIssueDate).toBe('2018-06-05');
  });
});

describe('the sender line above the address window', () => {
  it('reads a sender line that wraps after a separator as one: the name is its first part', async () => {
    const invoice = await header([
      { s: 'Elektro Brandt & Söhne KG · Karl-Heine-Straße 88 · Hinterhaus ·', x: 50, y: 110, size: 6.5 },
      { s: '04229 Leipzig · Sachsen · Deutschland', x: 50, y: 118, size: 6.5 },
      { s: 'Bergmann Logistik AG', x: 50, y: 135, size: 10 },
      { s: 'Speicherstraße 40', x: 50, y: 148, size: 10 },
      { s: '44147 Dortmund', x: 50, y: 161, size: 10 },
      { s: 'Rechnung', x: 50, y: 230, size: 16, bold: true },
      { s: 'Gesamtbetrag', x: 380, y: 420, bold: true },
      { s: '119,00 €', x: 545, y: 420, right: true, bold: true },
    ]);
    expect(invoice.seller?.sellerName).toBe('Elektro Brandt & Söhne KG');
    expect(invoice.seller?.sellerPostalAddress).toMatchObject({
      sellerAddressLine1: 'Karl-Heine-Straße 88',
      sellerPostCode: '04229',
      sellerCity: 'Leipzig',
    });
    expect(invoice.buyer?.buyerName).toBe('Bergmann Logistik AG');
  });
});

describe('VAT identifiers in the info block', () => {
  it("takes the one beside 'Your VAT number' as the buyer's, in English as in German", async () => {
    for (const label of ['Your VAT number', 'Your VAT no.', 'Ihre USt-IdNr.']) {
      const invoice = await header(
        letter([
          { s: label, x: 330, y: 200 },
          { s: 'DE176543219', x: 545, y: 200, right: true },
          { s: 'VAT no.: DE287654321', x: 330, y: 800, size: 6.5 },
        ]),
      );
      expect(invoice.buyer?.buyerVatIdentifier, label).toBe('DE176543219');
      expect(invoice.seller?.sellerVatIdentifier, label).toBe('DE287654321');
    }
  });
});

/** A label a narrow label column broke in two, its value beside the first line, the next label beside the second. */
const brokenLabel = (value: string): Text[] => [
  { s: 'Skonto; weitere', x: 50, y: 460 },
  { s: value, x: 150, y: 460 },
  { s: 'Code für das', x: 330, y: 460 },
  { s: 'Zahlungsbedingungen:', x: 50, y: 470 },
  { s: 'Zahlungsmittel:', x: 330, y: 470 },
];

describe('a reference set flush right beside its label', () => {
  it('goes on over the line under it that ends where it ends and has no label beside it', async () => {
    const info = (rest: Text[]) =>
      header(
        letter([
          { s: 'Kundennummer', x: 330, y: 140 },
          { s: 'K-10023', x: 540, y: 140, right: true },
          { s: 'Ihre Referenz', x: 330, y: 152 },
          { s: 'Lieferantengutschrift', x: 540, y: 152, right: true },
          ...rest,
        ]),
      );
    const wrapped = await info([
      { s: 'Oktober', x: 540, y: 161, right: true },
      { s: 'Ihre USt-IdNr.', x: 330, y: 173 },
      { s: 'DE176543219', x: 540, y: 173, right: true },
    ]);
    expect(wrapped.buyerReference).toBe('Lieferantengutschrift Oktober');
    // The next label's value, flush right under it, is its own.
    const next = await info([
      { s: 'Ihre USt-IdNr.', x: 330, y: 161 },
      { s: 'DE176543219', x: 540, y: 161, right: true },
    ]);
    expect(next.buyerReference).toBe('Lieferantengutschrift');
  });
});

describe('payment terms (BT-20)', () => {
  it('reads the terms printed beside, behind or under their label, as printed', async () => {
    const beside = await header(
      letter([
        { s: 'Zahlungsbedingungen', x: 50, y: 460 },
        { s: 'Zahlbar sofort ohne Abzug.', x: 200, y: 460 },
      ]),
    );
    expect(beside.paymentTerms).toBe('Zahlbar sofort ohne Abzug.');
    const behind = await header(letter([{ s: 'Payment terms: 14 days net', x: 50, y: 460 }]));
    expect(behind.paymentTerms).toBe('14 days net');
    const under = await header(
      letter([
        { s: 'Conditions de paiement', x: 50, y: 460, bold: true },
        { s: 'À réception de facture', x: 50, y: 472 },
      ]),
    );
    expect(under.paymentTerms).toBe('À réception de facture');
  });

  it('reads one row of a table of terms, each row with its date beside it, as the terms', async () => {
    const terms = await header(
      letter([
        { s: 'Zahlbar ohne Abschlag bis', x: 50, y: 460 },
        { s: '20.11.2018', x: 400, y: 460 },
        { s: 'Zahlbar mit 2% Skonto bis', x: 50, y: 472 },
        { s: '14.11.2018', x: 400, y: 472 },
      ]),
    );
    expect(terms.paymentTerms).toBe('Zahlbar ohne Abschlag bis');
  });

  it('reads terms printed as a sentence of their own, over the lines they run on, and stops before a heading', async () => {
    const read = async (lines: string[]) => (await header(letter(lines.map((s, i) => ({ s, x: 50, y: 460 + 12 * i }))))).paymentTerms;
    expect(await read(['Zahlbar sofort rein netto'])).toBe('Zahlbar sofort rein netto');
    expect(await read(['.Bei Zahlung innerhalb 14 Tagen gewähren wir 2,0% Skonto.'])).toBe(
      'Bei Zahlung innerhalb 14 Tagen gewähren wir 2,0% Skonto.',
    );
    expect(
      await read(['Zahlbar innerhalb 30 Tagen netto bis 04.04.2018, 3%', 'Skonto innerhalb 10 Tagen bis 15.03.2018', 'Bankverbindung']),
    ).toBe('Zahlbar innerhalb 30 Tagen netto bis 04.04.2018, 3% Skonto innerhalb 10 Tagen bis 15.03.2018');
    expect(
      await read(["Tout retard de paiement fera l'objet d'une pénalité de retard. Aucun escompte ne sera accordé pour paiement anticipé."]),
    ).toBe("Tout retard de paiement fera l'objet d'une pénalité de retard. Aucun escompte ne sera accordé pour paiement anticipé.");
    expect(await read(['Payment terms: 30% advance payment,', 'balance at 30 days', 'Bank Account: DE02 1203 0000 0000 2020 51'])).toBe(
      '30% advance payment, balance at 30 days',
    );
  });

  it('reads terms printed as a table under their heading, past the column headings and a page break that repeats them', async () => {
    const headings = (y: number): Text[] => [
      { s: 'Beschreibung', x: 180, y },
      { s: 'Fälligkeit', x: 390, y },
      { s: 'Teilzahlung', x: 470, y },
    ];
    const paragraph = (y: number): Text[] =>
      ['Der Betrag wird Ihrem Kundenkonto gutgeschrieben und', 'mit der nächsten Rechnung verrechnet.'].map((s, i) => ({
        s,
        x: 50,
        y: y + 11.3 * i,
      }));
    const terms = 'Der Betrag wird Ihrem Kundenkonto gutgeschrieben und mit der nächsten Rechnung verrechnet.';
    const onePage = letter([
      { s: 'Zahlungsbedingungen:', x: 50, y: 460 },
      ...headings(483),
      ...paragraph(496),
      { s: 'Umsatzsteueraufschlüsselung:', x: 50, y: 560 },
    ]);
    expect((await header(onePage)).paymentTerms).toBe(terms);
    // The next section's heading set at the line spacing under the paragraph is no part of it.
    const closeHeading = letter([
      { s: 'Zahlungsbedingungen:', x: 50, y: 460 },
      ...headings(483),
      ...paragraph(496),
      { s: 'Umsatzsteueraufschlüsselung:', x: 50, y: 496 + 2 * 11.3 },
    ]);
    expect((await header(closeHeading)).paymentTerms).toBe(terms);
    const broken = [letter([{ s: 'Zahlungsbedingungen:', x: 50, y: 780 }, ...headings(803)]), [...headings(56), ...paragraph(80)]];
    const invoice = (await analyseInvoice(await extractTextLayer(await pdfOf(broken)), { withLineItems: false })).invoice;
    expect(invoice.paymentTerms).toBe(terms);
    // A hyphenated compound wrapped at its hyphen is one word again.
    const compound = letter([
      { s: 'Zahlungsbedingungen:', x: 50, y: 460 },
      ...headings(483),
      { s: 'Einfacher für Sie ist es, wenn Sie uns ein SEPA-', x: 50, y: 496 },
      { s: 'Lastschriftmandat erteilen.', x: 50, y: 496 + 11.3 },
    ]);
    expect((await header(compound)).paymentTerms).toBe('Einfacher für Sie ist es, wenn Sie uns ein SEPA-Lastschriftmandat erteilen.');
  });

  it('reads a table of terms whose paragraph opens with a terms label and has the due date beside it, also after the label ends a page', async () => {
    const headings = (y: number): Text[] => [
      { s: 'Beschreibung', x: 180, y },
      { s: 'Fälligkeit', x: 390, y },
      { s: 'Teilzahlung', x: 470, y },
    ];
    const paragraph = (y: number): Text[] => [
      { s: 'Zahlungsbedingungen: Der Rechnungsbetrag wurde bereits', x: 50, y },
      { s: '03.10.2018', x: 390, y: y + 5 },
      { s: 'beglichen.', x: 50, y: y + 11.3 },
    ];
    const terms = 'Zahlungsbedingungen: Der Rechnungsbetrag wurde bereits beglichen.';
    const onePage = letter([{ s: 'Zahlungsbedingungen:', x: 50, y: 460 }, ...headings(483), ...paragraph(496)]);
    expect((await header(onePage)).paymentTerms).toBe(terms);
    // The label ends its page; the headings, printed twice, open the next.
    const broken = [letter([{ s: 'Zahlungsbedingungen:', x: 50, y: 790 }]), [...headings(56), ...headings(57), ...paragraph(80)]];
    const invoice = (await analyseInvoice(await extractTextLayer(await pdfOf(broken)), { withLineItems: false })).invoice;
    expect(invoice.paymentTerms).toBe(terms);
    // The next table's headings under the paragraph end it.
    const nextTable = letter([
      { s: 'Zahlungsbedingungen:', x: 50, y: 460 },
      ...headings(483),
      { s: 'Skontovereinbarung: 2% bei Zahlung innerhalb 10 Tagen nach Rechnungsdatum', x: 50, y: 496 },
      { s: 'Abschläge', x: 50, y: 507 },
      { s: 'Bezug', x: 180, y: 507 },
      { s: 'Innerhalb', x: 260, y: 507 },
      { s: 'Prozent', x: 470, y: 507 },
    ]);
    expect((await header(nextTable)).paymentTerms).toBe('Skontovereinbarung: 2% bei Zahlung innerhalb 10 Tagen nach Rechnungsdatum');
  });

  it('takes no label for terms, nor the value of the next label: a label broken over two lines, the next label beside the second', async () => {
    const invoice = await header(
      letter([
        ...brokenLabel('Zahlbar ohne Abzug bis 15.06.2016'),
        // Terms without a full stop may go on with a date, but not with the value of a label of its own.
        { s: 'Fälligkeitsdatum:', x: 50, y: 488 },
        { s: '15.6.2016', x: 150, y: 488 },
      ]),
    );
    expect(invoice.paymentTerms).toBe('Zahlbar ohne Abzug bis 15.06.2016');
  });

  it('reads terms from the first line of a label a narrow column broke in two ("Skonto; weitere" / "Zahlungsbedingungen:")', async () => {
    const invoice = await header(
      letter([
        { s: 'Skonto; weitere', x: 50, y: 460 },
        { s: 'Den Rechnungsbetrag überweisen Sie', x: 150, y: 460 },
        { s: 'Zahlungsbedingungen:', x: 50, y: 470 },
        { s: 'bitte bis zum 21.11.2018 auf das unten', x: 150, y: 470 },
        { s: 'angegebene Konto.', x: 150, y: 480 },
      ]),
    );
    expect(invoice.paymentTerms).toBe('Den Rechnungsbetrag überweisen Sie bitte bis zum 21.11.2018 auf das unten angegebene Konto.');
  });

  it('reads terms beside the first line of a broken label whose second line has the next label beside it', async () => {
    expect((await header(letter(brokenLabel('14 Tage')))).paymentTerms).toBe('14 Tage');
  });

  it('reads every sentence of terms set in the value column of a form, down to the next label', async () => {
    const invoice = await header(
      letter([
        { s: 'Payment terms:', x: 50, y: 460 },
        { s: 'Die Leistung wurde erbracht im Zeitraum zwischen', x: 150, y: 460 },
        { s: 'Übergabe und Rückgabe. Der Rechnungsbetrag wird', x: 150, y: 470 },
        { s: 'abgebucht. Rechnung für Ihre Unterlagen.', x: 150, y: 480 },
        { s: 'Due date:', x: 50, y: 496 },
        { s: '15.6.2016', x: 150, y: 496 },
      ]),
    );
    expect(invoice.paymentTerms).toBe(
      'Die Leistung wurde erbracht im Zeitraum zwischen Übergabe und Rückgabe. Der Rechnungsbetrag wird abgebucht. Rechnung für Ihre Unterlagen.',
    );
  });

  it('takes no number or bare sign for terms, and no sentence that only mentions payment', async () => {
    expect(
      (
        await header(
          letter([
            { s: 'Zahlungsbedingungen:', x: 50, y: 460 },
            { s: '30', x: 200, y: 460 },
          ]),
        )
      ).paymentTerms,
    ).toBeUndefined();
    expect(
      (await header(letter([{ s: 'Bitte beachten Sie unsere Zahlungsbedingungen auf der Rückseite.', x: 50, y: 460 }]))).paymentTerms,
    ).toBeUndefined();
  });
});

describe('seller tax number (BT-32)', () => {
  const footer = (line: string): Text[] => letter([{ s: line, x: 297, y: 800, size: 6.5 }].map((t) => ({ ...t, x: 60 })));
  for (const [label, value] of [
    ['Steuernummer', '123/456/789'],
    ['Tax No.', '201/113/40209'],
    ['N° fiscal', '12/345/67890'],
    ['Codice fiscale', 'RSSMRA85T10A562S'],
    ['Fiscaal nummer', '8123456789'],
    ['Steuer-Nr.', '044 241 601 03'],
  ] as const) {
    it(`reads "${label}" inside a footer line joined by separators`, async () => {
      const invoice = await header(
        footer(`Kontorbedarf Weser GmbH · USt-IdNr.: DE123456788 · ${label}: ${value} · Amtsgericht Bremen HRB 1234`),
      );
      expect(invoice.seller?.sellerTaxRegistrationIdentifier).toBe(value);
    });
  }
});

describe('seller legal registration (BT-30)', () => {
  const footer = (line: string): Text[] => letter([{ s: line, x: 60, y: 800, size: 6.5 }]);

  it('reads the commercial register number printed in the footer, without the court named apart, with its letters after the number', async () => {
    for (const [line, value] of [
      ['Registergericht Hanau | HRB 13302', 'HRB 13302'],
      ['Amtsgericht Bremen HR B 1234 · Geschäftsführer: Jan Weser', 'HRB 1234'],
      ['Handelsregister: HRA-Nr. 567, Amtsgericht Köln', 'HRA 567'],
      ['Register: HRB 22334 KI', 'HRB 22334 KI'],
      ['Amtsgericht Charlottenburg HRB 98765 B · USt-IdNr. DE123456788', 'HRB 98765 B'],
      ['HRB 4711 USt-IdNr. DE123456788', 'HRB 4711'],
    ]) {
      expect((await header(footer(line))).seller?.sellerLegalRegistrationIdentifier, line).toBe(value);
    }
  });

  it('reads none when the page prints two different ones', async () => {
    const two = letter([
      { s: 'Amtsgericht Bremen HRB 1234', x: 60, y: 790, size: 6.5 },
      { s: 'Amtsgericht Hanau HRB 5678', x: 60, y: 800, size: 6.5 },
    ]);
    expect((await header(two)).seller?.sellerLegalRegistrationIdentifier).toBeUndefined();
  });
});

describe('VAT ids as printed', () => {
  it('reads a labelled VAT id whose length or check digits fail as the text layer prints it; an unlabelled one not at all', async () => {
    expect((await header(letter([{ s: 'UID-Nr.: ATU123456789', x: 50, y: 780, size: 7 }]))).seller?.sellerVatIdentifier).toBe(
      'ATU123456789',
    );
    expect((await header(letter([{ s: 'ATU123456789', x: 50, y: 780, size: 7 }]))).seller?.sellerVatIdentifier).toBeUndefined();
  });
});

describe('labels of what is not read', () => {
  it('never takes a contact-person label beside or under a field label for its value', async () => {
    for (const contact of ['Contactpersoon', 'Ihr Ansprechpartner', 'Votre contact', 'Your contact', 'Referente']) {
      const invoice = await header(
        letter([
          { s: 'Buyer ref.', x: 300, y: 260, size: 8 },
          { s: contact, x: 400, y: 260, size: 8 },
          { s: contact, x: 300, y: 270, size: 8 },
        ]),
      );
      expect(invoice.buyerReference, contact).toBeUndefined();
    }
  });
});

describe('the number the page gives as the order', () => {
  it('is not taken surely for the invoice number where the number is read from it', async () => {
    const page = (numberLabel: string) =>
      letter([
        { s: 'RECHNUNG', x: 380, y: 200, size: 12, bold: true },
        // The invoice number's own label, as a scan garbles it on its grey box ("Retin" for "Rechnungsnummer").
        { s: numberLabel, x: 380, y: 220 },
        { s: '471102', x: 545, y: 220, right: true },
        { s: 'Rechnungsdatum', x: 380, y: 232 },
        { s: '05.03.2014', x: 545, y: 232, right: true },
        { s: 'Rechnung gemäß Bestellung Nr. 2014-471331 vom 01.03.2014.', x: 300, y: 260 },
      ]);
    const read = async (numberLabel: string) =>
      analyseWithEvidence(await extractTextLayer(await pdfOf([page(numberLabel)])), { withLineItems: false });
    const garbled = await read('Retin');
    expect(garbled.invoice.purchaseOrderReference).toBe('2014-471331');
    // With its own label unread, the order's number is the likeliest left: it may be offered, never written unconfirmed.
    expect(garbled.invoice.invoiceNumber).toBe('2014-471331');
    expect(garbled.evidence.invoiceNumber).toMatch(/:order-number$/);
    expect(garbled.fieldConfidence.invoiceNumber).toBeLessThanOrEqual(0.5);
    const labelled = await read('Rechnungsnummer');
    expect(labelled.invoice.invoiceNumber).toBe('471102');
    expect(labelled.evidence.invoiceNumber).not.toMatch(/:order-number$/);
  });
});

describe('dates printed as eight digits', () => {
  it('reads a date a label announces in the ISO basic form ("Date : 20260815 · Échéance : 20260914"), and no other run of eight digits', async () => {
    const invoice = await header(
      letter([
        { s: 'FACTURE', x: 50, y: 230, size: 16, bold: true },
        { s: 'N° FA-2026-0001', x: 50, y: 250 },
        { s: 'Date : 20260815 · Échéance : 20260914', x: 50, y: 262 },
        { s: 'Commande : 20261399', x: 50, y: 274 },
      ]),
    );
    expect([invoice.invoiceIssueDate, invoice.paymentDueDate]).toEqual(['2026-08-15', '2026-09-14']);
    const notADay = await header(letter([{ s: 'Rechnungsdatum: 20261399', x: 50, y: 250 }]));
    expect(notADay.invoiceIssueDate).toBeUndefined();
  });
});
