import { ERROR_CODES, errorEnvelopeSchema, invoiceIncompleteSchema } from './errors.js';
import type { ResponseSpec } from './route.js';

const STATUS_TEXT: Record<number, string> = {
  400: 'Invalid request',
  401: 'Missing or unknown token',
  403: 'Wrong authentication scheme, or invalid link',
  404: 'Not found',
  409: 'Conflict',
  412: 'The invoice lacks mandatory fields',
  413: 'Body or file too large',
  415: 'Unsupported content or file type',
  422: 'The request was understood but cannot be processed',
  503: 'Temporarily unavailable',
  504: 'Timed out',
};

/** Error responses for the OpenAPI document, each listing the codes that produce it. */
export function errorResponses(...statuses: number[]): Record<number, ResponseSpec> {
  return Object.fromEntries(
    statuses.map((status) => {
      const codes = Object.entries(ERROR_CODES)
        .filter(([, k]) => k.status === status)
        .map(([code]) => code);
      return [
        status,
        {
          description: `${STATUS_TEXT[status] ?? 'Error'} (${codes.join(', ')})`,
          schema: status === 412 ? invoiceIncompleteSchema : errorEnvelopeSchema,
        },
      ];
    }),
  );
}
