import { describe, expect, it } from 'vitest';
import { analyseInvoice, type PageText, type Word } from '../../src/analysis/index.js';
import { readingDoubts } from '../../src/analysis/doubts.js';
import type { GrayBitmap } from '../../src/ocr/bitmap.js';
import { rereadDoubts, replaceBand, rows, SECOND_READINGS } from '../../src/ocr/second-pass.js';
import type { Segmentation } from '../../src/ocr/tesseract-pool.js';
import { ocrLine as line, ocrPage as scan } from '../analysis/fixtures.js';

/** A scanned invoice page whose totals block (y 1700–1780) reads `gross` and `vat` as its gross and VAT totals. */
function invoicePage(gross: string, number = 'Rechnungsnummer: 2024-118', vat = '89,87'): PageText[] {
  return scan([
    ...line(300, 200, number),
    ...line(340, 200, 'Rechnungsdatum: 05.03.2024'),
    ...line(1700, 1200, 'Nettobetrag'),
    ...line(1700, 2100, '473,00'),
    ...line(1740, 1200, 'Umsatzsteuer 19 %'),
    ...line(1740, 2100, vat),
    ...line(1780, 1200, 'Gesamtbetrag'),
    ...line(1780, 2100, gross),
  ]);
}

const PAGE: GrayBitmap = { width: 2480, height: 3508, data: new Uint8Array(2480 * 3508) };

/** A stand-in recogniser for the band: what each segmentation reads there, in band coordinates. */
function recogniser(readings: Partial<Record<Segmentation, (top: number) => Word[]>>) {
  const calls: Array<{ segmentation: Segmentation; height: number }> = [];
  let top = 0;
  return {
    calls,
    setTop: (t: number) => (top = t),
    recognise: async (band: GrayBitmap, segmentation: Segmentation) => {
      calls.push({ segmentation, height: band.height });
      return readings[segmentation]?.(top) ?? [];
    },
  };
}

/** The totals block as a second reading sees it, moved into the coordinates of a band starting at `top`. */
const totalsBlock = (gross: string) => (top: number) =>
  invoicePage(gross)[0]!.words.filter((w) => w.y >= 1700).map((w) => ({ ...w, y: w.y - top }));

describe('doubts about a scanned reading', () => {
  it('finds none when net + VAT = gross and the invoice number was read', () => {
    expect(readingDoubts(invoicePage('562,87'))).toEqual([]);
  });

  it('places a doubt over the totals when their sum fails, covering every total line', () => {
    const [doubt, ...rest] = readingDoubts(invoicePage('582,87'));
    expect(rest).toEqual([]);
    expect(doubt).toMatchObject({ reason: 'totals', band: { page: 1 } });
    expect(doubt!.severity).toBeGreaterThan(0);
    expect(doubt!.band!.top).toBeLessThan(1700);
    expect(doubt!.band!.bottom).toBeGreaterThan(1780 + 30);
    expect(doubt!.band!.bottom - doubt!.band!.top).toBeLessThan(600);
  });

  it('doubts the upper part of the first page when no invoice number was read', () => {
    const doubts = readingDoubts(invoicePage('562,87', 'Rechnungsnumrner 2024-118'));
    expect(doubts.map((d) => [d.reason, d.band?.top])).toEqual([['invoice-number', 0]]);
  });

  it('keeps doubting totals that are not read at all, with no band to read again', () => {
    const page = scan([...line(300, 200, 'Rechnungsnummer: 2024-118'), ...line(340, 200, 'Rechnungsdatum: 05.03.2024')]);
    expect(readingDoubts(page)).toEqual([{ reason: 'totals', severity: 3 }]);
  });

  it('never doubts a text layer', () => {
    expect(readingDoubts(invoicePage('582,87').map((p) => ({ ...p, source: 'text-layer' as const })))).toEqual([]);
  });
});

