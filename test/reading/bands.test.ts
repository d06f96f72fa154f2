import { describe, expect, it } from 'vitest';
import { cutRows, inkPerRow, otsuThreshold, splitIntoBands } from '../../src/reading/bands.js';
import { shiftTsv, wordsFromTsv } from '../../src/reading/tsv.js';

/** Ink per row: text lines of `lineHeight` rows with `ink` dark pixels each, `gap` white rows apart. */
function page(lines: Array<{ at: number; height: number }>, height: number, ink = 400): Uint32Array {
  const rows = new Uint32Array(height);
  for (const { at, height: h } of lines) for (let y = at; y < at + h; y++) rows[y] = ink;
  return rows;
}

describe('cutting a page into bands for idle cores', () => {
  const WIDTH = 2480;

  it('cuts in the widest white gap near the middle of the ink, not through a line', () => {
    // Lines of 40 rows 20 apart, and one wider gap (80 rows) a little below the middle.
    const lines = [
      ...Array.from({ length: 25 }, (_, i) => ({ at: 100 + i * 60, height: 40 })),
      ...Array.from({ length: 25 }, (_, i) => ({ at: 1660 + i * 60, height: 40 })),
    ];
    const ink = page(lines, 3508);
    const [cut] = cutRows(ink, WIDTH, 2);
    expect(cut).toBe(Math.round((1580 + 1659) / 2));
    expect(ink[cut!]).toBe(0);
  });

  it('leaves a page whole where no gap wide enough lies near where a cut belongs', () => {
    // Lines 6 rows apart: narrower than any gap between text lines at 300 dpi.
    const dense = page(
      Array.from({ length: 80 }, (_, i) => ({ at: 100 + i * 40, height: 34 })),
      3508,
    );
    expect(cutRows(dense, WIDTH, 2)).toEqual([]);
    expect(cutRows(new Uint32Array(3508), WIDTH, 2)).toEqual([]);
  });

  it('counts a speck or two as white', () => {
    const lines = [
      { at: 100, height: 1000 },
      { at: 1200, height: 1000 },
    ];
    const ink = page(lines, 2400);
    for (let y = 1100; y < 1200; y++) ink[y] = 2;
    expect(cutRows(ink, WIDTH, 2)).toEqual([1150]);
  });

  it('hands out the rows of the page on white margins, where the page is read alike in each band', () => {
    const data = new Uint8Array(10 * 300).fill(255);
    data.fill(0, 10 * 10, 10 * 100);
    data.fill(0, 10 * 170, 10 * 260);
    const bitmap = { width: 10, height: 300, data };
    expect(Array.from(inkPerRow(bitmap)).filter((n) => n > 0)).toHaveLength(180);
    // Every row dark or white across the whole width: the cut falls in the middle of the white rows 100–169.
    const bands = splitIntoBands(bitmap, 2);
    expect(bands.map((b) => [b.top, b.bitmap.height])).toEqual([
      [-60, 255],
      [75, 285],
    ]);
    expect(bands[1]!.bitmap.data.subarray(60 * 10, 225 * 10)).toEqual(data.subarray(135 * 10, 300 * 10));
    expect(bands[1]!.bitmap.data.subarray(0, 60 * 10).every((v) => v === 255)).toBe(true);
  });

  it('leaves a page whole where a band would be binarised unlike it (shaded rows)', () => {
    const data = new Uint8Array(10 * 3000).fill(255);
    // Gray text (140) above; below, a box shaded 190 with text on it.
    for (let y = 100; y < 700; y += 45) data.fill(140, 10 * y, 10 * (y + 30));
    data.fill(190, 10 * 1650, 10 * 3000);
    for (let y = 1700; y < 2900; y += 60) data.fill(140, 10 * y, 10 * (y + 30));
    const page = { width: 10, height: 3000, data };
    const [cut] = cutRows(inkPerRow(page), 10, 2);
    const upper = { width: 10, height: cut!, data: data.subarray(0, cut! * 10) };
    expect(Math.abs(otsuThreshold(upper) - otsuThreshold(page))).toBeGreaterThan(8);
    expect(splitIntoBands(page, 2).map((b) => [b.top, b.bitmap.height])).toEqual([[0, 3000]]);
  });
});

describe("a band's words", () => {
  const header = 'level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext';
  const word = (block: number, line: number, left: number, top: number, text: string) =>
    `5\t1\t${block}\t1\t${line}\t1\t${left}\t${top}\t${text.length * 20}\t40\t95\t${text}`;

  it('stand where the band stands on the page, their lines apart from the other bands', () => {
    const upper = [header, word(1, 1, 100, 200, 'Rechnung'), word(1, 1, 400, 200, 'RE-1')].join('\n');
    const lower = [header, word(1, 1, 100, 30, 'Zahlung'), word(1, 1, 400, 30, '10,00')].join('\n');
    const words = wordsFromTsv([shiftTsv(upper, 0, 0), shiftTsv(lower, 1700, 1)].join('\n'), { width: 2480, height: 3508 });
    expect(words.map((w) => w.text)).toEqual(['Rechnung', 'RE-1', 'Zahlung', '10,00']);
    const zahlung = words.find((w) => w.text === 'Zahlung')!;
    const rechnung = words.find((w) => w.text === 'Rechnung')!;
    // Both reach from the cap height to the descender, so emBox sizes them alike: only the band's offset sets them apart.
    expect(zahlung.y - rechnung.y).toBeCloseTo(1700 + 30 - 200, 5);
  });
});
