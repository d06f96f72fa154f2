import { randomBytes, randomUUID } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { PDFDict, PDFHexString, PDFName, PDFRef, PDFString, type PDFContext, type PDFObject } from 'pdf-lib';
import { SRGB_ICC_PROFILE, SRGB_OUTPUT_CONDITION } from './ghostscript.js';
import { INVOICE_FILE_NAMES, PROFILE_FACTS, type ZugferdProfile } from './profiles.js';
import { loadPdf, lookupArray, lookupDict, nameTreeEntries, readingUntrusted, type NameTreeEntry } from './structure.js';
import { buildXmp, type DocumentInfo } from './xmp.js';

/**
 * Turns a PDF/A document into a ZUGFeRD / Factur-X PDF/A-3b: the invoice XML becomes an
 * associated file of the document (Names/EmbeddedFiles and the catalog's AF array, with the
 * profile's AFRelationship), the XMP packet is replaced by one that declares PDF/A-3b and the
 * Factur-X properties, the Info dictionary is rewritten to match it, and the trailer gets an ID.
 *
 * The input must already be PDF/A (any part); ghostscript.ts converts what is not. Earlier
 * invoice attachments are replaced, so building twice does not leave two invoices behind.
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

export const PRODUCER = 'einvoice-service (pdf-lib)';

export function embedInvoiceXml(input: EmbedInput): Promise<Uint8Array> {
  return readingUntrusted(() => embed(input));
}

async function embed(input: EmbedInput): Promise<Uint8Array> {
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

  replaceInvoiceAttachments(context, catalog, { key: facts.fileName, value: fileSpec });
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
  const documentId = existingDocumentId(context) ?? randomBytes(16).toString('hex');
  const xmp = buildXmp({ info, profile: input.profile, documentId: `uuid:${toUuid(documentId)}`, instanceId: `uuid:${randomUUID()}` });
  catalog.set(PDFName.of('Metadata'), context.register(context.stream(Buffer.from(xmp, 'utf8'), { Type: 'Metadata', Subtype: 'XML' })));
  // PDF/A: the trailer ID is required; the first half identifies the document, the second this version.
  context.trailerInfo.ID = context.obj([PDFHexString.of(documentId), PDFHexString.of(randomBytes(16).toString('hex'))]);

  return doc.save({ useObjectStreams: false, addDefaultPage: false, updateFieldAppearances: false });
}

const isInvoiceName = (name: string) => (INVOICE_FILE_NAMES as readonly string[]).includes(name.toLowerCase());

/**
 * Rebuilds Names/EmbeddedFiles as one flat, sorted node (name trees must be sorted by key) that
 * keeps every other attachment, and keeps the catalog's AF array in step.
 */
function replaceInvoiceAttachments(context: PDFContext, catalog: PDFDict, entry: NameTreeEntry): void {
  const names = lookupDict(context, catalog.get(PDFName.of('Names'))) ?? context.obj({});
  catalog.set(PDFName.of('Names'), names);
  const tree = lookupDict(context, names.get(PDFName.of('EmbeddedFiles')));
  const existing = nameTreeEntries(context, tree);
  const dropped = existing.filter((e) => isInvoiceName(e.key)).map((e) => e.value);
  const kept = [...existing.filter((e) => !isInvoiceName(e.key)), entry].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  const flat: PDFObject[] = kept.flatMap((e) => [PDFHexString.fromText(e.key), e.value]);
  names.set(PDFName.of('EmbeddedFiles'), context.obj({ Names: context.obj(flat) }));

  const af = lookupArray(context, catalog.get(PDFName.of('AF')));
  const keptAf = (af?.asArray() ?? []).filter((ref) => !dropped.some((d) => d === ref));
  catalog.set(PDFName.of('AF'), context.obj([...keptAf, entry.value]));
  // pdf-lib writes every object it holds, referenced or not; a left-over file specification
  // would still be read (and judged) as an associated file.
  for (const spec of dropped) deleteFileSpec(context, spec);
}

function deleteFileSpec(context: PDFContext, spec: PDFObject): void {
  const ef = lookupDict(context, lookupDict(context, spec)?.get(PDFName.of('EF')));
  for (const key of ['F', 'UF']) {
    const stream = ef?.get(PDFName.of(key));
    if (stream instanceof PDFRef) context.delete(stream);
  }
  if (spec instanceof PDFRef) context.delete(spec);
}

/** PDF/A inputs normally carry an OutputIntent; one without gets the sRGB profile Ghostscript uses. */
async function ensureOutputIntent(context: PDFContext, catalog: PDFDict): Promise<void> {
  const intents = lookupArray(context, catalog.get(PDFName.of('OutputIntents')));
  if (intents && intents.size() > 0) return;
  const icc = await readFile(SRGB_ICC_PROFILE).catch(() => {
    throw new Error(`${SRGB_ICC_PROFILE} is missing: run scripts/setup-pdf.sh`);
  });
  const profile = context.register(context.flateStream(icc, { N: 3 }));
  const intent = context.obj({
    Type: 'OutputIntent',
    S: 'GTS_PDFA1',
    OutputConditionIdentifier: PDFString.of(SRGB_OUTPUT_CONDITION),
    Info: PDFString.of(SRGB_OUTPUT_CONDITION),
    DestOutputProfile: profile,
  });
  catalog.set(PDFName.of('OutputIntents'), context.obj([intent]));
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
  const hex = id instanceof PDFHexString ? id.asString() : id instanceof PDFString ? Buffer.from(id.asString(), 'latin1').toString('hex') : undefined;
  return hex && /^[0-9a-fA-F]{32}$/.test(hex) ? hex.toLowerCase() : undefined;
}

function toUuid(hex: string): string {
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`;
}
