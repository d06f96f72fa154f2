import { Decimal } from '../invoice/decimal.js';
import { safeFileStem } from '../files/names.js';
import type { AttrSpec, Codec, ModelObject } from './mapping.js';

/**
 * Code-list conversions and inferences the model leaves to the syntax: pure functions, and
 * the codecs and attributes built on them that the CII and UBL descriptions share.
 */

// ---------------------------------------------------------------------------------------
// Electronic addresses (BT-34, BT-49)

/** A Leitweg-ID: coarse address (2-12 digits), optional fine address, two check digits. */
const LEITWEG_ID = /^\d{2,12}(-[0-9A-Za-z]{1,30})?-\d{2}$/;
const GLN = /^\d{13}$/;
/** Explicit `scheme:identifier`, for addresses whose scheme cannot be inferred (CEF EAS codes). */
const EXPLICIT = /^(\d{4}|EM|AN|AQ|AS|AU):(.+)$/;

/**
 * The model has no scheme fields for electronic addresses (BT-34-1, BT-49-1), so the writer
 * infers them: an explicit `scheme:identifier` prefix wins (e.g. `9930:DE123456789`);
 * anything with an '@' is an e-mail address (EM); a Leitweg-ID gets 0204; a 13-digit number
 * is a GLN (0088); everything else is taken as a mail-like address (EM), XRechnung's most
 * widely accepted scheme.
 */
export function endpointScheme(address: string): string {
  const explicit = EXPLICIT.exec(address);
  if (explicit) return explicit[1]!;
  if (address.includes('@')) return 'EM';
  if (LEITWEG_ID.test(address)) return '0204';
  if (GLN.test(address)) return '0088';
  return 'EM';
}

/** The identifier part that goes into the element text. */
export function endpointIdentifier(address: string): string {
  return EXPLICIT.exec(address)?.[2] ?? address;
}

/** Back to the model form: the prefix is kept only when inference would not restore the scheme. */
export function endpointFromXml(identifier: string, scheme: string | undefined): string {
  return scheme === undefined || endpointScheme(identifier) === scheme ? identifier : `${scheme}:${identifier}`;
}

/** Leaf options for an electronic address: identifier as text, inferred scheme as schemeID. */
export const electronicAddress: { codec: Codec; attrs: Record<string, AttrSpec> } = {
  codec: {
    write: (value) => (typeof value === 'string' ? endpointIdentifier(value) : undefined),
    parse: (text, attr) => endpointFromXml(text, attr('schemeID')),
  },
  attrs: { schemeID: { derive: (value) => (typeof value === 'string' ? endpointScheme(value) : undefined) } },
};

// ---------------------------------------------------------------------------------------
// Document types

/** UNTDID 1001 codes EN 16931 binds to the UBL CreditNote document. */
const CREDIT_NOTE_TYPES = new Set(['81', '83', '261', '262', '296', '308', '381', '396', '420', '458', '532']);

export function isCreditNoteType(typeCode: string | undefined): boolean {
  return typeCode !== undefined && CREDIT_NOTE_TYPES.has(typeCode);
}

// ---------------------------------------------------------------------------------------
// VAT point date code (BT-8)

/**
 * BT-8 is UNTDID 2005 in EN 16931 and UBL (3 invoice date, 35 delivery date, 432 paid to date);
 * CII carries the UNTDID 2475 equivalents (5, 29, 72). The model accepts both, each syntax
 * writes its own, and parsing always yields the EN 16931 (2005) code.
 */
const VAT_DATE_2005_TO_2475: Readonly<Record<string, string>> = { '3': '5', '35': '29', '432': '72' };
const VAT_DATE_2475_TO_2005: Readonly<Record<string, string>> = { '5': '3', '29': '35', '72': '432' };

const mapCode = (table: Readonly<Record<string, string>>) => (value: unknown) =>
  typeof value === 'string' ? (table[value] ?? value) : undefined;

export const vatDateCodeCii: Codec = { write: mapCode(VAT_DATE_2005_TO_2475), parse: (text) => VAT_DATE_2475_TO_2005[text] ?? text };
export const vatDateCodeUbl: Codec = { write: mapCode(VAT_DATE_2475_TO_2005), parse: (text) => text };

// ---------------------------------------------------------------------------------------
// Item price (BG-29): net = gross - discount

