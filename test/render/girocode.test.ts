import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invoiceSchema } from '../../src/invoice/model.js';
import { createFormatter, formatIban } from '../../src/render/format.js';
import { epcPaymentOf, epcPayload, isCreditorReference, isIban, qrMatrix } from '../../src/render/girocode.js';

const fixture = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/invoices/01-standard-19.json'), 'utf8'));
const invoice = (patch: (json: any) => void = () => {}) => {
  const json = structuredClone(fixture);
  patch(json);
  return invoiceSchema.parse(json);
};

describe('GiroCode (EPC069-12)', () => {
  it('writes the EPC payload of a SEPA credit transfer', () => {
    const payload = epcPayload(epcPaymentOf(invoice())!);
    expect(payload).toBe(
      [
        'BCD',
        '002',
        '1',
        'SCT',
        'RWBKDED1XXX',
        'Rheinwerk Bürobedarf GmbH',
        'DE10370502990123456789',
        'EUR562.75',
        '',
        '',
        'RE-2025-00101',
      ].join('\n'),
    );
    // Version 13 at most: 69 modules.
    expect(qrMatrix(payload).length).toBeLessThanOrEqual(69);
  });

  it('puts an ISO 11649 creditor reference into the structured field', () => {
    const p = epcPaymentOf(invoice((j) => (j.paymentInstructions.remittanceInformation = 'RF18 5390 0754 7034')))!;
    expect(epcPayload(p).split('\n').slice(9)).toEqual(['RF18539007547034']);
  });

  it.each([
    ['another currency', (j: any) => (j.invoiceCurrencyCode = 'USD')],
    ['a direct debit', (j: any) => (j.paymentInstructions.paymentMeansTypeCode = '59')],
    [
      'an IBAN with a wrong check sum',
      (j: any) => (j.paymentInstructions.creditTransfer[0].paymentAccountIdentifier = 'DE10370502990123456788'),
    ],
    ['nothing left to pay', (j: any) => (j.documentTotals.amountDueForPayment = '0.00')],
  ])('offers no code for %s', (_, patch) => {
    expect(epcPaymentOf(invoice(patch))).toBeUndefined();
  });

  it('checks IBANs and creditor references with mod 97', () => {
    expect(isIban('GB82WEST12345698765432')).toBe(true);
    expect(isIban('GB82WEST12345698765433')).toBe(false);
    expect(isCreditorReference('RF18 5390 0754 7034')).toBe(true);
    expect(isCreditorReference('RF19 5390 0754 7034')).toBe(false);
  });
});

describe('formatting per locale', () => {
  it('writes German and English amounts, rates, quantities and dates exactly', () => {
    const de = createFormatter('de-DE', 'EUR', 'medium');
    // Intl puts no-break spaces before the currency sign and the percent sign.
    const plain = (values: string[]) => values.map((v) => v.replace(/[\u00a0\u202f]/g, ' '));
    expect(
      plain([
        de.money('1234567.005'),
        de.money('-5'),
        de.percent('19.00'),
        de.quantity('2.5000'),
        de.price('0.1235'),
        de.date('2024-12-31'),
      ]),
    ).toEqual(['1.234.567,01 €', '-5,00 €', '19 %', '2,5', '0,1235 €', '31.12.2024']);
    const en = createFormatter('en-GB', 'EUR', 'long');
    expect(plain([en.money('1234.5'), en.percent('7'), en.date('2024-12-31')])).toEqual(['€1,234.50', '7%', '31 December 2024']);
    // Beyond double precision: still exact.
    expect(plain([de.money('12345678901234567.89')])).toEqual(['12.345.678.901.234.567,89 €']);
  });

  it('groups IBANs by four', () => {
    expect(formatIban('de10370502990123456789')).toBe('DE10 3705 0299 0123 4567 89');
  });
});
