import { readFileSync } from 'node:fs';
import { format, resolveConfig } from 'prettier';
import { describe, expect, it } from 'vitest';
import { calibrationModule, countsIn } from '../../scripts/lib/calibration-module.js';

const MODULE = new URL('../../src/analysis/calibration.ts', import.meta.url);

/** Formatted as the benchmark writes it (writeGenerated), so the parse meets the committed form. */
const written = async (current: string, fitted: Record<string, [number, number]>) =>
  format(calibrationModule(current, fitted).source, { ...(await resolveConfig(MODULE)), filepath: MODULE.pathname });

describe('the calibration module', () => {
  it('keeps the text counts a text run wrote when an OCR run follows, and the reverse', async () => {
    const text = await written('', { '*|*': [9.5, 10], 'seller.sellerName|party:label': [4, 4] });
    const both = await written(text, { '*|ocr:*': [7, 10], 'seller.sellerName|ocr:party:label': [3, 4] });
    const again = await written(both, { '*|*': [19, 20], 'buyer.buyerName|party:label': [2, 2] });
    expect(countsIn(both)).toEqual({
      '*|*': [9.5, 10],
      '*|ocr:*': [7, 10],
      'seller.sellerName|ocr:party:label': [3, 4],
      'seller.sellerName|party:label': [4, 4],
    });
    expect(countsIn(again)).toEqual({
      '*|*': [19, 20],
      '*|ocr:*': [7, 10],
      'buyer.buyerName|party:label': [2, 2],
      'seller.sellerName|ocr:party:label': [3, 4],
    });
  });

  it('reads every count of the committed module', () => {
    const counts = countsIn(readFileSync(MODULE, 'utf8'));
    expect(Object.keys(counts).length).toBeGreaterThan(100);
    expect(counts['*|*']![1]).toBeGreaterThan(0);
    expect(counts['*|ocr:*']![1]).toBeGreaterThan(0);
  });

  it('refuses a module with a count edited out of the generated form rather than drop it', () => {
    const edited = "export const CALIBRATION = {\n  '*|*': [9, 10],\n  '*|label': [ 3, 4 ],\n};\n";
    expect(() => countsIn(edited)).toThrow(/2 counts, 1 of them as generated/);
  });
});
