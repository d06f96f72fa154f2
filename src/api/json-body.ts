import type { IncomingMessage } from 'node:http';
import getRawBody from 'raw-body';
import { JsonNumber } from '../invoice/decimal.js';
import { ApiError } from './errors.js';

/** The platform limit (README, Guarantees): no endpoint reads more than 16 MB. */
export const MAX_BODY_BYTES = 16 * 1024 * 1024;

/**
 * Reads and parses a JSON request body. Numbers are kept as their exact source
 * text (e.g. "12.10", as JsonNumber), so amounts never pass through binary floating
 * point; the invoice model turns them into canonical decimals. The body is UTF-8:
 * another charset is refused, not misread.
 */
export async function readJsonBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<unknown> {
  const type = req.headers['content-type'] ?? '';
  if (!/^application\/(?:[\w.+-]+\+)?json\s*(?:;|$)/i.test(type)) {
    throw new ApiError('UNSUPPORTED_CONTENT_TYPE', { detail: `Content-Type was "${type || 'missing'}"` });
  }
  const charset = /;\s*charset\s*=\s*"?([^";\s]+)/i.exec(type)?.[1];
  if (charset && !/^utf-?8$/i.test(charset)) {
    throw new ApiError('UNSUPPORTED_CONTENT_TYPE', {
      detail: `Content-Type names charset=${charset}; the body must be UTF-8 (charset=utf-8, or none).`,
    });
  }
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    // Refuse before reading a byte: a client sending 50 MB gets its answer at once.
    throw new ApiError('BODY_TOO_LARGE', { detail: `The body has ${declared} bytes; the limit is ${limit}.` });
  }
  let text: string;
  try {
    text = await getRawBody(req, { limit, encoding: 'utf-8' });
  } catch (err) {
    if ((err as { type?: string }).type === 'entity.too.large') {
      throw new ApiError('BODY_TOO_LARGE', { detail: `The limit is ${limit} bytes.` });
    }
    throw err;
  }
  return parseJsonLossless(text);
}

export function parseJsonLossless(text: string): unknown {
  try {
    return JSON.parse(text, (_key, value: unknown, context?: { source?: string }) =>
      typeof value === 'number' && context?.source !== undefined ? new JsonNumber(context.source) : value,
    );
  } catch (err) {
    throw new ApiError('INVALID_JSON', { detail: (err as Error).message });
  }
}
