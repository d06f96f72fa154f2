import { PDFHexString, PDFName, type PDFDocument } from 'pdf-lib';
import { setSrgbOutputIntent } from '../pdf/output-intent.js';

/**
 * Makes the rendered document declare what it is by construction, PDF/A-3b: an sRGB
 * OutputIntent (DeviceRGB colours get a defined meaning), XMP metadata with the PDF/A
 * identification that agrees with the Info dictionary, and a file identifier. The ZUGFeRD step
 * (src/pdf) takes a PDF/A input as it is and replaces XMP and Info with its Factur-X versions;
 * without this declaration it would have to run the file through Ghostscript first.
 */

export interface PdfAInfo {
  title: string;
  author: string;
  creator: string;
  /** BCP 47, e.g. de-DE. */
  language: string;
  created: Date;
  /** 32 hex digits. */
  fileId: string;
}

export async function declarePdfA3b(doc: PDFDocument, info: PdfAInfo): Promise<void> {
  // The Info dictionary holds whole seconds only, and the XMP must say the same.
  const created = new Date(Math.floor(info.created.getTime() / 1000) * 1000);
  doc.setTitle(info.title);
  doc.setAuthor(info.author);
  doc.setCreator(info.creator);
  doc.setProducer(info.creator);
  doc.setCreationDate(created);
  doc.setModificationDate(created);
  doc.setLanguage(info.language);

  // PDF/A: the metadata stream stays unfiltered, so that tools without PDF filters can read it.
  const xmp = Buffer.from(xmpPacket({ ...info, created }), 'utf8');
  doc.catalog.set(PDFName.of('Metadata'), doc.context.register(doc.context.stream(xmp, { Type: 'Metadata', Subtype: 'XML' })));

  await setSrgbOutputIntent(doc.context, doc.catalog);
  doc.context.trailerInfo.ID = doc.context.obj([PDFHexString.of(info.fileId), PDFHexString.of(info.fileId)]);
}

const escapeXml = (text: string) => text.replace(/[<>&"']/g, (c) => `&#${c.charCodeAt(0)};`);

function xmpPacket(info: PdfAInfo): string {
  const date = info.created.toISOString().replace(/\.\d{3}Z$/, 'Z');
  return `<?xpacket begin="\uFEFF" id="W5M0MpCehiHzreSzNTczkc9d"?>
<x:xmpmeta xmlns:x="adobe:ns:meta/">
 <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
  <rdf:Description rdf:about="" xmlns:pdfaid="http://www.aiim.org/pdfa/ns/id/" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:pdf="http://ns.adobe.com/pdf/1.3/">
   <pdfaid:part>3</pdfaid:part>
   <pdfaid:conformance>B</pdfaid:conformance>
   <dc:format>application/pdf</dc:format>
   <dc:title><rdf:Alt><rdf:li xml:lang="x-default">${escapeXml(info.title)}</rdf:li></rdf:Alt></dc:title>
   <dc:creator><rdf:Seq><rdf:li>${escapeXml(info.author)}</rdf:li></rdf:Seq></dc:creator>
   <xmp:CreatorTool>${escapeXml(info.creator)}</xmp:CreatorTool>
   <xmp:CreateDate>${date}</xmp:CreateDate>
   <xmp:ModifyDate>${date}</xmp:ModifyDate>
   <pdf:Producer>${escapeXml(info.creator)}</pdf:Producer>
  </rdf:Description>
 </rdf:RDF>
</x:xmpmeta>
<?xpacket end="w"?>`;
}
