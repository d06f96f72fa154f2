import { Decimal } from 'decimal.js';

/**
 * Money and quantities are decimal strings in the model ("1234.50"): they travel
 * through JSON, Temporal history and XML without ever becoming binary floats.
 * Arithmetic goes through decimal.js.
 */
export { Decimal };

/**
 * A JSON number of a request as written ("12.10"): the request parser (api/json-body.ts) keeps
 * numbers so, never as binary floats, and as numbers, so that the model can take them where a
 * number belongs and refuse them where text does.
 */
export class JsonNumber {
  constructor(readonly text: string) {}
}

const DECIMAL_TEXT = /^[+-]?(\d+(\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;

/** Largest number of significant digits we accept: 19 integer + fraction digits is plenty for money. */
const MAX_SIGNIFICANT_DIGITS = 28;

export function isDecimalText(text: string): boolean {
  if (!DECIMAL_TEXT.test(text)) return false;
  const d = new Decimal(text);
  return d.isFinite() && d.precision(true) <= MAX_SIGNIFICANT_DIGITS;
}

/** Canonical plain-notation form: no exponent, no leading '+', trailing fraction zeros kept as given. */
export function canonicalDecimal(text: string): string {
  const d = new Decimal(text.trim());
  return d.toFixed(Math.max(d.decimalPlaces(), fractionDigits(text)));
}

function fractionDigits(text: string): number {
  const m = /\.(\d*)(?:[eE]|$)/.exec(text.trim());
  return m?.[1]?.length ?? 0;
}

/** Amounts in XML: at most two fraction digits are allowed for BT-106..BT-117 and friends; we never round silently elsewhere. */
export function toAmount(text: string, digits = 2): string {
  return new Decimal(text).toDecimalPlaces(digits, Decimal.ROUND_HALF_UP).toFixed(digits);
}

export function sum(values: Iterable<string | undefined>): Decimal {
  let total = new Decimal(0);
  for (const v of values) if (v !== undefined) total = total.plus(v);
  return total;
}
