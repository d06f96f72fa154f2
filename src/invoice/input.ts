import { z } from 'zod';
import { JsonNumber } from './decimal.js';
import { invoiceSchema } from './model.js';

/**
 * The invoice as the create endpoints take it. Besides the model's own leniency (dates as
 * YYYY-MM-DD, DD.MM.YYYY or YYYYMMDD; amounts as JSON numbers or strings), `null`, an object
 * with nothing in it and an empty list mean "absent": that is how the analysis endpoints answer
 * a field they did not find (V1 lists every field, null where nothing was found), so their
 * answer goes back into a create endpoint as it is.
 */
export const invoiceInputSchema = z
  .preprocess(
    (value) => (value === null || typeof value !== 'object' || value instanceof JsonNumber ? value : (withoutAbsent(value) ?? {})),
    invoiceSchema,
  )
  .meta({ description: 'EN 16931 invoice; null, {} and [] count as absent, so an analysis answer (V1 or V2) can be sent as it is' });

function withoutAbsent(value: unknown): unknown {
  if (value === null) return undefined;
  if (Array.isArray(value)) {
    const items = value.map(withoutAbsent).filter((v) => v !== undefined);
    return items.length > 0 ? items : undefined;
  }
  if (typeof value === 'object' && !(value instanceof JsonNumber)) {
    const entries = Object.entries(value as Record<string, unknown>)
      .map(([k, v]) => [k, withoutAbsent(v)] as const)
      .filter(([, v]) => v !== undefined);
    return entries.length > 0 ? Object.fromEntries(entries) : undefined;
  }
  return value;
}