const fractionDigits = (value: string) => /\.(\d+)$/.exec(value)?.[1]?.length ?? 0;

function exactDifference(price: ModelObject, result: (a: Decimal, b: Decimal) => Decimal, a: string, b: string): string | undefined {
  const x = price[a];
  const y = price[b];
  if (typeof x !== 'string' || typeof y !== 'string') return undefined;
  return result(new Decimal(x), new Decimal(y)).toFixed(Math.max(fractionDigits(x), fractionDigits(y)));
}

/** BT-147 for UBL, which knows a gross price only as the base of a discount whose amount is mandatory. */
export const priceDiscountOf = (price: ModelObject) =>
  exactDifference(price, (gross, net) => gross.minus(net), 'itemGrossPrice', 'itemNetPrice');

/** BT-148 for CII, which knows a discount only inside a gross price whose amount is mandatory. */
export const grossPriceOf = (price: ModelObject) =>
  exactDifference(price, (net, discount) => net.plus(discount), 'itemNetPrice', 'itemPriceDiscount');

// ---------------------------------------------------------------------------------------
// Attachments (BT-125)

const SIGNATURES: Array<[prefix: number[], mime: string]> = [
  [[0x25, 0x50, 0x44, 0x46], 'application/pdf'],
  [[0x89, 0x50, 0x4e, 0x47], 'image/png'],
  [[0xff, 0xd8, 0xff], 'image/jpeg'],
];
const ZIP = [0x50, 0x4b, 0x03, 0x04];
const ODS = 'mimetypeapplication/vnd.oasis.opendocument.spreadsheet';

const EXTENSIONS: Readonly<Record<string, string>> = {
  'application/pdf': '.pdf',
  'image/png': '.png',
  'image/jpeg': '.jpg',
  'text/csv': '.csv',
  'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet': '.xlsx',
  'application/vnd.oasis.opendocument.spreadsheet': '.ods',
};

const startsWith = (bytes: Buffer, prefix: number[]) => prefix.every((b, i) => bytes[i] === b);

/**
 * The model's attachedDocument is only the base64 content, so the MIME code (BT-125-1) is
 * sniffed from the magic bytes among the codes EN 16931 allows: PDF, PNG, JPEG, and for ZIP
 * containers ODS (whose first entry names its type) or else XLSX; anything else is CSV,
 * the only textual type allowed.
 */
export function attachmentMimeCode(base64: string): string {
  const head = Buffer.from(base64.replace(/\s+/g, '').slice(0, 120), 'base64');
  const known = SIGNATURES.find(([prefix]) => startsWith(head, prefix));
  if (known) return known[1];
  if (startsWith(head, ZIP)) {
    return head.subarray(30, 30 + ODS.length).toString('latin1') === ODS
      ? 'application/vnd.oasis.opendocument.spreadsheet'
      : 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
  }
  return 'text/csv';
}

/**
 * The file name (BT-125-2) is the document reference (BT-122) made file-system safe, with
 * the extension of the sniffed type. XRechnung wants unique names (BR-DE-22), so a name two
 * documents would share gets the document's position appended.
 */
export function attachmentFileName(
  reference: string | undefined,
  base64: string,
  position: number,
  allReferences: ReadonlyArray<string | undefined>,
): string {
  const base = safeName(reference);
  const shared = allReferences.filter((r) => safeName(r) === base).length > 1;
  return `${base}${shared ? `-${position + 1}` : ''}${EXTENSIONS[attachmentMimeCode(base64)]}`;
}

/** Without leading dots and underscores: an embedded file's name must not make it a hidden one. */
function safeName(reference: string | undefined): string {
  return safeFileStem(reference)?.replace(/^[._]+/, '') || 'attachment';
}

/** MIME code and file name of an embedded supporting document; `scope` is its BG-24 object. */
export const attachmentAttrs: Record<string, AttrSpec> = {
  mimeCode: { derive: (value) => (typeof value === 'string' ? attachmentMimeCode(value) : undefined) },
  filename: {
    derive: (value, scope, root) => {
      if (typeof value !== 'string') return undefined;
      const documents = (root['additionalSupportingDocuments'] ?? []) as ModelObject[];
      const references = documents.map((d) => d['supportingDocumentReference'] as string | undefined);
      return attachmentFileName(scope['supportingDocumentReference'] as string | undefined, value, documents.indexOf(scope), references);
    },
  },
};
