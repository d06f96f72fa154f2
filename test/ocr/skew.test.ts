import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { rgbaToGray, type GrayBitmap } from '../../src/ocr/bitmap.js';
import { deskewBitmap, measureSkew, MIN_SKEW_DEGREES, otsuThreshold, shearLevel } from '../../src/ocr/skew.js';

/** A page of invoice-like text lines and one table rule, drawn turned by `degrees` (positive: falling to the right). */
function textPage(degrees: number, width = 1240, height = 1754): GrayBitmap {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#f2f2f0';
  ctx.fillRect(0, 0, width, height);
  ctx.translate(width / 2, height / 2);
  ctx.rotate((degrees * Math.PI) / 180);
  ctx.translate(-width / 2, -height / 2);
  ctx.fillStyle = '#202020';
  ctx.font = '22px sans-serif';
  const lines = ['Rechnung Nr. 2024-0815 vom 12.03.2024', 'Gebäudeservice Müller GmbH · Hauptstraße 5 · 10115 Berlin', 'Pos. Beschreibung Menge Einzelpreis Betrag', '1 Reinigung Büroflächen 12 Std 35,00 420,00', '2 Fensterreinigung pauschal 1 180,00 180,00', 'Nettobetrag 600,00 EUR', 'Umsatzsteuer 19 % 114,00 EUR', 'Gesamtbetrag 714,00 EUR'];
  for (let i = 0; i < 24; i++) ctx.fillText(lines[i % lines.length]!, 120, 160 + i * 52);
  ctx.fillRect(110, 700, 1000, 2);
  return rgbaToGray(ctx.getImageData(0, 0, width, height).data, width, height);
}

describe('skew of a scanned page', () => {
  it.each([-3, -1.2, -0.4, 0.7, 1.5, 4])('measures a page turned by %s° to within 0.1°', (degrees) => {
    expect(Math.abs(measureSkew(textPage(degrees)) - degrees)).toBeLessThan(0.1);
  });

  it('turns a skewed page level: what is left of the slant is below 0.1°, text stays where the page centre is', () => {
    const level = deskewBitmap(textPage(1.3));
    expect(Math.abs(measureSkew(level))).toBeLessThan(0.1);
    // The rule through the middle of the page is back on one row band: a few rows hold most of its length (askew, no row holds half of it).
    const ruleRows = (bitmap: GrayBitmap) => {
      const rows: number[] = [];
      for (let y = 660; y < 740; y++) {
        let ink = 0;
        for (let x = 200; x < 1000; x += 10) if (bitmap.data[y * bitmap.width + x]! < 128) ink++;
        if (ink >= 40) rows.push(y);
      }
      return rows;
    };
    expect(ruleRows(textPage(1.3))).toHaveLength(0);
    expect(ruleRows(level).length).toBeGreaterThanOrEqual(1);
    expect(ruleRows(level).length).toBeLessThanOrEqual(3);
  });

  it('leaves a level page, one turned by less than it is worth, and a page without text alone', () => {
    const page = textPage(0);
    expect(deskewBitmap(page)).toBe(page);
    const slight = textPage(MIN_SKEW_DEGREES / 2);
    expect(deskewBitmap(slight)).toBe(slight);
    const blank: GrayBitmap = { width: 400, height: 300, data: new Uint8Array(400 * 300).fill(240) };
    expect(measureSkew(blank)).toBe(0);
  });

  it('levels by moving whole pixels about the centre: no grey level is made up, and what comes in from outside is paper', () => {
    const b: GrayBitmap = { width: 201, height: 101, data: new Uint8Array(201 * 101).fill(230) };
    // A line falling to the right by 2° through the centre, and a vertical stroke leaning with it.
    const slope = Math.tan((2 * Math.PI) / 180);
    for (let y = 0; y < 101; y++) b.data[y * 201 + Math.round(150 - (y - 50) * slope)] = 17;
    for (let x = 0; x < 201; x++) b.data[Math.round(50 + (x - 100) * slope) * 201 + x] = 0;
    const level = shearLevel(b, 2);
    expect(new Set(level.data)).toEqual(new Set([230, 0, 17]));
    // The line lies on one row (the centre row), end to end.
    for (let x = 0; x < 201; x++) expect(level.data[50 * 201 + x], `x ${x}`).toBe(0);
    // The stroke, across 4 columns as it leaned, stands upright: within one pixel of one column.
    const columns = (bitmap: GrayBitmap) => new Set(Array.from(bitmap.data.keys()).filter((i) => bitmap.data[i] === 17).map((i) => i % 201));
    expect(columns(b).size).toBeGreaterThanOrEqual(4);
    expect(columns(level).size).toBeLessThanOrEqual(2);
    // The corner came from outside the page.
    expect(level.data[0]).toBe(230);
  });

  it('splits ink from paper at the Otsu threshold', () => {
    const data = new Uint8Array(1000);
    data.fill(40, 0, 100);
    data.fill(220, 100);
    const t = otsuThreshold({ width: 1000, height: 1, data });
    expect(t).toBeGreaterThanOrEqual(40);
    expect(t).toBeLessThan(220);
  });
});
