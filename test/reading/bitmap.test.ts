import { describe, expect, it } from 'vitest';
import { despeckle, isBlank, rgbaToGray, toPgm, type GrayBitmap } from '../../src/reading/bitmap.js';

describe('grayscale bitmaps', () => {
  it('converts RGBA to luma and puts transparency on white paper', () => {
    const rgba = new Uint8Array([255, 0, 0, 255, 0, 0, 0, 0, 0, 0, 0, 128, 255, 255, 255, 255]);
    expect([...rgbaToGray(rgba, 2, 2).data]).toEqual([76, 255, 127, 255]);
  });

  it('refuses a buffer smaller than the size it claims', () => {
    expect(() => rgbaToGray(new Uint8Array(12), 2, 2)).toThrow(RangeError);
  });

  it('wraps the pixels in a binary PGM header', () => {
    const pgm = toPgm({ width: 3, height: 1, data: new Uint8Array([0, 128, 255]) });
    expect(Buffer.from(pgm.subarray(0, 11)).toString('latin1')).toBe('P5\n3 1\n255\n');
    expect([...pgm.subarray(11)]).toEqual([0, 128, 255]);
  });
});

describe('despeckle (3×3 median)', () => {
  const naive = (b: GrayBitmap, x: number, y: number) => {
    const values: number[] = [];
    for (let dy = -1; dy <= 1; dy++) {
      for (let dx = -1; dx <= 1; dx++) {
        const xx = Math.min(b.width - 1, Math.max(0, x + dx));
        const yy = Math.min(b.height - 1, Math.max(0, y + dy));
        values.push(b.data[yy * b.width + xx]!);
      }
    }
    return values.sort((a, c) => a - c)[4];
  };

  it('equals the sorted median at every pixel, borders included', () => {
    let seed = 12345;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) % 256;
    for (const [width, height] of [
      [1, 1],
      [2, 3],
      [17, 11],
      [64, 48],
    ] as const) {
      const bitmap = { width, height, data: Uint8Array.from({ length: width * height }, random) };
      const out = despeckle(bitmap);
      for (let y = 0; y < height; y++)
        for (let x = 0; x < width; x++) expect(out.data[y * width + x], `${width}x${height} at ${x},${y}`).toBe(naive(bitmap, x, y));
    }
  });

  it('removes isolated specks and keeps a two-pixel stroke', () => {
    const width = 8;
    const data = new Uint8Array(width * 8).fill(255);
    data[2 * width + 5] = 0; // a speck
    for (let y = 0; y < 8; y++) data[y * width + 1] = data[y * width + 2] = 0; // a vertical stroke
    const out = despeckle({ width, height: 8, data });
    expect(out.data[2 * width + 5]).toBe(255);
    for (let y = 0; y < 8; y++) expect([out.data[y * width + 1], out.data[y * width + 2]]).toEqual([0, 0]);
  });
});

describe('blank pages', () => {
  const paper = (noise: number) => {
    let seed = 7;
    const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
    const data = Uint8Array.from({ length: 2480 * 3508 }, () => Math.max(0, Math.min(255, Math.round(235 + (random() - 0.5) * 2 * noise))));
    return { width: 2480, height: 3508, data };
  };

  it('recognises empty paper, however noisy', () => {
    expect(isBlank(paper(0))).toBe(true);
    expect(isBlank(despeckle(paper(40)))).toBe(true);
  });

  it('does not call a page with a single line of text blank', () => {
    const page = paper(10);
    // "Seite 2" at 12 pt, 300 dpi: seven glyphs about 30×40 px with a third of them inked.
    for (let g = 0; g < 7; g++)
      for (let y = 200; y < 240; y++) for (let x = 300 + g * 36; x < 330 + g * 36; x += 3) page.data[y * page.width + x] = 20;
    expect(isBlank(page)).toBe(false);
  });
});
