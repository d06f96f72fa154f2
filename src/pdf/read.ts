import { PDFDict, PDFName, PDFRef, type PDFContext, type PDFDocument, type PDFObject, type PDFStream } from 'pdf-lib';
import { INVOICE_FILE_NAMES } from './profiles.js';
import {
  loadPdf,
  lookupArray,
  readingUntrusted,
  lookupDict,
  lookupStream,
  nameOf,
  nameTreeEntries,
  streamBytes,
  StreamTooLargeError,
  textOf,
} from './structure.js';
import { parseXmp, type XmpFacts } from './xmp.js';

/**
 * Reads what the ZUGFeRD checks and the extraction need from a PDF: the XMP packet, the
 * OutputIntents, the trailer ID, fonts that are not embedded, and every embedded file with
 * its file specification. Plain data only, so the result can cross a worker boundary.
 */

export interface PdfAttachment {
  name: string;
  relationship?: string;
  mimeType?: string;
  /** Listed in the catalog's AF array (PDF/A-3 requires embedded files to be associated). */
  associated: boolean;
  /** Decoded content; only for XML files, the others are not needed and may be large. */
  bytes?: Uint8Array;
  /** An XML file above the size limit, left undecoded. */
  tooLarge?: boolean;
  size?: number;
}

export interface PdfFacts {
  /** From the %PDF-x.y header. */
  version: string;
  pageCount: number;
  /** The XMP packet as text, and what it says. */
  xmp?: { packet: string; facts?: XmpFacts };
  /** OutputIntents with subtype GTS_PDFA1 and an ICC profile. */
  pdfaOutputIntents: number;
  hasTrailerId: boolean;
  /** Base font names of fonts used on pages without an embedded font program (PDF/A forbids them). */
  unembeddedFonts: string[];
  attachments: PdfAttachment[];
}

/** Largest embedded XML we decode: the same bound as for XML sent directly. */
const MAX_XML_BYTES = 20 * 1024 * 1024;
/** XMP packets are a few KB; anything near this is not metadata. */
const MAX_XMP_BYTES = 4 * 1024 * 1024;

function readPacket(stream: PDFStream): string | undefined {
  try {
    return Buffer.from(streamBytes(stream, MAX_XMP_BYTES)).toString('utf8');
  } catch (err) {
    if (err instanceof StreamTooLargeError) return undefined;
    throw err;
  }
}

export function readPdf(bytes: Uint8Array): Promise<PdfFacts> {
  return readingUntrusted(() => facts(bytes));
}

async function facts(bytes: Uint8Array): Promise<PdfFacts> {
  const doc = await loadPdf(bytes);
  const { context, catalog } = doc;
  const metadata = lookupStream(context, catalog.get(PDFName.of('Metadata')));
  const packet = metadata ? readPacket(metadata) : undefined;
  return {
    version: /^%PDF-(\d\.\d)/.exec(Buffer.from(bytes.subarray(0, 16)).toString('latin1'))?.[1] ?? 'unknown',
    pageCount: doc.getPageCount(),
    ...(packet !== undefined ? { xmp: { packet, facts: parseXmp(packet) } } : {}),
    pdfaOutputIntents: countPdfaIntents(context, catalog),
    hasTrailerId: lookupArray(context, context.trailerInfo.ID as PDFObject | undefined)?.size() === 2,
    unembeddedFonts: unembeddedFonts(doc),
    attachments: attachments(doc),
  };
}

/** The invoice among the attachments: by the names the standards use, then any XML attachment. */
export function findInvoiceAttachment(list: readonly PdfAttachment[]): PdfAttachment | undefined {
  for (const name of INVOICE_FILE_NAMES) {
    const found = list.find((a) => a.name.toLowerCase() === name && a.bytes);
    if (found) return found;
  }
  return list.find((a) => a.bytes && a.name.toLowerCase().endsWith('.xml'));
}

function countPdfaIntents(context: PDFContext, catalog: PDFDict): number {
  const intents = lookupArray(context, catalog.get(PDFName.of('OutputIntents')));
  let count = 0;
  for (let i = 0; intents && i < intents.size(); i++) {
    const intent = lookupDict(context, intents.get(i));
    if (intent && nameOf(intent.get(PDFName.of('S'))) === 'GTS_PDFA1' && lookupStream(context, intent.get(PDFName.of('DestOutputProfile'))))
      count++;
  }
  return count;
}

