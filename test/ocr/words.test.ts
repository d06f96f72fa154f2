import { describe, expect, it } from 'vitest';
import type { Word } from '../../src/analysis/page-text.js';
import { isReadable } from '../../src/ocr/readable.js';
import { wordsFromTsv } from '../../src/ocr/tsv.js';

const TSV = [
  'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext',
  '1\t1\t0\t0\t0\t0\t0\t0\t2480\t3508\t-1\t',
  '4\t1\t1\t1\t1\t0\t100\t200\t900\t40\t-1\t',
  '5\t1\t1\t1\t1\t1\t100\t200\t300\t40\t96.5\tRechnung',
  '5\t1\t1\t1\t1\t2\t420\t202\t200\t38\t91\tRE-2025-0312',
  '5\t1\t1\t1\t1\t3\t640\t200\t10\t40\t12\t ',
  '5\t1\t1\t1\t1\t4\t700\t200\t80\t40\t-1\tghost',
].join('\n');

describe('tesseract TSV', () => {
  it('keeps words with their boxes and a 0..1 confidence, drops empty and non-word rows', () => {
    expect(wordsFromTsv(TSV)).toEqual([
      { text: 'Rechnung', x: 100, y: 200, width: 300, height: 40, confidence: 0.965 },
      { text: 'RE-2025-0312', x: 420, y: 202, width: 200, height: 38, confidence: 0.91 },
    ]);
  });
});

const word = (text: string, confidence?: number): Word => ({ text, x: 0, y: 0, width: 10, height: 10, ...(confidence !== undefined ? { confidence } : {}) });

describe('readable text', () => {
  it('accepts a page with a few real words', () => {
    expect(isReadable(['Rechnung', 'Nr.', 'RE-1', 'vom', '12.03.2025'].map((t) => word(t)))).toBe(true);
  });

  it('treats a stray stamp or a scanner footer as no text (the page is OCR-ed)', () => {
    expect(isReadable([word('Eingegangen'), word('12.03.')])).toBe(false);
  });

  it('treats glyphs without a Unicode mapping as no text', () => {
    expect(isReadable(['\u0001\u0002\u0003', '\ue001\ue002\ue003', '\u0004\u0005', 'ab'].map((t) => word(t)))).toBe(false);
  });

  it('does not count OCR crumbs from noise as text', () => {
    expect(isReadable([word('—', 0.3), word('Il', 0.2), word('ee', 0.35), word(':;', 0.4)])).toBe(false);
  });
});
