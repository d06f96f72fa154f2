import { describe, expect, it } from 'vitest';
import { analyseWithEvidence } from '../../src/analysis/index.js';
import { ocrLine as line, ocrPage as scan } from './fixtures.js';

/** A scanned invoice whose second line prints its VAT rate as `rate`, under a breakdown of 19 % and 7 %. */
const invoice = (rate: string) =>
  scan([
    ...line(250, 200, 'Kontorbedarf Weser GmbH · Deichstraße 4 · 28195 Bremen'),
    ...line(330, 200, 'Gärtnerei Lindholm KG'),
    ...line(380, 200, 'Moorweg 19'),
    ...line(430, 200, '26122 Oldenburg'),
    ...line(700, 200, 'Rechnung'),
    ...line(780, 200, 'Rechnungsnummer: RE-88120'),
    ...line(1000, 200, 'Pos'),
    ...line(1000, 400, 'Beschreibung'),
    ...line(1000, 1200, 'Menge'),
    ...line(1000, 1500, 'Preis'),
    ...line(1000, 1800, 'USt'),
    ...line(1000, 2100, 'Betrag'),
    ...[200, 400, 1200, 1500, 1800, 2100].flatMap((x, i) => line(1100, x, ['1', 'Papier', '2', '10,00', '19 %', '20,00'][i]!)),
    ...[200, 400, 1200, 1500, 1800, 2100].flatMap((x, i) => line(1160, x, ['2', 'Kaffee', '1', '10,00', rate, '10,00'][i]!)),
    ...line(1300, 1200, 'Summe netto'),
    ...line(1300, 2100, '30,00'),
    ...line(1360, 1200, 'USt 19 % auf 20,00'),
    ...line(1360, 2100, '3,80'),
    ...line(1420, 1200, 'USt 7 % auf 10,00'),
    ...line(1420, 2100, '0,70'),
    ...line(1480, 1200, 'Gesamtbetrag'),
    ...line(1480, 2100, '34,50'),
  ]);

describe("a line's VAT rate", () => {
  it('is borne out by the breakdown that lists it, not by the line arithmetic', () => {
    const { invoice: read, evidence } = analyseWithEvidence(invoice('7 %'), { withLineItems: true });
    expect(read.invoiceLine?.[1]?.lineVatInformation?.[0]?.invoicedItemVatRate).toBe('7');
    expect(evidence['invoiceLine[1].lineVatInformation[0].invoicedItemVatRate']).toBe('ocr:line:rate:listed');
  });

  it('is in doubt where the breakdown lacks it (a misread "3" for "7 %")', () => {
    const { invoice: read, evidence, fieldConfidence } = analyseWithEvidence(invoice('3 %'), { withLineItems: true });
    expect(read.invoiceLine?.[1]?.lineVatInformation?.[0]?.invoicedItemVatRate).toBe('3');
    expect(evidence['invoiceLine[1].lineVatInformation[0].invoicedItemVatRate']).toBe('ocr:line:rate:unlisted');
    expect(evidence['invoiceLine[1].invoiceLineNetAmount']).toBe('ocr:line:arithmetic');
    expect(fieldConfidence['invoiceLine[1].lineVatInformation[0].invoicedItemVatRate']).toBeLessThan(0.9);
  });
});
