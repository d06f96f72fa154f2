import { PDFDocument } from 'pdf-lib';
import { scanPdf, type ScanProfile } from './scan-simulation.js';

/** What a scanner that "scans to PDF" makes of a printed invoice: one JPEG per page, no text layer. */
export async function scannedPdf(pdf: Uint8Array, profile: ScanProfile): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  for (const jpeg of await scanPdf(pdf, profile)) {
    const image = await doc.embedJpg(jpeg);
    const page = doc.addPage([(image.width * 72) / profile.dpi, (image.height * 72) / profile.dpi]);
    page.drawImage(image, { x: 0, y: 0, width: page.getWidth(), height: page.getHeight() });
  }
  return doc.save();
}
