import { describe, expect, it } from 'vitest';
import { buildDoc } from '../../src/analysis/document.js';
import { analyseInvoice } from '../../src/analysis/index.js';
import { placesOf } from '../../src/analysis/where-read.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { germanInvoice, ocrLine, ocrPage, pdfOf, type Text } from './fixtures.js';

const A4 = { width: 595.28, height: 841.89 };
const round = (v: number) => Math.round(v * 10000) / 10000;

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

  it('of several printings takes the one the finder saw, and without a hint none', () => {
    // "1,00" stands in both rows; only the row's own line says which printing a line's quantity is.
    const doc = buildDoc(ocrPage([...ocrLine(1000, 200, 'Schrauben 1,00 2,00'), ...ocrLine(1100, 200, 'Muttern 1,00 3,00')]));
    const values = new Map([['invoiceLine[1].invoicedQuantity', '1.00']]);
    expect(placesOf(doc, values, {})).toEqual({});
    const place = placesOf(doc, values, { 'invoiceLine[1].invoicedQuantity': { page: 1, y: 1100 } })['invoiceLine[1].invoicedQuantity'];
    expect(place).toEqual({
      page: 1,
      x: round((200 + 7 * 10 + 12) / 2480),
      y: round(1100 / 3508),
      width: round(40 / 2480),
      height: round(30 / 3508),
    });
  });

  it('places the quantities of a table on their own rows', async () => {
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
    const first = result.fieldPlace['invoiceLine[0].invoicedQuantity']!;
    const second = result.fieldPlace['invoiceLine[1].invoicedQuantity']!;
    expect(Math.abs(first.y - 314 / A4.height)).toBeLessThan(0.01);
    expect(Math.abs(second.y - 328 / A4.height)).toBeLessThan(0.01);
  });
});
