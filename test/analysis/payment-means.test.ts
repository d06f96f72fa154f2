import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { germanInvoice, pdfOf, type Text } from './fixtures.js';

/** The payment means a page states (BT-81), and whose account an IBAN on it is. */

async function paymentOf(extra: Text[], drop = 'Zahlbar bis') {
  const [page] = germanInvoice();
  const texts = [...page!.filter((t) => !t.s.startsWith(drop)), ...extra];
  const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
  return invoice.paymentInstructions;
}

const BUYERS_IBAN = 'DE21860000000086001055';

describe('a direct debit', () => {
  it('announced on the page is the payment means, drawing on the buyer account it names, with its mandate and creditor id', async () => {
    const payment = await paymentOf([
      { s: `Der Betrag wird am 13.04.2024 von Ihrem Konto mit IBAN ${BUYERS_IBAN}`, x: 57, y: 500 },
      { s: 'per SEPA-Lastschrift eingezogen.', x: 57, y: 511 },
      { s: 'Mandatsreferenz: M-2024-17, Gläubiger-Identifikationsnummer: DE98ZZZ09999999999', x: 57, y: 522 },
    ]);
    expect(payment?.paymentMeansTypeCode).toBe('59');
    expect(payment?.directDebit).toEqual({
      mandateReferenceIdentifier: 'M-2024-17',
      bankAssignedCreditorIdentifier: 'DE98ZZZ09999999999',
      debitedAccountIdentifier: BUYERS_IBAN,
    });
    // Neither the buyer's account nor the seller's in the footer is an account to pay into.
    expect(payment?.creditTransfer).toBeUndefined();
  });

  it('offered, not announced, leaves the transfer to the account the page gives', async () => {
    const payment = await paymentOf([
      { s: 'Zahlbar bis 13.04.2024 ohne Abzug. Einfacher für Sie ist es, wenn Sie uns ein SEPA-Lastschriftmandat', x: 57, y: 500 },
      { s: 'erteilen: wir würden den Betrag dann von Ihrem Konto abbuchen bzw. eingezogen.', x: 57, y: 511 },
    ]);
    expect(payment?.paymentMeansTypeCode).toBeUndefined();
    expect(payment?.creditTransfer?.[0]?.paymentAccountIdentifier).toBe('DE89370400440532013000');
  });

  it('denied ("wird nicht per Lastschrift eingezogen") leaves the transfer too', async () => {
    const payment = await paymentOf([
      { s: 'Bitte überweisen Sie den Betrag bis 13.04.2024. Er wird nicht per SEPA-Lastschrift eingezogen.', x: 57, y: 500 },
    ]);
    expect(payment?.paymentMeansTypeCode).toBeUndefined();
    expect(payment?.creditTransfer?.[0]?.paymentAccountIdentifier).toBe('DE89370400440532013000');
  });

  it("makes an IBAN labelled as the buyer's no account to pay into, even where no debit is announced", async () => {
    const payment = await paymentOf([{ s: `Käufer-IBAN: ${BUYERS_IBAN}`, x: 57, y: 520 }], 'IBAN DE89');
    expect(payment?.creditTransfer?.[0]?.paymentAccountIdentifier).toBeUndefined();
  });
});

describe("the seller's IBAN", () => {
  it('labelled as the seller\'s ("Verkäufer-IBAN") is the account to pay into', async () => {
    const payment = await paymentOf([{ s: 'Verkäufer-IBAN: DE02120300000000202051', x: 57, y: 520 }], 'IBAN DE89');
    expect(payment?.creditTransfer?.[0]?.paymentAccountIdentifier).toBe('DE02120300000000202051');
  });
});

describe('a printed payment means code', () => {
  it('is read beside its label, as renderings of the XML print it', async () => {
    const payment = await paymentOf([
      { s: 'Payment means type code:', x: 57, y: 520 },
      { s: '42 (Payment to bank account)', x: 200, y: 520 },
    ]);
    expect(payment?.paymentMeansTypeCode).toBe('42');
    const inOne = await paymentOf([{ s: 'Zahlungstyp (codiert): 58', x: 57, y: 520 }]);
    expect(inOne?.paymentMeansTypeCode).toBe('58');
  });
});
