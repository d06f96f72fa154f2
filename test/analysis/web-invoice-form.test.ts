import { describe, expect, it } from 'vitest';
import { analyseInvoice, analyseWithEvidence } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

/**
 * The form a web service's invoice library draws (microinvoice and its like): each label over
 * its value, "Bill From" beside "Bill To", amounts as the program's numbers with a currency code
 * ("11718.8 EUR", "2382 EUR"), and one VAT line per rate with no line for their total.
 */

const right = 330;
const party = (x: number, heading: string, lines: string[], y = 150): Text[] => [
  { s: heading, x, y, bold: true },
  ...lines.map((s, i) => ({ s, x, y: y + 12 * (i + 1) })),
];

/** The totals as the form sets them: each label with its value at its right. */
const totals = (entries: Array<[string, string]>): Text[] =>
  entries.flatMap(([label, value], k) => [
    { s: label, x: right, y: 340 + 14 * k, bold: true },
    { s: value, x: 490, y: 340 + 14 * k },
  ]);

const items: Text[] = [
  { s: 'Invoice', x: right, y: 40, size: 14, bold: true },
  { s: 'Invoice Number:', x: right, y: 60, bold: true },
  { s: 'INV-2024-0412', x: right, y: 72 },
  { s: 'Date:', x: right, y: 86, bold: true },
  { s: '12/04/2024', x: right, y: 98 },
  ...party(30, 'Bill To:', ['Kunden AG Mitte', 'Kundenstraße 15', '69876 Frankfurt', 'Germany']),
  ...party(right, 'Bill From:', ['Lieferant GmbH', 'Lieferantenstraße 20', '80333 München', 'Germany']),
  { s: 'Tax Identifier:', x: right, y: 212, bold: true },
  { s: 'DE123456789', x: right, y: 224 },
  { s: 'Description', x: 30, y: 260, bold: true },
  { s: 'Quantity', x: right, y: 260, bold: true },
  { s: 'Subtotal', x: 490, y: 260, bold: true },
  { s: 'Installation', x: 30, y: 280 },
  { s: '1', x: right, y: 280 },
  { s: '818.04 EUR', x: 490, y: 280 },
  { s: 'Heating system', x: 30, y: 300 },
  { s: '1', x: right, y: 300 },
  { s: '11718.8 EUR', x: 490, y: 300 },
];

const form: Text[] = [
  ...items,
  ...totals([
    ['Total without VAT', '12536.84 EUR'],
    ['VAT Rate', '19%'],
    ['VAT', '2382 EUR'],
    ['Total with VAT', '14918.84 EUR'],
  ]),
];

async function analyse(texts: Text[]) {
  return analyseWithEvidence(await extractTextLayer(await pdfOf([texts])), { withLineItems: true });
}

describe('an invoice as a web service library draws it', () => {
  it('reads amounts a currency code marks, whatever their decimals, as the lines and totals', async () => {
    const { invoice } = await analyse(form);
    expect(invoice.invoiceLine?.map((l) => l.invoiceLineNetAmount)).toEqual(['818.04', '11718.80']);
    expect(invoice.documentTotals).toMatchObject({
      sumOfInvoiceLineNetAmount: '12536.84',
      invoiceTotalAmountWithoutVat: '12536.84',
      invoiceTotalVatAmount: '2382.00',
      invoiceTotalAmountWithVat: '14918.84',
    });
  });

  it("reads the seller's VAT id under the label set over it", async () => {
    const { invoice } = await analyse(form);
    expect(invoice.seller?.sellerVatIdentifier).toBe('DE123456789');
    expect(invoice.buyer?.buyerVatIdentifier).toBeUndefined();
  });

  it('holds a total worked out from the others in conflict where the page prints another under its label', async () => {
    // The net and the VAT do not add up to the printed total: the gross they imply is not what the page says.
    const page = form.map((t) => (t.s === '14918.84 EUR' ? { ...t, s: '15918.84 EUR' } : t));
    const { invoice, evidence } = analyseWithEvidence(await extractTextLayer(await pdfOf([page])), { withLineItems: false });
    expect(invoice.documentTotals?.invoiceTotalAmountWithVat).toBe('14918.84');
    expect(evidence['documentTotals.invoiceTotalAmountWithVat']).toBe('totals:conflict');
  });
});

describe('one VAT line per rate', () => {
  it('adds them up to the VAT total the page does not print', async () => {
    const { invoice } = analyseInvoice(
      await extractTextLayer(
        await pdfOf([
          [
            ...items,
            ...totals([
              ['Total without VAT', '12536.84 EUR'],
              ['VAT Rate', '7%'],
              ['VAT', '57.26 EUR'],
              ['VAT Rate', '19%'],
              ['VAT', '2226.52 EUR'],
              ['Total with VAT', '14820.62 EUR'],
            ]),
          ],
        ]),
      ),
      { withLineItems: false },
    );
    expect(invoice.documentTotals).toMatchObject({
      invoiceTotalAmountWithoutVat: '12536.84',
      invoiceTotalVatAmount: '2283.78',
      invoiceTotalAmountWithVat: '14820.62',
    });
  });
});