function attachments(doc: PDFDocument): PdfAttachment[] {
  const { context, catalog } = doc;
  const af = lookupArray(context, catalog.get(PDFName.of('AF')))?.asArray() ?? [];
  const isAssociated = (value: PDFObject) =>
    af.some((ref) => ref === value || (ref instanceof PDFRef && value instanceof PDFRef && ref.toString() === value.toString()));
  const names = lookupDict(context, catalog.get(PDFName.of('Names')));
  const specs: Array<{ key: string; value: PDFObject }> = nameTreeEntries(
    context,
    lookupDict(context, names?.get(PDFName.of('EmbeddedFiles'))),
  );
  // Some producers attach the invoice only through a file attachment annotation on a page.
  for (const page of doc.getPages()) {
    const annots = lookupArray(context, page.node.get(PDFName.of('Annots')));
    for (let i = 0; annots && i < annots.size(); i++) {
      const annot = lookupDict(context, annots.get(i));
      if (annot && nameOf(annot.get(PDFName.of('Subtype'))) === 'FileAttachment') {
        const fs = annot.get(PDFName.of('FS'));
        if (fs && !specs.some((s) => s.value === fs)) specs.push({ key: '', value: fs });
      }
    }
  }
  const result: PdfAttachment[] = [];
  for (const { key, value } of specs) {
    const spec = lookupDict(context, value);
    if (!spec) continue;
    const name = textOf(spec.get(PDFName.of('UF'))) ?? textOf(spec.get(PDFName.of('F'))) ?? key;
    const ef = lookupDict(context, spec.get(PDFName.of('EF')));
    const stream = lookupStream(context, ef?.get(PDFName.of('UF')) ?? ef?.get(PDFName.of('F')));
    const params = stream ? lookupDict(context, stream.dict.get(PDFName.of('Params'))) : undefined;
    const declaredSize = params?.get(PDFName.of('Size'))?.toString();
    let bytes: Uint8Array | undefined;
    let tooLarge = false;
    if (stream && name.toLowerCase().endsWith('.xml')) {
      try {
        bytes = streamBytes(stream, MAX_XML_BYTES);
      } catch (err) {
        if (!(err instanceof StreamTooLargeError)) throw err;
        tooLarge = true;
      }
    }
    const relationship = nameOf(spec.get(PDFName.of('AFRelationship')));
    const mimeType = stream ? nameOf(stream.dict.get(PDFName.of('Subtype'))) : undefined;
    result.push({
      name,
      associated: isAssociated(value),
      ...(tooLarge ? { tooLarge } : {}),
      ...(relationship ? { relationship } : {}),
      ...(mimeType ? { mimeType } : {}),
      ...(bytes ? { bytes } : {}),
      ...(bytes ? { size: bytes.length } : declaredSize && /^\d+$/.test(declaredSize) ? { size: Number(declaredSize) } : {}),
    });
  }
  return result;
}

/** Resources nest through form XObjects; a bound keeps a hostile file from looping. */
const MAX_RESOURCE_DICTS = 2_000;

function unembeddedFonts(doc: PDFDocument): string[] {
  const { context } = doc;
  const missing = new Set<string>();
  const seenResources = new Set<PDFDict>();
  const seenFonts = new Set<PDFDict>();
  const visitResources = (resources: PDFDict | undefined) => {
    if (!resources || seenResources.has(resources) || seenResources.size >= MAX_RESOURCE_DICTS) return;
    seenResources.add(resources);
    const fonts = lookupDict(context, resources.get(PDFName.of('Font')));
    for (const [, ref] of fonts?.entries() ?? []) {
      const font = lookupDict(context, ref);
      if (!font || seenFonts.has(font)) continue;
      seenFonts.add(font);
      if (!isEmbedded(context, font)) missing.add(nameOf(font.get(PDFName.of('BaseFont'))) ?? 'unnamed font');
    }
    const xobjects = lookupDict(context, resources.get(PDFName.of('XObject')));
    for (const [, ref] of xobjects?.entries() ?? []) {
      const form = lookupStream(context, ref);
      if (form && nameOf(form.dict.get(PDFName.of('Subtype'))) === 'Form')
        visitResources(lookupDict(context, form.dict.get(PDFName.of('Resources'))));
    }
  };
  for (const page of doc.getPages()) visitResources(page.node.Resources());
  return [...missing];
}

function isEmbedded(context: PDFContext, font: PDFDict): boolean {
  const subtype = nameOf(font.get(PDFName.of('Subtype')));
  // Type 3 glyphs are content streams inside the font dictionary itself.
  if (subtype === 'Type3') return true;
  const target = subtype === 'Type0' ? lookupDict(context, lookupArray(context, font.get(PDFName.of('DescendantFonts')))?.get(0)) : font;
  const descriptor = lookupDict(context, target?.get(PDFName.of('FontDescriptor')));
  return ['FontFile', 'FontFile2', 'FontFile3'].some((key) => lookupStream(context, descriptor?.get(PDFName.of(key))) !== undefined);
}
