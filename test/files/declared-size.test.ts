import { deflateSync } from 'node:zlib';
import { PDFDocument } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { declaredSizeProblem, DEFAULT_INTAKE_LIMITS } from '../../src/files/declared-size.js';
import { manyPagesPdf } from './hostile-files.js';

/**
 * Issue 15, item 5: a file beyond the limits is refused from what it declares, before a parser
 * spends a minute on it: pages, pixels, inflated size.
 */

function pngHeader(width: number, height: number): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 2;
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    Buffer.from([0, 0, 0, 13]),
    Buffer.from('IHDR'),
    ihdr,
    Buffer.alloc(4),
  ]);
}

describe('what a file declares, checked before it is parsed', () => {
  it('refuses a 50,000-page PDF in milliseconds, naming the limit', () => {
    const pdf = manyPagesPdf(50_000);
    const started = performance.now();
    expect(declaredSizeProblem(pdf, 'pdf', DEFAULT_INTAKE_LIMITS)).toBe('The PDF has 50,000 pages; at most 500 are read (MAX_PDF_PAGES).');
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(declaredSizeProblem(manyPagesPdf(500), 'pdf', DEFAULT_INTAKE_LIMITS)).toBeUndefined();
  });

  it('finds the page tree in compressed object streams (PDF 1.5)', async () => {
    const doc = await PDFDocument.create();
    for (let i = 0; i < 600; i++) doc.addPage();
    const pdf = await doc.save({ useObjectStreams: true });
    expect(Buffer.from(pdf).toString('latin1')).not.toMatch(/\/Count 600/); // only inside the compressed streams
    expect(declaredSizeProblem(pdf, 'pdf', DEFAULT_INTAKE_LIMITS)).toMatch(/has 600 pages/);
    expect(declaredSizeProblem(pdf, 'pdf', { ...DEFAULT_INTAKE_LIMITS, maxPdfPages: 600 })).toBeUndefined();
  });

  it('refuses a zlib bomb after inflating only its budget', () => {
    const bomb = deflateSync(Buffer.alloc(64 * 1024 * 1024));
    const pdf = Buffer.concat([
      Buffer.from(
        `%PDF-1.7\n1 0 obj << /Type /Catalog /Pages 2 0 R >> endobj\n2 0 obj << /Type /Pages /Count 1 /Kids [3 0 R] >> endobj\n3 0 obj << /Type /Page /Parent 2 0 R /Contents 4 0 R >> endobj\n4 0 obj << /Length ${bomb.length} /Filter /FlateDecode >> stream\n`,
        'latin1',
      ),
      bomb,
      Buffer.from('\nendstream endobj\ntrailer << /Root 1 0 R >>\n%%EOF\n', 'latin1'),
    ]);
    expect(declaredSizeProblem(pdf, 'pdf', { ...DEFAULT_INTAKE_LIMITS, maxInflatedBytes: 16 * 1024 * 1024 })).toBe(
      "The PDF's compressed streams inflate to more than 16 MB (MAX_INFLATED_MEGABYTES).",
    );
    expect(declaredSizeProblem(pdf, 'pdf', DEFAULT_INTAKE_LIMITS)).toBeUndefined();
  });

  it('refuses an image that claims more pixels than the limit, from its header', () => {
    expect(declaredSizeProblem(pngHeader(100_000, 100_000), 'png', DEFAULT_INTAKE_LIMITS)).toBe(
      'The image has 100000×100000 pixels; at most 60,000,000 are read (MAX_IMAGE_PIXELS).',
    );
    expect(declaredSizeProblem(pngHeader(2480, 3508), 'png', DEFAULT_INTAKE_LIMITS)).toBeUndefined();
  });
});
