import { describe, expect, it } from 'vitest';
import { labelsOf } from '../../src/conversion/labels.js';
import type { Invoice } from '../../src/invoice/model.js';

const read = {
  invoiceNumber: 'RE-7',
  seller: { sellerName: 'Acme GmbH' },
  buyer: { buyerName: 'Name:' },
  documentTotals: { invoiceTotalAmountWithVat: '119.00' },
  invoiceLine: [{ invoiceLineNetAmount: '100.00', itemInformation: { itemName: 'Schrauben' } }],
} as unknown as Invoice;
const place = { page: 1, x: 0.1, y: 0.2, width: 0.3, height: 0.02 };

describe('labelsOf', () => {
  it('labels every value confirmed with what was read and where, marking what the person changed, added or removed', () => {
    const confirmed = {
      invoiceNumber: 'RE-7',
      seller: { sellerName: 'Acme GmbH', sellerVatIdentifier: 'DE123456789' },
      buyer: { buyerName: 'Beta AG' },
      documentTotals: { invoiceTotalAmountWithVat: '119' },
      invoiceLine: [{ invoiceLineNetAmount: '100.0' }],
    } as unknown as Invoice;
    const fields = { invoiceNumber: { confidence: 0.99, source: 'printed' as const, place } };
    expect(labelsOf(read, confirmed, fields)).toEqual([
      { path: 'invoiceNumber', value: 'RE-7', read: 'RE-7', place, changed: false },
      { path: 'seller.sellerName', value: 'Acme GmbH', read: 'Acme GmbH', changed: false },
      { path: 'seller.sellerVatIdentifier', value: 'DE123456789', changed: true },
      { path: 'buyer.buyerName', value: 'Beta AG', read: 'Name:', changed: true },
      // Another number format of the same amount is no change.
      { path: 'documentTotals.invoiceTotalAmountWithVat', value: '119', read: '119.00', changed: false },
      { path: 'invoiceLine[0].invoiceLineNetAmount', value: '100.0', read: '100.00', changed: false },
      { path: 'invoiceLine[0].itemInformation.itemName', read: 'Schrauben', changed: true },
    ]);
  });
});
