import { describe, expect, it } from 'vitest';
import { correctionsOf } from '../../src/conversion/corrections.js';
import type { Invoice } from '../../src/invoice/model.js';

const read = {
  invoiceNumber: 'RE-7',
  seller: { sellerName: 'Acme GmbH', sellerIdentifier: ['L-1'] },
  buyer: { buyerName: 'Name:' },
  documentTotals: { invoiceTotalAmountWithVat: '119.00' },
  invoiceLine: [{ invoiceLineNetAmount: '100.00', itemInformation: { itemName: 'Schrauben' } }],
} as unknown as Invoice;

describe('correctionsOf', () => {
  it('names each value a person changed, added or removed, and not one sent back in another number format', () => {
    const confirmed = {
      invoiceNumber: 'RE-7',
      seller: { sellerName: 'Acme GmbH', sellerIdentifier: ['L-1'], sellerVatIdentifier: 'DE123456789' },
      buyer: { buyerName: 'Beta AG' },
      documentTotals: { invoiceTotalAmountWithVat: '119' },
      invoiceLine: [{ invoiceLineNetAmount: '100.0' }],
    } as unknown as Invoice;
    expect(correctionsOf(read, confirmed)).toEqual([
      { path: 'seller.sellerVatIdentifier', confirmed: 'DE123456789' },
      { path: 'buyer.buyerName', read: 'Name:', confirmed: 'Beta AG' },
      { path: 'invoiceLine[0].itemInformation.itemName', read: 'Schrauben' },
    ]);
  });

  it('is empty when everything was confirmed as read', () => {
    expect(correctionsOf(read, structuredClone(read))).toEqual([]);
  });
});
