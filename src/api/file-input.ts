import { fileTooLarge } from '../jobs/intake/file.js';
import { ApiError, fromRefusal } from './errors.js';

/** The V2 file field and its aliases, in the order they are checked (each described in the OpenAPI document). */
export const FILE_FIELD_ALIASES = ['pdfInvoiceBase64', 'invoiceBase64', 'fileBase64'] as const;

export interface FileFieldRules {
  fields: readonly string[];
  /** The operation's limit (src/jobs/intake/file.ts), checked here before decoding. */
  maxBytes: number;
}

export interface FileInput {
  field: string;
  bytes: Buffer;
}

const DATA_URL_PREFIX = /^data:[^,]*;base64,/i;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * The shared input rules for base64 file fields: alias order, data-URL prefix, whitespace and
 * line breaks, the size limit checked before decoding. Every rejection is cheap, so bad input is
 * answered fast; the job checks the file's type.
 */
export function readFileField(body: Record<string, unknown>, rules: FileFieldRules): FileInput {
  const field = rules.fields.find((f) => body[f] !== undefined && body[f] !== null && body[f] !== '');
  if (!field)
    throw new ApiError('FILE_MISSING', {
      detail: `Send the file as base64 in "${rules.fields[0]}".`,
      fields: [{ field: rules.fields[0]!, message: 'required' }],
    });
  const value = body[field];
  if (typeof value !== 'string') throw new ApiError('VALIDATION_ERROR', { fields: [{ field, message: 'must be a base64 string' }] });

  const base64 = toStandardBase64(value.replace(DATA_URL_PREFIX, '').replace(/\s+/g, ''));
  if (!BASE64.test(base64) || base64.length % 4 === 1)
    throw new ApiError('INVALID_BASE64', { detail: `"${field}" is not valid base64.`, fields: [{ field, message: 'not valid base64' }] });

  const size = decodedLength(base64);
  if (size > rules.maxBytes) throw fromRefusal(fileTooLarge(size, rules.maxBytes));
  const bytes = Buffer.from(base64, 'base64');
  if (bytes.length === 0) throw new ApiError('FILE_MISSING', { detail: `"${field}" is empty.` });
  return { field, bytes };
}

/** base64url is what many clients produce by accident; it decodes the same once mapped. */
function toStandardBase64(text: string): string {
  return text.replace(/-/g, '+').replace(/_/g, '/');
}

function decodedLength(base64: string): number {
  const padding = base64.endsWith('==') ? 2 : base64.endsWith('=') ? 1 : 0;
  return Math.floor((base64.length * 3) / 4) - padding;
}
