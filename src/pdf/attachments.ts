import {
  PDFArray,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFNumber,
  PDFString,
  type PDFContext,
  type PDFDocument,
  type PDFObject,
  type PDFStream,
} from 'pdf-lib';
import { invoiceSyntaxOf } from '../xml/index.js';
import { INVOICE_FILE_NAMES } from './profiles.js';
import {
  lookupArray,
  lookupDict,
  lookupStream,
  nameOf,
  nameTreeEntries,
  streamBytes,
  StreamTooLargeError,
  textOf,
  type NameTreeEntry,
} from './structure.js';
import { isZugferd1 } from './zugferd1.js';

/**
 * What becomes of the files a PDF already carries when the invoice XML is embedded.
 *
 * PDF/A-3 (ISO 19005-3, 6.8) allows embedded files of any kind, provided that the embedded file
 * stream names its MIME type (Subtype), the file specification has F, UF and an AFRelationship,
 * and the file is associated with the document (listed in an AF array). Office suites and older
 * e-invoice tools attach files without some of that, and veraPDF then rejects the whole PDF. So:
 *
 * - an earlier invoice XML (under a name the standards use, or any XML whose root is a CII or UBL
 *   invoice) is removed: the PDF carries exactly one invoice, the new one;
 * - every other attachment is kept and completed where it falls short: a MIME type from its file
 *   name's extension, Params with ModDate and Size, AFRelationship Unspecified, an entry in the
 *   catalog's AF array;
 * - an attachment that cannot be completed (no embedded content, content that cannot be decoded
 *   or is too large to check) is removed.
 *
 * Attachments are found in the EmbeddedFiles name tree, the catalog's AF array and file
 * attachment annotations. Every decision comes back as a note the API shows.
 */

export type AttachmentAction = 'replaced' | 'kept' | 'dropped';

export interface AttachmentNote {
  fileName: string;
  action: AttachmentAction;
  /** In words: what was completed, or why the file was removed. */
  detail: string;
}

/** Decoding a kept attachment checks that it is readable and gives its Size; larger ones are not kept. */
export const MAX_ATTACHMENT_BYTES = 50 * 1024 * 1024;

/** ISO 19005-3, 6.8: the AFRelationship values PDF/A-3 allows. */
const RELATIONSHIPS = new Set(['Source', 'Data', 'Alternative', 'Supplement', 'Unspecified']);

/** MIME type by file name extension; anything else is application/octet-stream. */
const MIME_TYPES: Readonly<Record<string, string>> = {
  pdf: 'application/pdf',
  xml: 'text/xml',
  txt: 'text/plain',
  csv: 'text/csv',
  htm: 'text/html',
  html: 'text/html',
  json: 'application/json',
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  tif: 'image/tiff',
  tiff: 'image/tiff',
  gif: 'image/gif',
  svg: 'image/svg+xml',
  zip: 'application/zip',
  eml: 'message/rfc822',
  rtf: 'application/rtf',
  doc: 'application/msword',
  docx: 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  xls: 'application/vnd.ms-excel',
  xlsx: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
  odt: 'application/vnd.oasis.opendocument.text',
  ods: 'application/vnd.oasis.opendocument.spreadsheet',
  p7s: 'application/pkcs7-signature',
};

export function mimeTypeOf(fileName: string): string {
  const extension = /\.([a-z0-9]+)$/i.exec(fileName)?.[1]?.toLowerCase();
  return (extension !== undefined && MIME_TYPES[extension]) || 'application/octet-stream';
}

/** RFC 6838 type/subtype; a Subtype that is not one is replaced like a missing one. */
const isMimeType = (value: string | undefined) =>
  value !== undefined && /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i.test(value);

const isInvoiceName = (name: string) => (INVOICE_FILE_NAMES as readonly string[]).includes(name.toLowerCase());

const isInvoiceXml = (bytes: Uint8Array) => {
  const text = Buffer.from(bytes).toString('utf8');
  return invoiceSyntaxOf(text) !== undefined || isZugferd1(text);
};

