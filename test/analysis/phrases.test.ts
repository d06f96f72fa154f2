import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { parseCityLine } from '../../src/analysis/parties.js';
import { pdfOf, type Text } from './fixtures.js';

async function analyse(texts: Text[]) {
  return analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
}

/** Values that only running text gives: no "Rechnungsnummer:" label, no due date field. */
const debitNotice: Text[] = [
  { s: 'Gemeinde-Versicherung VVaG', x: 57, y: 50, size: 14, bold: true },
  { s: 'Frau', x: 57, y: 150 },
  { s: 'Petra Beispiel', x: 57, y: 161 },
  { s: 'Ahornweg 3', x: 57, y: 172 },
  { s: '34117 Kassel', x: 57, y: 183 },
  { s: 'Beitragsbescheid – Rechnung Nr. 2024-118 vom 05.02.2024', x: 57, y: 260, bold: true },
  { s: 'Wohngebäudeversicherung VSNR: 12.345.678.9 (bei Zahlung bitte angeben)', x: 57, y: 280 },
  { s: 'Steuer-Nr', x: 57, y: 300 },
  { s: ': 2612081508159', x: 160, y: 300 },
  { s: 'Der Betrag in Höhe von EUR 119,00 wird am 20.02.2024 von Ihrem Konto eingezogen.', x: 57, y: 330 },
];

describe('values named in running text', () => {
  it('reads number and date from "Rechnung Nr. … vom …", the debit day of a SEPA notice and the policy number', async () => {
    const { invoice } = await analyse(debitNotice);
    expect(invoice.invoiceNumber).toBe('2024-118');
    expect(invoice.invoiceIssueDate).toBe('2024-02-05');
    expect(invoice.paymentDueDate).toBe('2024-02-20');
    expect(invoice.buyerReference).toBe('12.345.678.9');
    expect(invoice.seller?.sellerTaxRegistrationIdentifier).toBe('2612081508159');
  });

  it('reads an IBAN that the sentence wraps at the end of a line, only where its check digits hold across the break', async () => {
    const sentence = (next: string) => [
      ...debitNotice.slice(0, -1),
      { s: 'Bitte überweisen Sie den Betrag von 119,00 € bis zum 20.02.2024 auf das Konto IBAN DE89 3704', x: 57, y: 330 },
      { s: next, x: 57, y: 341 },
    ];
    const iban = async (next: string) =>
      (await analyse(sentence(next))).invoice.paymentInstructions?.creditTransfer?.[0]?.paymentAccountIdentifier;
    expect(await iban('0044 0532 0130 00 bei der Commerzbank.')).toBe('DE89370400440532013000');
    // One digit off: the two lines are not one IBAN, and the fragment is none either.
    expect(await iban('0044 0532 0130 01 bei der Commerzbank.')).not.toBe('DE89370400440532013001');
  });

  it('reads the due date and the terms from "Die Rechnung ist zahlbar zum …"', async () => {
    const { invoice } = await analyse([
      ...debitNotice.slice(0, -1),
      { s: 'Die Rechnung ist zahlbar zum 25.02.2024 rein netto ohne Abzug.', x: 57, y: 330 },
    ]);
    expect(invoice.paymentDueDate).toBe('2024-02-25');
    expect(invoice.paymentTerms).toBe('Die Rechnung ist zahlbar zum 25.02.2024 rein netto ohne Abzug.');
  });

  it('does not take a delivery sentence for the due date', async () => {
    const { invoice } = await analyse([...debitNotice.slice(0, -1), { s: 'Die Ware wird am 20.02.2024 geliefert.', x: 57, y: 330 }]);
    expect(invoice.paymentDueDate).toBeUndefined();
  });

  it('names the seller after the account holder when the page prints its name nowhere else', async () => {
    const { invoice } = await analyse([
      { s: 'Invoice no. 88213', x: 57, y: 200 },
      { s: 'Date: 28/11/2022', x: 57, y: 212 },
      { s: 'Bank transfer – Account holder: Widget Works Ltd – IBAN GB33BUKB20201555555555', x: 57, y: 700 },
    ]);
    expect(invoice.seller?.sellerName).toBe('Widget Works Ltd');
  });
});

describe('British addresses', () => {
  it('reads the post code before or after the town', () => {
    expect(parseCityLine('GB SW1B 3BN London')).toEqual({ postcode: 'SW1B 3BN', city: 'London', country: 'GB' });
    expect(parseCityLine('Manchester M1 1AE')).toEqual({ postcode: 'M1 1AE', city: 'Manchester', country: 'GB' });
    expect(parseCityLine('Leeds, LS1 4AP')).toEqual({ postcode: 'LS1 4AP', city: 'Leeds', country: 'GB' });
    // Not post codes: a German city line stays German, a street with a number stays a street.
    expect(parseCityLine('DE 12345 Leipzig')).toMatchObject({ postcode: '12345', city: 'Leipzig' });
    expect(parseCityLine('Victoria Street 153')).toBeUndefined();
  });
});
