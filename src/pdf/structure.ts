import { constants, inflateSync } from 'node:zlib';
import {
  decodePDFRawStream,
  EncryptedPDFError,
  PDFArray,
  PDFDocument,
  PDFDict,
  PDFHexString,
  PDFName,
  PDFRawStream,
  PDFRef,
  PDFStream,
  PDFString,
  type PDFContext,
  type PDFObject,
} from 'pdf-lib';

/**
 * Small readers over pdf-lib's object model, shared by embedding and reading: name trees, text
 * strings and stream contents. Every reader is defensive: in an untrusted file any object may
 * have the wrong type, and a wrong type means "absent", never an exception deep inside.
 */

/** The input PDF cannot be used (unreadable, encrypted, not convertible to PDF/A-3b); the message says why in words a user can act on. */
export class PdfInputError extends Error {
  override name = 'PdfInputError';
}

/** Loads without touching the Info dictionary (pdf-lib would set its own Producer and dates). */
export async function loadPdf(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (err) {
    if (err instanceof EncryptedPDFError)
      throw new PdfInputError('The PDF is encrypted; PDF/A forbids encryption. Send the PDF without a password or restrictions.');
    throw new PdfInputError(`The PDF cannot be read: ${(err as Error).message}`);
  }
}

/**
 * pdf-lib assumes well-formed structures and fails with TypeErrors deep inside on broken ones;
 * for an untrusted file that is a property of the file, so it becomes a PdfInputError.
 */
export async function readingUntrusted<T>(body: () => Promise<T>): Promise<T> {
  try {
    return await body();
  } catch (err) {
    if (err instanceof PdfInputError || err instanceof StreamTooLargeError) throw err;
    throw new PdfInputError(`The PDF structure is broken: ${(err as Error).message}`);
  }
}

/** Decodes a text string (PDFDocEncoding or UTF-16BE with BOM); undefined for anything else. */
export function textOf(obj: PDFObject | undefined): string | undefined {
  return obj instanceof PDFString || obj instanceof PDFHexString ? obj.decodeText() : undefined;
}

export function lookupDict(context: PDFContext, obj: PDFObject | undefined): PDFDict | undefined {
  const resolved = obj instanceof PDFRef ? context.lookup(obj) : obj;
  return resolved instanceof PDFDict ? resolved : undefined;
}

export function lookupArray(context: PDFContext, obj: PDFObject | undefined): PDFArray | undefined {
  const resolved = obj instanceof PDFRef ? context.lookup(obj) : obj;
  return resolved instanceof PDFArray ? resolved : undefined;
}

export function nameOf(obj: PDFObject | undefined): string | undefined {
  return obj instanceof PDFName ? obj.decodeText() : undefined;
}

export interface NameTreeEntry {
  key: string;
  /** As stored: usually a reference to the value (for EmbeddedFiles a file specification). */
  value: PDFObject;
}

/** Name trees nest through Kids; a malicious file can make them cyclic or absurdly deep. */
const MAX_TREE_NODES = 10_000;

/** All leaf entries of a name tree, in document order. */
export function nameTreeEntries(context: PDFContext, root: PDFDict | undefined): NameTreeEntry[] {
  const entries: NameTreeEntry[] = [];
  const seen = new Set<PDFDict>();
  const visit = (node: PDFDict | undefined) => {
    if (!node || seen.has(node) || seen.size >= MAX_TREE_NODES) return;
    seen.add(node);
    const names = lookupArray(context, node.get(PDFName.of('Names')));
    for (let i = 0; names && i + 1 < names.size(); i += 2) {
      const key = textOf(names.get(i));
      if (key !== undefined) entries.push({ key, value: names.get(i + 1) });
    }
    const kids = lookupArray(context, node.get(PDFName.of('Kids')));
    for (let i = 0; kids && i < kids.size(); i++) visit(lookupDict(context, kids.get(i)));
  };
  visit(root);
  return entries;
}

/** A stream whose decoded content exceeds what the caller allows (a decompression bomb, or just too large). */
export class StreamTooLargeError extends Error {
  override name = 'StreamTooLargeError';
}

/**
 * The decoded bytes of a stream, at most `maxBytes` of them. Flate, by far the most common
 * filter, is inflated by zlib with an output limit, so a bomb never gets allocated; the rarer
 * filters go through pdf-lib's decoders and are measured afterwards.
 */
export function streamBytes(stream: PDFStream, maxBytes: number): Uint8Array {
  if (!(stream instanceof PDFRawStream)) return stream.getContents();
  const filter = stream.dict.get(PDFName.of('Filter'));
  const filters = filter instanceof PDFArray ? filter.asArray().map(nameOf) : [nameOf(filter)];
  const plainFlate = filters.length === 1 && filters[0] === 'FlateDecode' && !stream.dict.has(PDFName.of('DecodeParms'));
  let bytes: Uint8Array;
  try {
    if (filter === undefined) bytes = stream.contents;
    else if (plainFlate) bytes = inflateSync(stream.contents, { maxOutputLength: maxBytes, finishFlush: constants.Z_SYNC_FLUSH });
    else bytes = decodePDFRawStream(stream).decode();
  } catch (err) {
    if (err instanceof RangeError) throw new StreamTooLargeError(`stream content exceeds ${maxBytes} bytes`);
    throw err;
  }
  if (bytes.length > maxBytes) throw new StreamTooLargeError(`stream content exceeds ${maxBytes} bytes`);
  return bytes;
}

export function lookupStream(context: PDFContext, obj: PDFObject | undefined): PDFStream | undefined {
  const resolved = obj instanceof PDFRef ? context.lookup(obj) : obj;
  return resolved instanceof PDFStream ? resolved : undefined;
}
