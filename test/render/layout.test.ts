import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { embedFonts } from '../../src/render/fonts.js';
import { Typesetter } from '../../src/render/layout.js';

async function typesetter(): Promise<Typesetter> {
  return new Typesetter(await embedFonts(await PDFDocument.create(), 'DejaVuSans'), 9);
}

describe('line breaking', () => {
  it('sets a word too wide for its column whole on a line of its own, a little smaller, and breaks only one too wide even then', async () => {
    const t = await typesetter();
    const email = 'debiteuren@vandermeer-kantoor.example';
    const width = t.measure(email, {}) * 0.85;
    const lines = t.wrap(`E-Mail: ${email}`, {}, width);
    expect(lines.map((l) => l.text)).toEqual(['E-Mail:', email]);
    expect(lines[1]!.style.size).toBeLessThan(9);
    expect(t.measure(email, lines[1]!.style)).toBeLessThanOrEqual(width);
    // Far too wide: broken inside, at the body size, every piece within the width.
    const broken = t.wrap(email, {}, t.measure(email, {}) * 0.4);
    expect(broken.length).toBeGreaterThan(2);
    expect(broken.map((l) => l.text).join('')).toBe(email);
    expect(broken.every((l) => l.style.size === undefined && t.measure(l.text, {}) <= t.measure(email, {}) * 0.4)).toBe(true);
    // A word that fits its own line is not set larger, and no empty line follows a squeezed last word.
    expect(t.wrap(`${email}\nTel. 0221 123`, {}, width).map((l) => l.text)).toEqual([email, 'Tel. 0221 123']);
  });
});