/** One file specification and every place that refers to it. */
interface FoundSpec {
  spec: PDFDict;
  /** Keys under which the EmbeddedFiles name tree lists it. */
  keys: string[];
  /** Listed in the catalog's AF array. */
  associated: boolean;
  /** File attachment annotations that point to it, with the Annots array holding each. */
  annotations: Array<{ annots: PDFArray; annot: PDFObject }>;
}

/**
 * Settles the document's attachments around the new invoice: the EmbeddedFiles name tree and
 * the catalog's AF array are rebuilt from the kept files plus `invoice`, removed files leave the
 * document (objects and annotations).
 */
export function settleAttachments(doc: PDFDocument, invoice: NameTreeEntry, now: Date): AttachmentNote[] {
  const { context, catalog } = doc;
  const names = lookupDict(context, catalog.get(PDFName.of('Names'))) ?? context.obj({});
  catalog.set(PDFName.of('Names'), names);
  const notes: AttachmentNote[] = [];
  const listed: NameTreeEntry[] = [invoice];
  const associated: PDFObject[] = [];
  for (const found of findSpecs(doc, lookupDict(context, names.get(PDFName.of('EmbeddedFiles'))))) {
    const note = settle(context, found, now);
    notes.push(note);
    if (note.action === 'kept') {
      const ref = context.getObjectRef(found.spec) ?? context.register(found.spec);
      for (const key of found.keys) listed.push({ key, value: ref });
      for (const { annot } of found.annotations) lookupDict(context, annot)?.set(PDFName.of('FS'), ref);
      associated.push(ref);
    } else {
      removeAnnotations(context, found);
    }
  }
  // Name trees must be sorted by key; one flat node holds them all.
  listed.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
  names.set(
    PDFName.of('EmbeddedFiles'),
    context.obj({ Names: context.obj(listed.flatMap((e) => [PDFHexString.fromText(e.key), e.value])) }),
  );
  catalog.set(PDFName.of('AF'), context.obj([...associated, invoice.value]));
  return notes;
}

function findSpecs(doc: PDFDocument, tree: PDFDict | undefined): FoundSpec[] {
  const { context, catalog } = doc;
  const found = new Map<PDFDict, FoundSpec>();
  const at = (stored: PDFObject | undefined): FoundSpec | undefined => {
    const spec = lookupDict(context, stored);
    if (!spec) return undefined;
    const entry = found.get(spec) ?? { spec, keys: [], associated: false, annotations: [] };
    found.set(spec, entry);
    return entry;
  };
  for (const { key, value } of nameTreeEntries(context, tree)) at(value)?.keys.push(key);
  for (const value of lookupArray(context, catalog.get(PDFName.of('AF')))?.asArray() ?? []) {
    const entry = at(value);
    if (entry) entry.associated = true;
  }
  for (const page of doc.getPages()) {
    const annots = lookupArray(context, page.node.get(PDFName.of('Annots')));
    for (let i = 0; annots && i < annots.size(); i++) {
      const annot = lookupDict(context, annots.get(i));
      if (annot && nameOf(annot.get(PDFName.of('Subtype'))) === 'FileAttachment')
        at(annot.get(PDFName.of('FS')))?.annotations.push({ annots, annot: annots.get(i) });
    }
  }
  return [...found.values()];
}

