import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invoiceInputSchema } from '../../src/invoice/input.js';
import { missingMandatoryFields } from '../../src/invoice/mandatory.js';
import { invoiceSchema } from '../../src/invoice/model.js';
import { toV1Invoice, toV2Invoice } from '../../src/invoice/output.js';

const dir = path.resolve(import.meta.dirname, '../fixtures/invoices');
const fixtures = readdirSync(dir).filter((f) => f.endsWith('.json'));
const load = (name: string) => invoiceSchema.parse(JSON.parse(readFileSync(path.join(dir, name), 'utf8')));

describe('mandatory business terms', () => {
  it('finds nothing missing in any fixture invoice', () => {
    for (const name of fixtures) expect(missingMandatoryFields(load(name)), name).toEqual([]);
  });

  it('names each missing term with its path, per VAT breakdown row and line', () => {
    const invoice = load('02-mixed-19-7.json');
    delete invoice.invoiceTypeCode;
    delete invoice.documentTotals!.amountDueForPayment;
    delete invoice.vatBreakdown![1]!.vatCategoryCode;
    delete invoice.invoiceLine![1]!.priceDetails;
    expect(missingMandatoryFields(invoice)).toEqual([
      { path: 'invoiceTypeCode', bt: 'BT-3', name: 'Invoice type code', rule: 'BR-04' },
      { path: 'documentTotals.amountDueForPayment', bt: 'BT-115', name: 'Amount due for payment', rule: 'BR-15' },
      { path: 'vatBreakdown[1].vatCategoryCode', bt: 'BT-118', name: 'VAT category code', rule: 'BR-47' },
      { path: 'invoiceLine[1].priceDetails.itemNetPrice', bt: 'BT-146', name: 'Item net price', rule: 'BR-26' },
    ]);
    expect(missingMandatoryFields({}).map((m) => m.bt)).toEqual([
      'BT-1',
      'BT-2',
      'BT-3',
      'BT-5',
      'BT-27',
      'BT-40',
      'BT-44',
      'BT-55',
      'BT-106',
      'BT-109',
      'BT-112',
      'BT-115',
      'BG-23',
      'BG-25',
    ]);
  });
});

describe('invoice input', () => {
  it('takes the V1 and V2 analysis answers (null, DD.MM.YYYY, JSON numbers) back as the same invoice', () => {
    for (const name of fixtures) {
      const invoice = load(name);
      // Through JSON as a client would send it; numbers arrive as text (the body parser keeps their source).
      const asSent = (value: unknown) => JSON.parse(JSON.stringify(value), (_k, v: unknown) => (typeof v === 'number' ? String(v) : v));
      expect(invoiceInputSchema.parse(asSent(toV1Invoice(invoice))), name).toEqual(invoiceInputSchema.parse(asSent(toV2Invoice(invoice))));
      expect(missingMandatoryFields(invoiceInputSchema.parse(asSent(toV1Invoice(invoice)))), name).toEqual([]);
    }
    expect(invoiceSchema.safeParse(toV1Invoice(load(fixtures[0]!))).success).toBe(false);
  });

  it('still refuses what is wrong, and a missing invoice', () => {
    expect(invoiceInputSchema.safeParse({ invoiceIssueDate: 'yesterday' }).success).toBe(false);
    expect(invoiceInputSchema.safeParse(undefined).success).toBe(false);
    expect(invoiceInputSchema.parse({ payee: { payeeName: null }, invoiceNote: [] })).toEqual({});
  });
});
