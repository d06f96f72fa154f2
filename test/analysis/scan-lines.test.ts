import { describe, expect, it } from 'vitest';
import { layoutPages } from '../../src/analysis/layout.js';
import type { Word } from '../../src/reading/page-text.js';
import { ocrLine as line, ocrPage as scan } from './fixtures.js';

const word = (text: string, x: number, y: number, width: number, height: number): Word => ({ text, x, y, width, height, confidence: 0.93 });
const linesRead = (words: Word[]): string[][] => layoutPages(scan(words))[0]!.lines.map((l) => l.segments.map((s) => s.text));

describe('a line on a scan', () => {
  it('stays one line where two word boxes overlap by a sliver and one of them the scan swelled ("CVC" and the "-" after it)', () => {
    expect(
      linesRead([
        word('Maintenance', 238, 1388, 212, 39),
        word('preventive', 463, 1387, 170, 40),
        word('CVC', 646.3, 1386, 76, 42),
        word('-', 722.2, 1356, 18, 98),
        word('aout', 758, 1376, 72, 54),
        word('2026', 842, 1387, 81, 40),
        word('1.00', 1702, 1387, 69, 39),
        word('2400.00', 2079, 1386, 133, 42),
      ]),
    ).toEqual([['Maintenance preventive CVC - aout 2026', '1.00', '2400.00']]);
  });

  it('goes on with a word the box of the word before it was swollen over ("Hof" over the "3" after it)', () => {
    expect(
      linesRead([
        word('Pappelallee', 185, 1738.4, 184, 39.8),
        word('15', 387, 1738.5, 31, 40.3),
        word('Hof', 185.3, 1784.6, 89, 41.7),
        word('3', 255.3, 1777.5, 20, 65.3),
        word('DE', 184.6, 1831.9, 51, 40.3),
        word('12345', 253.6, 1832.2, 93, 40.3),
        word('Leipzig', 363, 1832, 120, 40.3),
      ]),
    ).toEqual([['Pappelallee 15'], ['Hof 3'], ['DE 12345 Leipzig']]);
  });

  it('keeps apart two lines set close whose words stand over each other', () => {
    expect(linesRead([...line(1400, 240, 'Kunstrasen grün'), ...line(1410, 240, '3m breit')])).toEqual([['Kunstrasen grün'], ['3m breit']]);
  });
});
