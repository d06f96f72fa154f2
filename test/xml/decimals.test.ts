import { describe, expect, it } from 'vitest';
import { Decimal } from '../../src/invoice/decimal.js';
import { parseInvoiceXml, writeInvoiceXml, type SyntaxId } from '../../src/xml/index.js';
import { invoiceFixture } from './fixtures.js';

const SYNTAXES: SyntaxId[] = ['CII', 'UBL'];

describe.each(SYNTAXES)('amounts stay exact decimals in %s', (syntax) => {
  it('0.10 + 0.20 is 0.30, written and read as the same text', () => {
    const invoice = invoiceFixture('29-exact-decimals');
    const lines = invoice.invoiceLine!;
    expect([lines[0]!.invoiceLineNetAmount, lines[1]!.invoiceLineNetAmount]).toEqual(['0.10', '0.20']);
    // In binary floating point 0.1 + 0.2 is 0.30000000000000004.
    expect(0.1 + 0.2).not.toBe(0.3);
    expect(new Decimal('0.10').plus('0.20').toFixed(2)).toBe('0.30');
    const xml = writeInvoiceXml(invoice, { syntax });
    expect(xml).not.toMatch(/0\.30000|0\.2999/);
    const back = parseInvoiceXml(xml).invoice;
    expect(back.invoiceLine!.map((l) => l.invoiceLineNetAmount)).toEqual(['0.10', '0.20', '4.00', '0.10']);
    expect(back.invoiceLine![3]!.priceDetails?.itemNetPrice).toBe('0.0333');
    expect(back.invoiceLine![2]!.invoicedQuantity).toBe('1.250');
    expect(back.documentTotals).toEqual(invoice.documentTotals);
  });

  it('keeps amounts beyond double precision digit for digit', () => {
    const invoice = invoiceFixture('30-large-amounts');
    expect(invoice.documentTotals?.invoiceTotalAmountWithVat).toBe('14691357892469.14');
    // Beyond 2^53 cents a double cannot tell neighbouring amounts apart.
    expect(Number('92233720368547758.07')).toBe(Number('92233720368547758.08'));
    const xml = writeInvoiceXml(invoice, { syntax });
    for (const amount of ['12345678901234.56', '12345678901234.57', '2345678991234.57', '14691357892469.14'])
      expect(xml).toContain(`>${amount}<`);
    expect(parseInvoiceXml(xml).invoice.documentTotals).toEqual(invoice.documentTotals);
  });

  it('writes decimals as given: trailing zeros kept, no exponent', () => {
    const invoice = invoiceFixture('01-standard-19');
    const withExponent = { ...invoice, documentTotals: { ...invoice.documentTotals, paidAmount: '0.00' } };
    const xml = writeInvoiceXml(withExponent, { syntax });
    expect(xml).toMatch(/>19\.00</);
    expect(xml).toMatch(/>0\.00</);
    expect(xml).not.toMatch(/\d[eE][+-]?\d/);
  });
});

describe('input forms', () => {
  it('JSON numbers, lower-case codes and German dates arrive canonical in the XML', () => {
    const invoice = invoiceFixture('35-input-forms');
    expect(invoice.invoiceIssueDate).toBe('2025-10-27');
    expect(invoice.invoiceCurrencyCode).toBe('EUR');
    expect(invoice.invoiceLine![0]!.priceDetails?.itemNetPrice).toBe('12.4');
    const cii = writeInvoiceXml(invoice, { syntax: 'CII' });
    expect(cii).toContain('<udt:DateTimeString format="102">20251027</udt:DateTimeString>');
    expect(writeInvoiceXml(invoice, { syntax: 'UBL' })).toContain('<cbc:IssueDate>2025-10-27</cbc:IssueDate>');
  });
});
