import { createHash } from 'node:crypto';
import { PDFArray, PDFDict, PDFHexString, PDFName, PDFRef, PDFStream, PDFString, type PDFContext, type PDFObject } from 'pdf-lib';
import { settleAttachments, type AttachmentNote } from './attachments.js';
import { setSrgbOutputIntent } from './output-intent.js';
import { PROFILE_FACTS, type ZugferdProfile } from './profiles.js';
import { loadPdf, lookupArray, lookupDict, readingUntrusted } from './structure.js';
import { buildXmp, type DocumentInfo } from './xmp.js';

/**
 * Turns a PDF/A document into a ZUGFeRD / Factur-X PDF/A-3b: the invoice XML becomes an
 * associated file of the document (Names/EmbeddedFiles and the catalog's AF array, with the
 * profile's AFRelationship), the XMP packet is replaced by one that declares PDF/A-3b and the
 * Factur-X properties, the Info dictionary is rewritten to match it, and the trailer gets an ID.
 *
 * The input must already be PDF/A (any part); ghostscript.ts converts what is not. Files the
 * input already carries are settled by attachments.ts: an earlier invoice XML is replaced (building
 * twice does not leave two invoices behind), other files are kept as PDF/A-3 associated files or
 * removed, and each decision is reported.
 */

export interface EmbedInput {
  pdf: Uint8Array;
  xml: Uint8Array;
  profile: ZugferdProfile;
  /** Title (the invoice number), author (the seller), subject. */
  title: string;
  author?: string;
  subject?: string;
  now: Date;
}

export interface Embedded {
  pdf: Uint8Array;
  /** What became of the files the input PDF already carried. */
  attachments: AttachmentNote[];
}

export const PRODUCER = 'einvoice-service (pdf-lib)';

export function embedInvoiceXml(input: EmbedInput): Promise<Embedded> {
  return readingUntrusted(() => embed(input));
}

async function embed(input: EmbedInput): Promise<Embedded> {
  const doc = await loadPdf(input.pdf);
  const { context, catalog } = doc;
  const facts = PROFILE_FACTS[input.profile];

  const fileSpec = context.register(
    context.obj({
      Type: 'Filespec',
      F: PDFString.of(facts.fileName),
      UF: PDFHexString.fromText(facts.fileName),
      Desc: PDFString.of(`${input.profile === 'XRECHNUNG' ? 'XRechnung' : 'Factur-X'} invoice (${facts.xmpLevel})`),
      AFRelationship: facts.relationship,
      EF: {},
    }),
  );
  const embedded = context.register(
    context.flateStream(input.xml, {
      Type: 'EmbeddedFile',
      Subtype: 'text/xml',
      Params: { Size: input.xml.length, ModDate: PDFString.fromDate(input.now) },
    }),
  );
  const ef = lookupDict(context, context.lookup(fileSpec, PDFDict).get(PDFName.of('EF')))!;
  ef.set(PDFName.of('F'), embedded);
  ef.set(PDFName.of('UF'), embedded);

  const attachments = settleAttachments(doc, { key: facts.fileName, value: fileSpec }, input.now);
  await ensureOutputIntent(context, catalog);

  const info: DocumentInfo = {
    title: input.title,
    author: input.author,
    subject: input.subject,
    creator: doc.getCreator() || PRODUCER,
    producer: PRODUCER,
    created: doc.getCreationDate() ?? input.now,
    modified: input.now,
  };
  writeInfo(context, info);
  // Derived from what goes in, not drawn at random: the same build (a retried step) gives the same bytes.
  const derived = (purpose: string) =>
    createHash('sha256').update(`${purpose}\n${input.now.toISOString()}\n`).update(input.pdf).update(input.xml).digest('hex').slice(0, 32);
  const documentId = existingDocumentId(context) ?? derived('document');
  const xmp = buildXmp({
    info,
    profile: input.profile,
    documentId: `uuid:${toUuid(documentId)}`,
    instanceId: `uuid:${toUuid(derived('instance'))}`,
  });
  catalog.set(PDFName.of('Metadata'), context.register(context.stream(Buffer.from(xmp, 'utf8'), { Type: 'Metadata', Subtype: 'XML' })));
  // PDF/A: the trailer ID is required; the first half identifies the document, the second this version.
  context.trailerInfo.ID = context.obj([PDFHexString.of(documentId), PDFHexString.of(derived('version'))]);

  dropUnreachable(context);
  const pdf = await doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
  return { pdf, attachments };
}

/**
 * pdf-lib writes every object it holds, referenced or not, and validators read (and judge) them
 * all: a file specification of a replaced or removed attachment, an old name tree node, the
 * replaced Info dictionary and XMP packet. Only what the trailer reaches is written.
 */
function dropUnreachable(context: PDFContext): void {
  const reached = new Set<PDFRef>(); // pdf-lib interns references: one PDFRef per object number
  const pending: PDFObject[] = [
    context.trailerInfo.Root,
    context.trailerInfo.Info,
    context.trailerInfo.Encrypt,
    context.trailerInfo.ID,
  ].filter((o): o is PDFObject => o !== undefined);
  for (let obj = pending.pop(); obj !== undefined; obj = pending.pop()) {
    if (obj instanceof PDFRef) {
      if (reached.has(obj)) continue;
      reached.add(obj);
      const target = context.lookup(obj);
      if (target) pending.push(target);
    } else if (obj instanceof PDFDict) {
      for (const value of obj.values()) pending.push(value);
    } else if (obj instanceof PDFArray) {
      for (const value of obj.asArray()) pending.push(value);
    } else if (obj instanceof PDFStream) {
      pending.push(obj.dict);
    }
  }
  for (const [ref] of context.enumerateIndirectObjects()) if (!reached.has(ref)) context.delete(ref);
}

/** PDF/A inputs normally carry an OutputIntent; one without gets the sRGB profile Ghostscript uses. */
async function ensureOutputIntent(context: PDFContext, catalog: PDFDict): Promise<void> {
  const intents = lookupArray(context, catalog.get(PDFName.of('OutputIntents')));
  if (!intents || intents.size() === 0) await setSrgbOutputIntent(context, catalog);
}

/** A fresh Info dictionary holding exactly what the XMP packet repeats (PDF/A demands they agree). */
function writeInfo(context: PDFContext, info: DocumentInfo): void {
  const dict = context.obj({
    Title: PDFHexString.fromText(info.title),
    ...(info.author !== undefined ? { Author: PDFHexString.fromText(info.author) } : {}),
    ...(info.subject !== undefined ? { Subject: PDFHexString.fromText(info.subject) } : {}),
    Creator: PDFHexString.fromText(info.creator),
    Producer: PDFHexString.fromText(info.producer),
    CreationDate: PDFString.fromDate(info.created),
    ModDate: PDFString.fromDate(info.modified),
  });
  context.trailerInfo.Info = context.register(dict);
}

function existingDocumentId(context: PDFContext): string | undefined {
  const id = lookupArray(context, context.trailerInfo.ID as PDFObject | undefined)?.get(0);
  const hex =
    id instanceof PDFHexString ? id.asString() : id instanceof PDFString ? Buffer.from(id.asString(), 'latin1').toString('hex') : undefined;
  return hex && /^[0-9a-fA-F]{32}$/.test(hex) ? hex.toLowerCase() : undefined;
}

function toUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
