import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { germanInvoice, pdfOf, type Text } from './fixtures.js';

const A4 = { width: 595.28, height: 841.89 };

async function analysed(pages: Text[][]) {
  return analyseInvoice(await extractTextLayer(await pdfOf(pages)), { withLineItems: true });
}

describe('where each printed value was read', () => {
  it('gives the page and the box of the words a value was read from, as fractions of the page', async () => {
    const result = await analysed(germanInvoice());
    const texts = germanInvoice().flat();
    const number = texts.find((t) => t.s.includes(result.invoice.invoiceNumber!))!;
    const place = result.fieldPlace.invoiceNumber!;
    expect(place.page).toBe(1);
    // The box starts at or right of the line's left edge (a label may stand before the value) and on its line.
    expect(place.x).toBeGreaterThanOrEqual(number.x / A4.width - 0.001);
    expect(Math.abs(place.y - number.y / A4.height)).toBeLessThan(0.02);
    expect(place.width).toBeGreaterThan(0);
    expect(place.height).toBeGreaterThan(0);
    expect(place.height).toBeLessThan(0.05);
  });

  it('places dates, amounts and names as they are printed, not as they are stated', async () => {
    const result = await analysed(germanInvoice());
    for (const path of ['invoiceIssueDate', 'documentTotals.invoiceTotalAmountWithVat', 'seller.sellerName'])
      expect(result.fieldPlace[path], path).toBeDefined();
  });

  it('gives no place to what is not printed: inferred values and defaults', async () => {
    const result = await analysed(germanInvoice());
    for (const [path, source] of Object.entries(result.fieldSource))
      if (source !== 'printed') expect(result.fieldPlace[path], path).toBeUndefined();
  });

  it('leaves out a value printed several times where no finder says which printing it read', async () => {
    // "1,00" stands in every row; without the row's position there is no telling which one a line's quantity is.
    const rows: Text[] = [
      { s: 'Muster GmbH', x: 57, y: 60, size: 14, bold: true },
      { s: 'Rechnung Nr. 2024-17', x: 57, y: 200 },
      { s: 'Datum: 04.03.2024', x: 57, y: 214 },
      { s: 'Pos', x: 57, y: 300 },
      { s: 'Bezeichnung', x: 90, y: 300 },
      { s: 'Menge', x: 330, y: 300, right: true },
      { s: 'Preis', x: 420, y: 300, right: true },
      { s: 'Betrag', x: 520, y: 300, right: true },
      ...['Schrauben', 'Muttern'].flatMap((name, i): Text[] => [
        { s: String(i + 1), x: 57, y: 314 + i * 14 },
        { s: name, x: 90, y: 314 + i * 14 },
        { s: '1,00', x: 330, y: 314 + i * 14, right: true },
        { s: `${i + 2},00`, x: 420, y: 314 + i * 14, right: true },
        { s: `${i + 2},00`, x: 520, y: 314 + i * 14, right: true },
      ]),
      { s: 'Summe netto', x: 330, y: 360 },
      { s: '5,00', x: 520, y: 360, right: true },
    ];
    const result = await analysed([rows]);
    expect(result.invoice.invoiceLine?.[0]?.invoicedQuantity).toBe('1.00');
    expect(result.fieldPlace['invoiceLine[0].invoicedQuantity']).toBeUndefined();
    expect(result.fieldPlace['invoiceNumber']).toBeDefined();
  });
});
