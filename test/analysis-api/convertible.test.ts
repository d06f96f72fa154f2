import { describe, expect, it } from 'vitest';
import { complete, ConversionRefusal, prepareForZugferd } from '../../src/analysis-api/convertible.js';
import type { Invoice } from '../../src/invoice/model.js';
import { fixtureInvoice } from '../ocr/fixtures.js';

/** What the analysis typically returns for a printed invoice: no codes a page does not show. */
function asRead(): Invoice {
  const invoice = fixtureInvoice('01-standard-19.json');
  delete invoice.invoiceTypeCode;
  delete invoice.paymentInstructions!.paymentMeansTypeCode;
  delete invoice.seller!.sellerContact;
  invoice.invoiceLine = invoice.invoiceLine!.map(({ invoiceLineIdentifier: _id, invoicedQuantityUnitOfMeasureCode: _unit, lineVatInformation: _vat, ...line }) => line);
  return invoice;
}

function refusal(invoice: Invoice): ConversionRefusal {
  try {
    prepareForZugferd(invoice);
  } catch (err) {
    if (err instanceof ConversionRefusal) return err;
    throw err;
  }
  throw new Error('not refused');
}

describe('completing a read invoice', () => {
  it('fills what a printed invoice leaves implicit', () => {
    const { invoice, profile } = prepareForZugferd(asRead());
    expect(profile).toBe('EN16931');
    expect(invoice.invoiceTypeCode).toBe('380');
    expect(invoice.paymentInstructions?.paymentMeansTypeCode).toBe('58');
    expect(invoice.invoiceLine!.map((l) => [l.invoiceLineIdentifier, l.invoicedQuantityUnitOfMeasureCode, l.lineVatInformation?.[0]])).toEqual(
      invoice.invoiceLine!.map((_, i) => [String(i + 1), 'C62', { invoicedItemVatCategoryCode: 'S', invoicedItemVatRate: invoice.vatBreakdown![0]!.vatCategoryRate }]),
    );
  });

  it('infers quantity 1 and the price from the amount when only an amount is printed', () => {
    const read = asRead();
    read.invoiceLine = [{ itemInformation: { itemName: 'Pauschale' }, invoiceLineNetAmount: '472.90' }];
    const line = complete(read).invoice.invoiceLine![0]!;
    expect([line.invoicedQuantity, line.priceDetails?.itemNetPrice]).toEqual(['1', '472.90']);
  });

  it('restores a decimal separator OCR lost in a price, and only then', () => {
    const read = asRead();
    read.invoiceLine![1] = { ...read.invoiceLine![1]!, invoicedQuantity: '50', invoiceLineNetAmount: '117.50', priceDetails: { itemNetPrice: '235' } };
    expect(complete(read).invoice.invoiceLine![1]!.priceDetails?.itemNetPrice).toBe('2.35');
    read.invoiceLine![1]!.priceDetails = { itemNetPrice: '3.35' };
    expect(complete(read).invoice.invoiceLine![1]!.priceDetails?.itemNetPrice).toBe('3.35');
  });

  it('chooses XRechnung for a Leitweg-ID buyer reference, and then needs its contact and address fields', () => {
    const read = asRead();
    read.buyerReference = '04011000-12345-67';
    const err = refusal(read);
    expect(err.code).toBe('FIELDS_MISSING');
    expect(err.fields.map((f) => f.bt)).toEqual(['BT-42', 'BT-43']);
    read.seller!.sellerContact = { sellerContactTelephoneNumber: '+49 221 987650', sellerContactEmailAddress: 'buchhaltung@rheinwerk-buero.example' };
    const { invoice, profile } = prepareForZugferd(read);
    expect(profile).toBe('XRECHNUNG');
    expect(invoice.seller?.sellerContact?.sellerContactPoint).toBe(read.seller!.sellerName);
  });
});

describe('refusing', () => {
  it('names every mandatory field that was not found, with its business term', () => {
    const read = asRead();
    delete read.invoiceNumber;
    delete read.buyer!.buyerName;
    delete read.seller!.sellerVatIdentifier;
    delete read.seller!.sellerTaxRegistrationIdentifier;
    delete read.invoiceLine![0]!.itemInformation;
    const err = refusal(read);
    expect(err.code).toBe('FIELDS_MISSING');
    expect(err.fields.map((f) => [f.field, f.bt])).toEqual([
      ['invoice.invoiceNumber', 'BT-1'],
      ['invoice.seller.sellerVatIdentifier', 'BT-31'],
      ['invoice.buyer.buyerName', 'BT-44'],
      ['invoice.invoiceLine[0].itemInformation.itemName', 'BT-153'],
    ]);
  });

  it('refuses totals that differ from what the lines add up to, to the cent', () => {
    const read = asRead();
    read.documentTotals = { ...read.documentTotals, invoiceTotalAmountWithoutVat: '472.99' };
    const err = refusal(read);
    expect(err.code).toBe('TOTALS_MISMATCH');
    expect(err.fields.map((f) => f.bt)).toEqual(['BT-109']);
    expect(err.fields[0]!.message).toBe('BT-109 printed as 472.99, but lines − allowances + charges give 472.90');
  });

  it('refuses a line whose amount is not quantity × price, allowing for a price rounded to the cent', () => {
    const read = asRead();
    read.invoiceLine![0] = { ...read.invoiceLine![0]!, invoicedQuantity: '20', priceDetails: { itemNetPrice: '4.97' } };
    expect(refusal(read).fields).toEqual([expect.objectContaining({ field: 'invoice.invoiceLine[0].invoiceLineNetAmount', bt: 'BT-131' })]);
    const rounded = asRead();
    rounded.invoiceLine = [{ itemInformation: { itemName: 'Drittel' }, invoicedQuantity: '3', priceDetails: { itemNetPrice: '33.33' }, invoiceLineNetAmount: '100.00' }];
    rounded.vatBreakdown = [{ vatCategoryTaxableAmount: '100.00', vatCategoryTaxAmount: '19.00', vatCategoryCode: 'S', vatCategoryRate: '19' }];
    rounded.documentTotals = { invoiceTotalAmountWithoutVat: '100.00', invoiceTotalVatAmount: '19.00', invoiceTotalAmountWithVat: '119.00', amountDueForPayment: '119.00' };
    expect(prepareForZugferd(rounded).invoice.documentTotals?.sumOfInvoiceLineNetAmount).toBe('100.00');
  });
});
