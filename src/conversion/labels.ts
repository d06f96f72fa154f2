import type { Invoice } from '../invoice/model.js';
import { Decimal } from '../invoice/decimal.js';
import { leaves } from '../invoice/paths.js';
import type { FieldReport } from '../operations/analysis.js';

/**
 * One value of an invoice a person confirmed in review, as a labelled example keeps it: the
 * field, the value confirmed (absent when the person removed it), what the analysis read there
 * and where on the page it stood, and whether the person changed it.
 */
export interface FieldLabel {
  path: string;
  value?: string;
  read?: string;
  place?: FieldReport['place'];
  changed: boolean;
}

/**
 * Every value of the confirmed invoice, in its order, then the values the person removed. An
 * amount sent back in another number format ("472.90" read, 472.9 confirmed) is no change.
 */
export function labelsOf(read: Invoice, confirmed: Invoice, fields: Readonly<Record<string, FieldReport>> = {}): FieldLabel[] {
  const [before, after] = [leaves(read), leaves(confirmed)];
  const label = (path: string, value: string | undefined): FieldLabel => {
    const was = before.get(path);
    const place = fields[path]?.place;
    return {
      path,
      ...(value !== undefined ? { value } : {}),
      ...(was !== undefined ? { read: was } : {}),
      ...(place ? { place } : {}),
      changed: value === undefined || !sameValue(was, value),
    };
  };
  return [
    ...[...after].map(([path, value]) => label(path, value)),
    ...[...before.keys()].filter((p) => !after.has(p)).map((p) => label(p, undefined)),
  ];
}

const DECIMAL = /^-?\d+(?:\.\d+)?$/;

function sameValue(read: string | undefined, confirmed: string): boolean {
  if (read === confirmed) return true;
  return read !== undefined && DECIMAL.test(read) && DECIMAL.test(confirmed) && new Decimal(read).eq(confirmed);
}