/** Decides on one attachment and, when it is kept, completes it in place. */
function settle(context: PDFContext, found: FoundSpec, now: Date): AttachmentNote {
  const { spec } = found;
  const named = textOf(spec.get(PDFName.of('UF'))) ?? textOf(spec.get(PDFName.of('F'))) ?? found.keys[0];
  const fileName = named?.trim() ? named : 'attachment';
  const note = (action: AttachmentAction, detail: string): AttachmentNote => ({ fileName, action, detail });
  // The name tree key counts too: readers look the invoice up by either.
  if (isInvoiceName(fileName) || found.keys.some(isInvoiceName))
    return note('replaced', 'an earlier invoice XML; the PDF carries the new invoice instead');

  const ef = lookupDict(context, spec.get(PDFName.of('EF')));
  const streams = [
    ...new Set((ef?.values() ?? []).map((value) => lookupStream(context, value)).filter((s): s is PDFStream => s !== undefined)),
  ];
  if (streams.length === 0)
    return note('dropped', 'removed: it has no embedded content (PDF/A allows no references to files outside the PDF)');
  const contents = new Map<PDFStream, Uint8Array>();
  for (const stream of streams) {
    try {
      contents.set(stream, streamBytes(stream, MAX_ATTACHMENT_BYTES));
    } catch (err) {
      if (err instanceof StreamTooLargeError)
        return note('dropped', `removed: its content is larger than ${MAX_ATTACHMENT_BYTES / 1024 / 1024} MB`);
      return note('dropped', `removed: its content cannot be decoded (${(err as Error).message})`);
    }
  }
  if (fileName.toLowerCase().endsWith('.xml') && streams.some((s) => isInvoiceXml(contents.get(s)!))) {
    return note('replaced', 'an earlier invoice XML; the PDF carries the new invoice instead');
  }

  const added: string[] = [];
  if (!textOf(spec.get(PDFName.of('F')))) {
    spec.set(PDFName.of('F'), PDFString.of(fileName.replace(/[^\x20-\x7e]/g, '_').replace(/[()\\]/g, '_')));
    added.push('file name (F)');
  }
  if (!textOf(spec.get(PDFName.of('UF')))) {
    spec.set(PDFName.of('UF'), PDFHexString.fromText(fileName));
    added.push('Unicode file name (UF)');
  }
  spec.set(PDFName.of('Type'), PDFName.of('Filespec'));
  if (!RELATIONSHIPS.has(nameOf(spec.get(PDFName.of('AFRelationship'))) ?? '')) {
    spec.set(PDFName.of('AFRelationship'), PDFName.of('Unspecified'));
    added.push('AFRelationship Unspecified');
  }
  for (const stream of streams) added.push(...completeStream(context, stream, contents.get(stream)!, fileName, now));
  if (!found.associated) added.push("entry in the catalog's AF array");
  const unique = [...new Set(added)];
  return note('kept', unique.length > 0 ? `kept as associated file; added ${unique.join(', ')}` : 'kept as associated file');
}

/** MIME type, ModDate and Size of an embedded file stream; returns what was missing. */
function completeStream(context: PDFContext, stream: PDFStream, bytes: Uint8Array, fileName: string, now: Date): string[] {
  const added: string[] = [];
  const { dict } = stream;
  dict.set(PDFName.of('Type'), PDFName.of('EmbeddedFile'));
  if (!isMimeType(nameOf(dict.get(PDFName.of('Subtype'))))) {
    const mime = mimeTypeOf(fileName);
    dict.set(PDFName.of('Subtype'), PDFName.of(mime));
    added.push(`MIME type ${mime}`);
  }
  let params = lookupDict(context, dict.get(PDFName.of('Params')));
  if (!params) {
    params = context.obj({});
    dict.set(PDFName.of('Params'), params);
  }
  if (textOf(params.get(PDFName.of('ModDate'))) === undefined) {
    params.set(PDFName.of('ModDate'), PDFString.fromDate(now));
    added.push('modification date');
  }
  const size = params.get(PDFName.of('Size'));
  if (!(size instanceof PDFNumber) || size.asNumber() !== bytes.length) {
    params.set(PDFName.of('Size'), PDFNumber.of(bytes.length));
    added.push('size');
  }
  return added;
}

/**
 * A removed file's annotations leave their pages. Its objects, no longer referred to, are left
 * out when the document is written (embed.ts).
 */
function removeAnnotations(context: PDFContext, found: FoundSpec): void {
  for (const { annots, annot } of found.annotations) {
    const index = annots.indexOf(annot);
    if (index !== undefined) annots.remove(index);
  }
}
