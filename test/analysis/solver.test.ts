import { describe, expect, it } from 'vitest';
import type { Found } from '../../src/analysis/document.js';
import type { TotalField } from '../../src/analysis/lexicon.js';
import { fieldConfidence } from '../../src/analysis/confidence.js';
import { solveTotals, unvouchedRows, UNVOUCHED } from '../../src/analysis/solver.js';
import type { VatRow } from '../../src/analysis/totals.js';

const found = (value: string, score = 0.9): Found => ({ value, score, page: 1, y: 0, via: 'test' });
const fields = (entries: Array<[TotalField, string[]]>) => new Map(entries.map(([k, vs]) => [k, vs.map((v) => found(v))]));
const row = (rate: string, base: string, tax: string): VatRow => ({ rate, base, tax, page: 1, y: 0, labelled: true });

describe('solveTotals', () => {
  it('chooses the candidates that add up over those that merely have labels', () => {
    // "Gesamt" labels two amounts; only one of them is net + VAT.
    const solved = solveTotals(
      fields([
        ['netTotal', ['100.00']],
        ['vatTotal', ['19.00']],
        ['grossTotal', ['150.00', '119.00']],
      ]),
      [],
      undefined,
    );
    expect(solved.totals).toMatchObject({ netTotal: '100.00', vatTotal: '19.00', grossTotal: '119.00', due: '119.00' });
    expect(solved.support.grossTotal).toBe('label');
    expect(solved.consistency).toBe(1);
  });

  it('adds up one VAT line per rate where no line totals them, rather than derive a gross the page does not print', () => {
    // "VAT  19.25 EUR" and "VAT  37.62 EUR" (7 % and 19 %), then "Total with VAT  529.87 EUR".
    const solved = solveTotals(
      fields([
        ['netTotal', ['473.00']],
        ['vatTotal', ['19.25', '37.62']],
        ['grossTotal', ['529.87']],
      ]),
      [],
      '473.00',
    );
    expect(solved.totals).toMatchObject({ netTotal: '473.00', vatTotal: '56.87', grossTotal: '529.87' });
    expect(solved.support.grossTotal).toBe('label');
  });

  it('derives no negative VAT where the gross is below the net of a positive invoice, and marks both in doubt', () => {
    // The lines' total (1,000.00) taken for the net; the page's net after a discount is what the gross shows.
    const solved = solveTotals(
      fields([
        ['netTotal', ['1000.00']],
        ['grossTotal', ['990.00']],
      ]),
      [],
      undefined,
    );
    expect(solved.totals.vatTotal).toBeUndefined();
    expect(solved.support.netTotal).toBe('gross-under-net');
    expect(solved.support.grossTotal).toBe('gross-under-net');
  });

  it('derives what the page leaves out, and marks it so', () => {
    const solved = solveTotals(
      fields([
        ['netTotal', ['200.00']],
        ['grossTotal', ['238.00']],
      ]),
      [],
      undefined,
    );
    expect(solved.totals.vatTotal).toBe('38.00');
    expect(solved.support.vatTotal).toBe('derived');
  });

  it('takes the VAT total and net from the breakdown rows when they agree', () => {
    const solved = solveTotals(fields([['grossTotal', ['172.50']]]), [row('19', '100.00', '19.00'), row('7', '50.00', '3.50')], '150.00');
    expect(solved.totals).toMatchObject({ netTotal: '150.00', vatTotal: '22.50', grossTotal: '172.50', lineTotal: '150.00' });
    expect(solved.support.grossTotal).toBe('label');
  });

  it('reads a payment shown only as the difference between total and balance', () => {
    const solved = solveTotals(
      fields([
        ['netTotal', ['100.00']],
        ['vatTotal', ['20.00']],
        ['grossTotal', ['120.00']],
        ['due', ['70.00']],
      ]),
      [],
      undefined,
    );
    expect(solved.totals).toMatchObject({ paid: '50.00', due: '70.00' });
    expect(solved.support.paid).toBe('derived');
  });

  it('checks line sums, allowances and charges against the net total', () => {
    const solved = solveTotals(
      fields([
        ['allowances', ['10.00']],
        ['charges', ['5.00']],
        ['netTotal', ['95.00']],
        ['vatTotal', ['18.05']],
        ['grossTotal', ['113.05']],
      ]),
      [],
      '100.00',
    );
    expect(solved.totals).toMatchObject({ lineTotal: '100.00', allowances: '10.00', charges: '5.00' });
    expect(solved.support.lineTotal).toBe('label');
  });
});

describe('unvouchedRows', () => {
  // A scan read a 0 % row's base "2192,90" as "90,00": the bases no longer add up to the net total.
  const rows = [row('19', '15.24', '2.90'), row('7', '562.50', '39.38'), row('0', '18792.07', '0.00'), row('0', '90.00', '0.00')];

  it('doubts the rows whose own tax does not vouch for their base when the bases miss the net total', () => {
    expect([...unvouchedRows(rows, '21472.71')]).toEqual([2, 3]);
  });

  it('doubts none when the bases add up', () => {
    expect(unvouchedRows(rows, '19459.81').size).toBe(0);
  });

  it('doubts a taxed row whose tax is not its rate of its base', () => {
    expect([...unvouchedRows([row('19', '100.00', '19.00'), row('7', '80.00', '3.50')], '150.00')]).toEqual([1]);
  });
});

describe('the confidence of an unvouched breakdown row', () => {
  it('is at even odds at most, however often such rows were right', () => {
    const table = { '*|ocr:*': [95, 100], '*|ocr:vatrow:inconsistent:unvouched': [20, 20] } as const;
    expect(fieldConfidence('vatBreakdown[3].vatCategoryTaxableAmount', `ocr:vatrow:inconsistent${UNVOUCHED}`, table)).toBeLessThanOrEqual(
      0.5,
    );
  });
});
