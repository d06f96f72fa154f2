import type { Invoice } from '../invoice/model.js';
import { Decimal } from '../invoice/decimal.js';
import { leaves } from '../invoice/paths.js';

/** A value a person changed, added or removed in review: what the analysis read, and what was confirmed. */
export interface ValueCorrection {
  path: string;
  read?: string;
  confirmed?: string;
}

/**
 * What a person changed of an analysis' reading before the e-invoice was created: every path
 * whose value differs, in the order of the confirmed invoice, then the values removed. The
 * values left as read were confirmed as they stand.
 */
export function correctionsOf(read: Invoice, confirmed: Invoice): ValueCorrection[] {
  const [before, after] = [leaves(read), leaves(confirmed)];
  const changed = [...after].filter(([path, value]) => !sameValue(before.get(path), value));
  const removed = [...before].filter(([path]) => !after.has(path));
  return [
    ...changed.map(([path, value]) => ({ path, ...(before.has(path) ? { read: before.get(path)! } : {}), confirmed: value })),
    ...removed.map(([path, value]) => ({ path, read: value })),
  ];
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

/** An amount is the same however many zeros follow its point ("472.90" read, 472.9 sent back as a JSON number). */
function sameValue(read: string | undefined, confirmed: string): boolean {
  if (read === confirmed) return true;
  return read !== undefined && DECIMAL.test(read) && DECIMAL.test(confirmed) && new Decimal(read).eq(confirmed);
}
