import { PDFArray, PDFDict, PDFName, PDFNumber, PDFRef, PDFStream } from 'pdf-lib';
import { loadPdf } from './structure.js';

/**
 * Annotations whose appearance has an empty bounding box draw nothing, but Ghostscript maps
 * such a box onto the annotation's rectangle by dividing by its size and writes the result as
 * `/BBox [#NAN …]`, which no PDF reader parses (seen on stamps of a PDF printer that left an
 * empty stamp on every page). Before the PDF/A conversion they are removed: nothing visible
 * is lost, and the converted file stays readable.
 */
export async function withoutEmptyAppearances(bytes: Uint8Array): Promise<{ pdf: Uint8Array; removed: number }> {
  // Annotations are named in the page dictionaries, which are plain text unless packed into object streams.
  const raw = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!raw.includes('/Annots') && !raw.includes('/ObjStm')) return { pdf: bytes, removed: 0 };
  const doc = await loadPdf(bytes);
  let removed = 0;
  for (const page of doc.getPages()) {
    const annots = page.node.lookupMaybe(PDFName.of('Annots'), PDFArray);
    if (!annots) continue;
    const kept = annots.asArray().filter((ref) => {
      const annot = doc.context.lookup(ref);
      return !(annot instanceof PDFDict && drawsNothing(annot));
    });
    if (kept.length === annots.size()) continue;
    removed += annots.size() - kept.length;
    page.node.set(PDFName.of('Annots'), doc.context.obj(kept));
  }
  return { pdf: removed > 0 ? await doc.save() : bytes, removed };
}

/** Every normal appearance of the annotation has a bounding box without width or height. */
function drawsNothing(annot: PDFDict): boolean {
  const normal = annot.lookupMaybe(PDFName.of('AP'), PDFDict)?.get(PDFName.of('N'));
  const resolved = normal instanceof PDFRef ? annot.context.lookup(normal) : normal;
  const streams =
    resolved instanceof PDFStream
      ? [resolved]
      : resolved instanceof PDFDict
        ? resolved
            .values()
            .map((v) => annot.context.lookup(v))
            .filter((v): v is PDFStream => v instanceof PDFStream)
        : [];
  return streams.length > 0 && streams.every((s) => emptyBox(s.dict.lookupMaybe(PDFName.of('BBox'), PDFArray)));
}

function emptyBox(box: PDFArray | undefined): boolean {
  if (!box || box.size() !== 4) return false;
  const [x0, y0, x1, y1] = box.asArray().map((n) => (n instanceof PDFNumber ? n.asNumber() : NaN));
  return x0 === x1 || y0 === y1;
}