describe('the second reading of a band in doubt', () => {
  it('replaces the band when the totals then add up, and the analysis reads the right gross', async () => {
    // Two totals misread: no sum can stand in for the lost digits.
    const first = invoicePage('582,87', undefined, '89,81');
    expect(analyseInvoice(first, { withLineItems: false }).invoice.documentTotals?.invoiceTotalAmountWithVat).not.toBe('562.87');
    const ocr = recogniser({ [SECOND_READINGS[0]!]: totalsBlock('562,87') });
    const [doubt] = readingDoubts(first);
    ocr.setTop(Math.floor(doubt!.band!.top));
    const pages = await rereadDoubts(first, { render: async () => PAGE, recognise: ocr.recognise });
    expect(ocr.calls).toEqual([{ segmentation: SECOND_READINGS[0], height: Math.ceil(doubt!.band!.bottom) - Math.floor(doubt!.band!.top) }]);
    expect(analyseInvoice(pages, { withLineItems: false }).invoice.documentTotals?.invoiceTotalAmountWithVat).toBe('562.87');
    // The words outside the band are the first reading's.
    expect(pages[0]!.words.filter((w) => w.y < 1000)).toEqual(first[0]!.words.filter((w) => w.y < 1000));
  });

  it('tries the next segmentation when the first still does not add up', async () => {
    const first = invoicePage('582,87');
    const [doubt] = readingDoubts(first);
    const ocr = recogniser({ [SECOND_READINGS[0]!]: totalsBlock('582,87'), [SECOND_READINGS[1]!]: totalsBlock('562,87') });
    ocr.setTop(Math.floor(doubt!.band!.top));
    const pages = await rereadDoubts(first, { render: async () => PAGE, recognise: ocr.recognise });
    expect(ocr.calls.map((c) => c.segmentation)).toEqual([...SECOND_READINGS]);
    expect(analyseInvoice(pages, { withLineItems: false }).invoice.documentTotals?.invoiceTotalAmountWithVat).toBe('562.87');
  });

  it('does not take a reading that mends the totals but reads less of the line-item table in the band', async () => {
    /** Two table rows, the second inside the band around the totals; `last` is how that row reads. */
    const tablePage = (gross: string, last: Array<[number, string]>) =>
      scan([
        ...line(300, 200, 'Rechnungsnummer: 2024-118'),
        ...line(340, 200, 'Rechnungsdatum: 05.03.2024'),
        ...[[200, 'Pos'], [400, 'Beschreibung'], [1200, 'Menge'], [1600, 'Preis'], [2100, 'Betrag']].flatMap(([x, t]) => line(1500, x as number, t as string)),
        ...[[200, '1'], [400, 'Trennblätter A4'], [1200, '20'], [1600, '9,90'], [2100, '198,00']].flatMap(([x, t]) => line(1580, x as number, t as string)),
        ...last.flatMap(([x, t]) => line(1650, x, t)),
        ...line(1700, 1200, 'Nettobetrag'),
        ...line(1700, 2100, '473,00'),
        ...line(1740, 1200, 'Umsatzsteuer 19 %'),
        ...line(1740, 2100, '89,87'),
        ...line(1780, 1200, 'Gesamtbetrag'),
        ...line(1780, 2100, gross),
      ]);
    const whole: Array<[number, string]> = [[200, '2'], [400, 'Joghurt Banane'], [1200, '50'], [1600, '5,50'], [2100, '275,00']];
    // The uniform block mends the gross but runs the row's price and amount together.
    const split: Array<[number, string]> = [[200, '2'], [400, 'Joghurt Banane'], [1200, '50'], [1600, '5,50275,00']];
    const first = tablePage('582,87', whole);
    const [doubt] = readingDoubts(first);
    expect(doubt!.band!.top).toBeLessThan(1650);
    const band = (page: PageText[]) => (top: number) => page[0]!.words.filter((w) => w.y >= top).map((w) => ({ ...w, y: w.y - top }));
    const ocr = recogniser({ [SECOND_READINGS[0]!]: band(tablePage('562,87', split)), [SECOND_READINGS[1]!]: band(tablePage('562,87', whole)) });
    ocr.setTop(Math.floor(doubt!.band!.top));
    const pages = await rereadDoubts(first, { render: async () => PAGE, recognise: ocr.recognise });
    expect(ocr.calls.map((c) => c.segmentation)).toEqual([...SECOND_READINGS]);
    const { invoice } = analyseInvoice(pages, { withLineItems: true });
    expect(invoice.documentTotals?.invoiceTotalAmountWithVat).toBe('562.87');
    expect(invoice.invoiceLine?.map((l) => [l.invoicedQuantity, l.priceDetails?.itemNetPrice, l.invoiceLineNetAmount])).toEqual([
      ['20', '9.90', '198.00'],
      ['50', '5.50', '275.00'],
    ]);
  });

  it('keeps the first reading when no second one leaves less in doubt', async () => {
    const first = invoicePage('582,87');
    const [doubt] = readingDoubts(first);
    const ocr = recogniser({ [SECOND_READINGS[0]!]: totalsBlock('582,81'), [SECOND_READINGS[1]!]: () => [] });
    ocr.setTop(Math.floor(doubt!.band!.top));
    expect(await rereadDoubts(first, { render: async () => PAGE, recognise: ocr.recognise })).toBe(first);
  });

  it('reads nothing again when nothing is in doubt', async () => {
    const ocr = recogniser({});
    const first = invoicePage('562,87');
    expect(await rereadDoubts(first, { render: async () => PAGE, recognise: ocr.recognise })).toBe(first);
    expect(ocr.calls).toEqual([]);
  });
});

describe('band helpers', () => {
  it('cuts rows out of a bitmap', () => {
    const b: GrayBitmap = { width: 2, height: 4, data: Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]) };
    expect(rows(b, 1, 3)).toEqual({ width: 2, height: 2, data: Uint8Array.from([3, 4, 5, 6]) });
  });

  it('exchanges only the words well inside the band, keeping the old ones on the cut edges', () => {
    const page = scan([...line(100, 10, 'edge'), ...line(500, 10, 'old'), ...line(960, 10, 'bottom')])[0]!;
    const fresh = [...line(100, 10, 'cut'), ...line(500, 10, 'new'), ...line(960, 10, 'half')];
    expect(replaceBand(page, fresh, 90, 1000).words.map((w) => w.text).sort()).toEqual(['bottom', 'edge', 'new']);
  });
});
