import { describe, expect, it } from 'vitest';
import type { GrayBitmap } from '../../src/reading/bitmap.js';
import { removeRules } from '../../src/reading/rules.js';

const W = 600;
const H = 400;

function page(): GrayBitmap {
  return { width: W, height: H, data: new Uint8Array(W * H).fill(235) };
}

function fill(b: GrayBitmap, x0: number, y0: number, x1: number, y1: number, value: number): void {
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++) b.data[y * W + x] = value;
}

const at = (b: GrayBitmap, x: number, y: number) => b.data[y * W + x]!;

describe('table rules removed before OCR', () => {
  it('erases long thin rules with their grey fringe, slanted ones too, and keeps letters, text touching a rule and filled areas', () => {
    const b = page();
    fill(b, 20, 100, 580, 102, 70); // a horizontal rule, 2 px dark core …
    fill(b, 20, 102, 580, 103, 190); // … with a grey fringe
    fill(b, 300, 20, 302, 380, 80); // a vertical rule
    for (let x = 20; x < 580; x++) fill(b, x, 300 + Math.floor(x / 60), x + 1, 302 + Math.floor(x / 60), 70); // slanted by about 1°
    fill(b, 100, 103, 108, 130, 40); // a letter stroke standing on the horizontal rule
    fill(b, 60, 40, 68, 70, 40); // a letter stroke on its own
    fill(b, 420, 150, 560, 250, 90); // a filled logo
    const out = removeRules(b);
    expect([at(out, 200, 100), at(out, 200, 101), at(out, 200, 102), at(out, 301, 200), at(out, 100, 301), at(out, 500, 308)]).toEqual([
      255, 255, 255, 255, 255, 255,
    ]);
    expect(at(out, 64, 55)).toBe(40);
    expect(at(out, 104, 120)).toBe(40);
    expect(at(out, 490, 200)).toBe(90);
    // The input is left as it was.
    expect(at(b, 200, 100)).toBe(70);
  });

  it('leaves a page without rules unchanged', () => {
    const b = page();
    fill(b, 50, 50, 58, 80, 40);
    fill(b, 70, 50, 78, 80, 40);
    expect(removeRules(b).data).toEqual(b.data);
  });
});
