import { detectFileType, FILE_TYPE_LABEL, type FileType } from '../files/file-type.js';
import { ApiError } from './errors.js';

/** SPEC.md: 11 MB raw for the analysis endpoints ("about 14.7 MB base64"). */
export const MAX_FILE_BYTES = 11_000_000;
/** SPEC.md: 11 MiB decoded for createZugferdFromPdf. */
export const MAX_CONVERT_FILE_BYTES = 11 * 1024 * 1024;

/** The V2 file field and its aliases, in the order SPEC.md checks them. */
export const FILE_FIELD_ALIASES = ['pdfInvoiceBase64', 'invoiceBase64', 'fileBase64'] as const;

export interface FileRules {
  fields: readonly string[];
  maxBytes: number;
  accept: readonly FileType[];
}

export interface FileInput {
  field: string;
  type: FileType;
  bytes: Buffer;
}

const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The shared input rules for base64 file fields: alias order, data-URL prefix,
 * whitespace and line breaks, size limit checked before decoding, then the type
 * from the magic bytes. Every rejection is cheap, so bad input is answered fast.
 */
export function readFileField(body: Record<string, unknown>, rules: FileRules): FileInput {
  const field = rules.fields.find((f) => body[f] !== undefined && body[f] !== null && body[f] !== '');
  if (!field) throw new ApiError('FILE_MISSING', { detail: `Send the file as base64 in "${rules.fields[0]}".`, fields: [{ field: rules.fields[0]!, message: 'required' }] });
  const value = body[field];
  if (typeof value !== 'string') throw new ApiError('VALIDATION_ERROR', { fields: [{ field, message: 'must be a base64 string' }] });

  const base64 = toStandardBase64(value.replace(DATA_URL_PREFIX, '').replace(/\s+/g, ''));
  if (!BASE64.test(base64) || base64.length % 4 === 1) throw new ApiError('INVALID_BASE64', { detail: `"${field}" is not valid base64.`, fields: [{ field, message: 'not valid base64' }] });

  const size = decodedLength(base64);
  if (size > rules.maxBytes) {
    throw new ApiError('FILE_TOO_LARGE', { userMessage: `The file is larger than ${formatLimit(rules.maxBytes)}.`, detail: `The file has ${size} bytes; the limit is ${rules.maxBytes}.` });
  }
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw new ApiError('FILE_MISSING', { detail: `"${field}" is empty.` });

  const detected = detectFileType(bytes);
  const accepted = rules.accept.map((t) => FILE_TYPE_LABEL[t]).join(', ');
  if (!detected.supported) throw new ApiError('UNSUPPORTED_FILE_TYPE', { userMessage: `This file is a ${detected.label}; send ${accepted}.` });
  if (!rules.accept.includes(detected.type)) {
    throw new ApiError('UNSUPPORTED_FILE_TYPE', { userMessage: `${FILE_TYPE_LABEL[detected.type]} files are not accepted here; send ${accepted}.` });
  }
  return { field, type: detected.type, bytes };
}

/** base64url is what many clients produce by accident; it decodes the same once mapped. */
function toStandardBase64(text: string): string {
  return text.replace(/-/g, '+').replace(/_/g, '/');
}

function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}

function formatLimit(bytes: number): string {
  return bytes % (1024 * 1024) === 0 ? `${bytes / 1024 / 1024} MiB` : `${bytes / 1_000_000} MB`;
}
