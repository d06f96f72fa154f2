import { describe, expect, it } from 'vitest';
import { fieldConfidence, fitCalibration } from '../../src/analysis/confidence.js';

/** `n` judged readings of one field and evidence from one source, `right` of them right. */
function judged(source: string, right: number, n: number) {
  return Array.from({ length: n }, (_, i) => ({
    path: 'invoiceLine[0].invoicedQuantityUnitOfMeasureCode',
    evidence: 'unit:piece',
    right: i < right,
    source,
  }));
}

describe('the calibration', () => {
  it('is the share of right readings where every field comes from one source', () => {
    const table = fitCalibration(judged('a', 45, 50));
    expect(table['*|unit:piece']).toEqual([45, 50]);
  });

  it('weighs sources alike: a reading one source always gets wrong is uncertain, however large the others', () => {
    const table = fitCalibration([...judged('large', 120, 120), ...judged('small', 0, 12)]);
    const pooled = 120 / 132;
    const confidence = fieldConfidence('invoiceLine[3].invoicedQuantityUnitOfMeasureCode', 'unit:piece', table);
    expect(pooled).toBeGreaterThan(0.9);
    expect(confidence).toBeLessThan(0.75);
    expect(confidence).toBeGreaterThan(0.5);
  });

  it('weighs a small source that disagrees as what a new issuer may do: under 0.9, yet not its own share of nothing', () => {
    const table = fitCalibration([...judged('large', 99, 100), ...judged('once', 0, 1), ...judged('other', 30, 30)]);
    const confidence = fieldConfidence('invoiceLine[0].invoicedQuantityUnitOfMeasureCode', 'unit:piece', table);
    expect(confidence).toBeLessThan(0.9);
    expect(confidence).toBeGreaterThan(0.75);
  });

  it('gives a way of reading never measured the share of its field read any way, not that of every field', () => {
    const name = 'invoiceLine[0].itemInformation.itemName';
    const table = fitCalibration([
      ...Array.from({ length: 200 }, () => ({ path: 'invoiceNumber', evidence: 'ocr:label:right', right: true, source: 'a' })),
      ...Array.from({ length: 20 }, (_, i) => ({ path: name, evidence: 'ocr:name:joined', right: i < 12, source: 'a' })),
      ...Array.from({ length: 20 }, () => ({ path: name, evidence: 'name:joined', right: true, source: 'a' })),
    ]);
    expect(table['*|ocr:*']![0] / table['*|ocr:*']![1]).toBeGreaterThan(0.95);
    // Of the OCR readings of names only: the text layer's, all right, say nothing of the letters a scan garbles.
    expect(fieldConfidence(name, 'ocr:name:cell', table)).toBeLessThan(0.7);
    expect(fieldConfidence('invoiceNumber', 'ocr:label:novel', table)).toBeGreaterThan(0.95);
  });

  it('holds a guess the page cannot settle at even odds, however often the sources measured happened to settle it one way', () => {
    const path = 'invoiceLine[0].itemInformation.itemName';
    const table = fitCalibration(
      ['name:open', 'name:colon', 'name:spaced', 'name:alone'].flatMap((evidence) =>
        Array.from({ length: 30 }, () => ({ path, evidence, right: true, source: 'a' })),
      ),
    );
    expect(fieldConfidence(path, 'name:open', table)).toBe(0.5);
    expect(fieldConfidence(path, 'name:colon', table)).toBe(0.5);
    expect(fieldConfidence(path, 'name:spaced', table)).toBe(0.5);
    expect(fieldConfidence(path, 'name:alone', table)).toBeGreaterThan(0.9);
    expect(fieldConfidence('invoiceTypeCode', 'title:380:kind-unsure', fitCalibration([]))).toBe(0.5);
    // Each right 30 times of 30 on the pages measured, and still a guess: no title names the type
    // (380 is a default), two labelled delivery dates differ, a 0 % row nothing explains is zero rated.
    for (const [field, evidence] of [
      ['invoiceTypeCode', 'default'],
      ['deliveryInformation.actualDeliveryDate', 'label:right:contested'],
      ['vatBreakdown[0].vatCategoryCode', 'inferred:zero-rate-row'],
    ] as const) {
      const measured = fitCalibration(Array.from({ length: 30 }, () => ({ path: field, evidence, right: true, source: 'a' })));
      expect(fieldConfidence(field, evidence, measured), evidence).toBe(0.5);
    }
  });

  it('holds a total the printed sums contradict at even odds, with OCR or without, where no such total was ever measured', () => {
    const table = fitCalibration(
      Array.from({ length: 40 }, () => ({
        path: 'documentTotals.amountDueForPayment',
        evidence: 'totals:label',
        right: true,
        source: 'a',
      })),
    );
    const net = 'documentTotals.invoiceTotalAmountWithoutVat';
    expect(fieldConfidence(net, 'totals:gross-under-net', table)).toBe(0.5);
    expect(fieldConfidence(net, 'ocr:totals:gross-under-net', table)).toBe(0.5);
    expect(fieldConfidence(net, 'totals:conflict', table)).toBe(0.5);
    expect(fieldConfidence(net, 'totals:label', table)).toBeGreaterThan(0.9);
  });

  it("never reports a name the ranker chose at under 0.7 as surer than that, however often other sources' such names were right", () => {
    const path = 'seller.sellerName';
    const table = fitCalibration(
      ['rank:0', 'ocr:rank:0', 'rank:0.9'].flatMap((evidence) =>
        Array.from({ length: 30 }, () => ({ path, evidence, right: true, source: 'a' })),
      ),
    );
    expect(fieldConfidence(path, 'rank:0', table)).toBe(0.7);
    expect(fieldConfidence(path, 'ocr:rank:0', table)).toBe(0.7);
    expect(fieldConfidence(path, 'rank:0.9', table)).toBeGreaterThan(0.9);
  });
});
