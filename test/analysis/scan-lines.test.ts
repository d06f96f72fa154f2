import { describe, expect, it } from 'vitest';
import { layoutPages } from '../../src/analysis/layout.js';
import type { Word } from '../../src/reading/page-text.js';
import { ocrLine as line, ocrPage as scan } from './fixtures.js';

const word = (text: string, x: number, y: number, width: number, height: number): Word => ({ text, x, y, width, height, confidence: 0.93 });

describe('a line on a scan', () => {
  it('stays one line where two word boxes overlap by a sliver and one of them the scan swelled ("CVC" and the "-" after it)', () => {
    const [page] = layoutPages(
      scan([
        word('Maintenance', 238, 1388, 212, 39),
        word('preventive', 463, 1387, 170, 40),
        word('CVC', 646.3, 1386, 76, 42),
        word('-', 722.2, 1356, 18, 98),
        word('aout', 758, 1376, 72, 54),
        word('2026', 842, 1387, 81, 40),
        word('1.00', 1702, 1387, 69, 39),
        word('2400.00', 2079, 1386, 133, 42),
      ]),
    );
    expect(page!.lines.map((l) => l.segments.map((s) => s.text))).toEqual([['Maintenance preventive CVC - aout 2026', '1.00', '2400.00']]);
  });

  it('keeps apart two lines set close whose words stand over each other', () => {
    const [page] = layoutPages(scan([...line(1400, 240, 'Kunstrasen grün'), ...line(1410, 240, '3m breit')]));
    expect(page!.lines.map((l) => l.segments.map((s) => s.text))).toEqual([['Kunstrasen grün'], ['3m breit']]);
  });
});
