import { createCanvas } from '@napi-rs/canvas';
import { describe, expect, it } from 'vitest';
import { openImage, UnreadableFileError } from '../../src/reading/decode-image.js';
import { imageDimensions } from '../../src/files/image-header.js';
import { estimateDpi, MAX_OCR_PIXELS, OCR_DPI, ocrScale } from '../../src/reading/resolution.js';
import { bombPng, cyclicTiff, grayTiff, transparentPng } from './fixtures.js';

const canvasOf = (width: number, height: number) => {
  const canvas = createCanvas(width, height);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, width, height);
  ctx.fillStyle = '#000';
  ctx.fillRect(10, 10, 20, 20);
  return canvas;
};

describe('image headers', () => {
  it('reads the size of PNG and JPEG (with EXIF before the frame) without decoding', () => {
    expect(imageDimensions(canvasOf(321, 123).toBuffer('image/png'), 'png')).toEqual({ width: 321, height: 123 });
    expect(imageDimensions(canvasOf(640, 480).toBuffer('image/jpeg', 80), 'jpeg')).toEqual({ width: 640, height: 480 });
    const jpeg = canvasOf(64, 32).toBuffer('image/jpeg', 80);
    const app1 = Buffer.from([0xff, 0xe1, 0x00, 0x08, 0x45, 0x78, 0x69, 0x66, 0x00, 0x00]);
    expect(imageDimensions(Buffer.concat([jpeg.subarray(0, 2), app1, jpeg.subarray(2)]), 'jpeg')).toEqual({ width: 64, height: 32 });
  });

  it('gives undefined for a broken header', () => {
    expect(imageDimensions(Buffer.from([0x89, 0x50, 0x4e, 0x47]), 'png')).toBeUndefined();
    expect(imageDimensions(Buffer.from([0xff, 0xd8, 0xff, 0xd9, 0, 0, 0, 0, 0, 0]), 'jpeg')).toBeUndefined();
    expect(imageDimensions(Buffer.from([0xff, 0xd8, 0x12, 0x34, 0, 0, 0, 0, 0, 0]), 'jpeg')).toBeUndefined();
  });
});

describe('resolution for OCR', () => {
  it('scales low-resolution scans up to 300 dpi, leaves 300 dpi alone and scales 600 dpi down', () => {
    expect(ocrScale(1240, 1754, 150)).toBe(2);
    expect(ocrScale(2480, 3508, 300)).toBe(1);
    expect(ocrScale(2480, 3508, 280)).toBe(1); // close enough: resampling buys nothing
    expect(ocrScale(4960, 7016, 600)).toBe(0.5);
    expect(ocrScale(600, 800, 50)).toBe(3); // interpolation helps only so far
  });

  it('keeps every page within the pixel budget', () => {
    const scale = ocrScale(10_000, 14_000, 150);
    expect(10_000 * 14_000 * scale * scale).toBeLessThanOrEqual(MAX_OCR_PIXELS * 1.0001);
  });

  it('guesses the resolution of an image from the long side of A4', () => {
    expect(estimateDpi(1654, 2339)).toBeCloseTo(200, 0);
    expect(estimateDpi(3508, 2480)).toBeCloseTo(OCR_DPI, 0);
  });
});

describe('decoding images', () => {
  it('decodes a transparent PNG onto white paper, scaled to OCR resolution', async () => {
    const image = await openImage(transparentPng('Rechnung'), 'png');
    expect(image.pageCount).toBe(1);
    const page = await image.decodePage(0);
    // 1240 px on the long side reads as about 106 dpi: scaled up about 2.8 times.
    expect(page.width).toBe(Math.round(1240 * (OCR_DPI / estimateDpi(1240, 400))));
    expect(page.data[0]).toBe(255);
    expect(page.data.reduce((min, v) => Math.min(min, v), 255)).toBeLessThan(64); // the text is there, dark
  });

  it('decodes every page of a multi-page TIFF, honouring non-square fax resolution', async () => {
    const page = (shade: number) => ({ width: 408, height: 196, data: new Uint8Array(408 * 196).fill(shade) });
    const tiff = await openImage(grayTiff([page(10), page(200)], { x: 204, y: 98 }), 'tiff');
    expect(tiff.pageCount).toBe(2);
    const [first, second] = [await tiff.decodePage(0), await tiff.decodePage(1)];
    // 204 dpi across → 300; 98 dpi down → 300: rows are stretched about three times as much as columns.
    expect(first.width).toBe(Math.round(408 * (OCR_DPI / 204)));
    expect(first.height).toBe(Math.round(196 * (OCR_DPI / 98)));
    expect(first.data[1000]).toBe(10);
    expect(second.data[1000]).toBe(200);
  });

  it('refuses a PNG claiming 10 gigapixels before decoding anything', async () => {
    const image = await openImage(bombPng(), 'png');
    const started = performance.now();
    await expect(image.decodePage(0)).rejects.toThrow(UnreadableFileError);
    expect(performance.now() - started).toBeLessThan(100);
  });

  it('reports broken images as unreadable', async () => {
    const png = transparentPng('x');
    await expect((await openImage(png.subarray(0, 60), 'png')).decodePage(0)).rejects.toThrow(UnreadableFileError);
    await expect(openImage(Buffer.from('II*\0\0\0\0\0', 'latin1'), 'tiff')).rejects.toThrow(UnreadableFileError);
  });

  it('has a TIFF fixture whose directory chain never ends (the sandbox test feeds it to the service)', () => {
    const b = cyclicTiff();
    expect(b.readUInt32LE(4)).toBe(b.readUInt32LE(22));
  });
});
