import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { loadPdfJs, openPdfTask } from '../../src/pdf/pdfjs.js';

describe('the one pdfjs opener', () => {
  it("finds pdfjs' own standard fonts for a PDF that does not embed Helvetica", async () => {
    const doc = await PDFDocument.create();
    doc.addPage().drawText('Rechnung', { x: 50, y: 700, size: 12, font: await doc.embedFont(StandardFonts.Helvetica) });
    const { OPS } = await loadPdfJs();
    const task = await openPdfTask(await doc.save(), { maxImageSize: 0 });
    try {
      const page = await (await task.promise).getPage(1);
      const ops = await page.getOperatorList();
      const [fontId] = ops.argsArray[ops.fnArray.indexOf(OPS.setFont)] as [string];
      // A file: URL as standardFontDataUrl left this true: pdfjs' Node loader could not read it.
      expect((page.commonObjs.get(fontId) as { missingFile: boolean }).missingFile).toBe(false);
    } finally {
      await task.destroy();
    }
  });
});
