import { describe, expect, it } from 'vitest';
import type { Word } from '../../src/reading/page-text.js';
import { isReadable } from '../../src/reading/readable.js';
import { attachColons, deskew, emBox, joinSplitNumbers, repairText, skewAngle, wordsFromTsv } from '../../src/reading/tsv.js';

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
  it('keeps words with their place and a 0..1 confidence, drops empty and non-word rows', () => {
    const words = wordsFromTsv(TSV, { width: 2480, height: 3508 });
    expect(words.map(({ text, x, width, confidence }) => ({ text, x, width, confidence }))).toEqual([
      { text: 'Rechnung', x: 100, width: 300, confidence: 0.965 },
      { text: 'RE-2025-0312', x: 420, width: 200, confidence: 0.91 },
    ]);
  });

  it('drops the bars of a boxed heading, keeps bars inside words', () => {
    const row = (n: number, left: number, text: string) => `5\t1\t1\t1\t1\t${n}\t${left}\t200\t${text.length * 20}\t40\t90\t${text}`;
    const tsv = [
      row(1, 100, '|'),
      row(2, 130, 'Informationen'),
      row(3, 420, 'zum'),
      row(4, 500, 'Käufer'),
      row(5, 640, '||'),
      row(6, 700, 'A|B'),
    ];
    expect(wordsFromTsv(tsv.join('\n'), { width: 2480, height: 3508 }).map((w) => w.text)).toEqual([
      'Informationen',
      'zum',
      'Käufer',
      'A|B',
    ]);
  });

  it('sizes words like a text layer does: one em high, the baseline 0.8 em below the top', () => {
    // Three words of a 50 px font on the baseline y = 100, as tesseract boxes their ink.
    const ink = [
      { text: 'ocean', y: 100 - 26, height: 26 },
      { text: 'Köln', y: 100 - 36, height: 36 },
      { text: 'Zahlung', y: 100 - 36, height: 46.5 },
    ];
    for (const w of ink) {
      const box = emBox({ ...w, x: 0, width: 10 });
      expect(box.height, w.text).toBeCloseTo(50, 5);
      expect(box.y, w.text).toBeCloseTo(60, 5);
    }
  });

  it('repairs the "ß" of "straße" that scans lose, and nothing else', () => {
    expect(['KundenstralRe', 'SpeicherstraRe', 'StraBe', 'KundenstrafBe', 'Lieferantenstrafie'].map((t) => repairText(t))).toEqual([
      'Kundenstraße',
      'Speicherstraße',
      'Straße',
      'Kundenstraße',
      'Lieferantenstraße',
    ]);
    expect(['Kundenstrale 15', 'Lieferantenstrafle', 'Kundenstrae', 'Beispielstralle'].map((t) => repairText(t))).toEqual([
      'Kundenstraße 15',
      'Lieferantenstraße',
      'Kundenstraße',
      'Beispielstraße',
    ]);
    expect(['Strasse', 'Straßenbahn', 'Kastrabe'].map((t) => repairText(t))).toEqual(['Strasse', 'Straßenbahn', 'Kastrabe']);
    // "Strafe" is a word: only a house number after it makes it a street.
    expect(repairText('Musterstrafe', '12')).toBe('Musterstraße');
    expect(repairText('Vertragsstrafe', 'von')).toBe('Vertragsstrafe');
    expect(repairText('Vertragsstrafe')).toBe('Vertragsstrafe');
    // The abbreviation's period read as a comma, before a house number only.
    expect(repairText('Musterstr,', '12')).toBe('Musterstr.');
    expect(repairText('Musterstr,', 'Haus')).toBe('Musterstr,');
  });
});

describe('umlauts', () => {
  it('reads "ii" inside a word as the "ü" a scan split, and leaves Roman numerals and word ends alone', () => {
    expect(['Miinchen', 'Millermann', 'Gebiihr', 'II', 'Teil ii', 'Hawaii'].map((t) => repairText(t))).toEqual([
      'München',
      'Millermann',
      'Gebühr',
      'II',
      'Teil ii',
      'Hawaii',
    ]);
  });
});

describe('labels and their colons', () => {
  it('gives a spaced-out colon back to the label before it on the same line', () => {
    const words = [
      { text: 'Steuernummer', x: 200, y: 100, width: 290, height: 38, line: 'a' },
      { text: ':', x: 530, y: 110, width: 8, height: 26, line: 'a' },
      { text: '201/113/40209', x: 560, y: 100, width: 330, height: 38, line: 'a' },
      { text: ':', x: 100, y: 200, width: 8, height: 26, line: 'b' },
    ];
    expect(attachColons(words).map((w) => [w.text, w.x, w.width])).toEqual([
      ['Steuernummer:', 200, 338],
      ['201/113/40209', 560, 330],
      [':', 100, 8],
    ]);
  });
});

describe('numbers the recogniser cut in two', () => {
  it('joins an amount cut after its first decimal digit to the digits a hair away, and leaves numbers a space apart alone', () => {
    const words = [
      { text: 'Solde', x: 1786, y: 1650, width: 110, height: 41, line: 'a' },
      { text: '470,1', x: 2178, y: 1650, width: 97, height: 41, line: 'a' },
      { text: '5€', x: 2283, y: 1650, width: 40, height: 41, line: 'a' },
      { text: '19,0', x: 1500, y: 1800, width: 70, height: 29, line: 'b' },
      { text: '100,00', x: 1677, y: 1800, width: 110, height: 29, line: 'b' },
    ];
    expect(joinSplitNumbers(words).map((w) => [w.text, w.x, w.width])).toEqual([
      ['Solde', 1786, 110],
      ['470,15€', 2178, 145],
      ['19,0', 1500, 70],
      ['100,00', 1677, 110],
    ]);
  });
});

describe('deskewing word boxes', () => {
  // Three table rows of five cells on a page fed 1° askew: each row falls 38 px across 2200 px.
  const angle = Math.PI / 180;
  const page = { width: 2480, height: 3508 };
  const rows = [1000, 1100, 1200].flatMap((y, row) =>
    [0, 1, 2, 3, 4].map((col) => {
      const x = 100 + col * 500;
      return { text: `r${row}c${col}`, x, y: y + Math.tan(angle) * x, width: 120, height: 30, line: `1/1/${row}` };
    }),
  );

  it('measures the slant from the lines tesseract found', () => {
    expect(skewAngle(rows)).toBeCloseTo(angle, 5);
    expect(skewAngle(rows.map((w) => ({ ...w, y: 1000 })))).toBe(0);
  });

  it('puts each row back on one level, so a table row stays one row', () => {
    const upright = deskew(rows, page);
    for (const row of [0, 1, 2]) {
      const ys = upright.filter((w) => w.line === `1/1/${row}`).map((w) => w.y);
      expect(Math.max(...ys) - Math.min(...ys)).toBeLessThan(1);
    }
    expect(upright.every((w) => w.x >= 0 && w.y >= 0 && w.x + w.width <= page.width && w.y + w.height <= page.height)).toBe(true);
  });

  it('ignores short lines and implausibly steep ones', () => {
    const steep = [0, 1, 2].map((i) => ({ text: 'x', x: i * 100, y: i * 100, width: 10, height: 10, line: 'a' }));
    const short = [0, 1].map((i) => ({ text: 'y', x: i * 100, y: i * 3, width: 10, height: 10, line: 'b' }));
    expect(skewAngle([...steep, ...short])).toBe(0);
  });
});

const word = (text: string, confidence?: number): Word => ({
  text,
  x: 0,
  y: 0,
  width: 10,
  height: 10,
  ...(confidence !== undefined ? { confidence } : {}),
});

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
