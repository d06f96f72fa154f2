import { createCanvas } from '@napi-rs/canvas';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { openPdf, rasterisePage } from '../../src/reading/rasterise-pdf.js';

/** A page that is one 72 dpi image of black and white stripes, 1 px each: a scan at a fraction of the OCR resolution. */
async function stripedScanPdf(): Promise<Uint8Array> {
  const canvas = createCanvas(200, 100);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#fff';
  ctx.fillRect(0, 0, 200, 100);
  ctx.fillStyle = '#000';
  for (let x = 0; x < 200; x += 2) ctx.fillRect(x, 0, 1, 100);
  const doc = await PDFDocument.create();
  const image = await doc.embedPng(canvas.toBuffer('image/png'));
  const page = doc.addPage([200, 100]);
  page.drawImage(image, { x: 0, y: 0, width: 200, height: 100 });
  return doc.save();
}

describe('rendering an image-only PDF page for OCR', () => {
  it('smooths a scan it enlarges (greys between the stripes), as a JPEG upload is smoothed, instead of repeating pixels', async () => {
    const doc = await openPdf(await stripedScanPdf());
    try {
      const page = await rasterisePage(doc, 1, 288);
      const row = page.data.subarray(200 * page.width, 201 * page.width).slice(40, page.width - 40);
      const between = row.filter((v) => v > 40 && v < 215).length;
      // Enlarged 4× without smoothing every pixel is black or white; smoothed, the edges of each stripe are grey.
      expect(between / row.length).toBeGreaterThan(0.25);
    } finally {
      await doc.loadingTask.destroy();
    }
  });
});
