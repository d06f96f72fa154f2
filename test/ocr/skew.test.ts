import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { rgbaToGray, type GrayBitmap } from '../../src/ocr/bitmap.js';
import { deskewBitmap, measureSkew, otsuThreshold, rotate } from '../../src/ocr/skew.js';

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
    // The rule through the middle of the page is back on one row band: its ink spans few rows.
    const rows = new Set<number>();
    for (let y = 680; y < 720; y++) for (let x = 200; x < 1000; x += 50) if (level.data[y * level.width + x]! < 128) rows.add(y);
    expect(rows.size).toBeLessThanOrEqual(4);
  });

  it('leaves a level page untouched and a page without text alone', () => {
    const page = textPage(0);
    expect(deskewBitmap(page)).toBe(page);
    const blank: GrayBitmap = { width: 400, height: 300, data: new Uint8Array(400 * 300).fill(240) };
    expect(measureSkew(blank)).toBe(0);
  });

  it('rotates about the centre and fills what comes in from outside with paper', () => {
    const b: GrayBitmap = { width: 101, height: 101, data: new Uint8Array(101 * 101).fill(230) };
    for (let x = 60; x < 90; x++) b.data[50 * 101 + x] = 0; // a dash right of the centre
    const turned = rotate(b, 90); // counter-clockwise: the dash now points up
    expect(turned.data[50 * 101 + 50]).toBe(230);
    expect(turned.data[25 * 101 + 50]).toBe(0);
    expect(turned.data[50 * 101 + 75]).toBe(230);
    expect(rotate(b, 10).data[0]).toBe(230);
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
