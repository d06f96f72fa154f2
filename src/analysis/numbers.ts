import { Decimal } from '../invoice/decimal.js';

/**
 * Numbers as invoices print them: 1.234,56 (de), 1,234.56 (en), 1 234,56 (fr), 1'234.56 (ch),
 * with signs in front, behind (2,00-) or as parentheses, with currency symbols and percent
 * signs. Values come out as canonical decimal strings; nothing becomes a float.
 */

/** Which character separates the decimals on this document. */
export type DecimalMark = ',' | '.';

export interface NumberMatch {
  /** Character range in the scanned text (including sign, currency symbol and percent sign). */
  start: number;
  end: number;
  /** Canonical decimal string with sign, e.g. "-1234.50". */
  value: string;
  /** Digits after the decimal mark as printed (0 for integers). */
  decimals: number;
  percent: boolean;
  /** Currency symbol printed right next to it, if any (€, $, £), or a currency code a space apart ("2382 EUR", "EUR 12.50"). */
  symbol?: string;
}

const NUMBER =
  /(?<![\p{L}\p{N}.,/:_@-])([-+\u2212]\s?)?(\()?([€$£]\s?|(?:EUR|USD|GBP|CHF) )?(\d{1,3}(?:[.,'\u2019 \u00a0]\d{3})+(?:[.,]\d{1,4})?|\d+(?:[.,]\d{1,4})?)(\s?[€$£]|\s(?:EUR|USD|GBP|CHF)(?!\p{L}))?(\))?(-(?!\p{N}))?(\s?%)?(?![\p{L}\p{N}]|[.,/:-]\p{N})/gu;

export function scanNumbers(text: string, mark: DecimalMark): NumberMatch[] {
  const out: NumberMatch[] = [];
  for (const m of text.matchAll(NUMBER)) {
    const [whole, lead, open, pre, digits = '', post, close, trail, pct] = m;
    const parsed = parseDigits(digits, mark);
    if (parsed === undefined) continue;
    const negative = (lead !== undefined && /[-\u2212]/.test(lead)) || (open !== undefined && close !== undefined) || trail !== undefined;
    const symbol = (pre ?? post)?.trim();
    out.push({
      start: m.index,
      end: m.index + whole.length,
      value: negative && !/^0(\.0*)?$/.test(parsed.value) ? `-${parsed.value}` : parsed.value,
      decimals: parsed.decimals,
      percent: pct !== undefined,
      ...(symbol ? { symbol } : {}),
    });
  }
  return out;
}

/** Interprets one run of digits and separators; undefined when the grouping makes no sense. */
export function parseDigits(raw: string, mark: DecimalMark): { value: string; decimals: number } | undefined {
  const seps = [...raw.matchAll(/[.,'\u2019 \u00a0]/g)].map((m) => ({ ch: m[0], at: m.index }));
  let decimalAt = -1;
  if (seps.length > 0) {
    const last = seps.at(-1)!;
    const kinds = new Set(seps.map((s) => s.ch));
    const after = raw.length - last.at - 1;
    if (last.ch === '.' || last.ch === ',') {
      if (kinds.size > 1) decimalAt = last.at;
      else if (seps.length > 1) decimalAt = -1;
      // One separator before exactly three digits: "1.234" is a thousand in German, a decimal in English.
      else decimalAt = after === 3 ? (last.ch === mark ? last.at : -1) : last.at;
    }
    const groups = seps.filter((s) => s.at !== decimalAt);
    // Thousands separators must all be alike and every group three digits long.
    if (new Set(groups.map((s) => s.ch)).size > 1) return undefined;
    const bounds = [...groups.map((s) => s.at), decimalAt >= 0 ? decimalAt : raw.length];
    for (let i = 1; i < bounds.length; i++) if (bounds[i]! - bounds[i - 1]! - 1 !== 3) return undefined;
  }
  const intPart = (decimalAt >= 0 ? raw.slice(0, decimalAt) : raw).replace(/\D/g, '');
  const fracPart = decimalAt >= 0 ? raw.slice(decimalAt + 1) : '';
  const value = new Decimal(`${intPart}${fracPart ? `.${fracPart}` : ''}`);
  return { value: value.toFixed(fracPart.length), decimals: fracPart.length };
}

/**
 * The decimal mark of a document: whichever of "12,34" or "12.34" (exactly two decimals, the
 * money form) occurs more often. Ties go to the comma, as most of our documents are European.
 */
export function inferDecimalMark(texts: Iterable<string>): DecimalMark {
  let comma = 0;
  let point = 0;
  for (const t of texts) {
    for (const m of t.matchAll(/(?<![\d.,])\d{1,3}(?:([.,' ])\d{3})*([.,])\d{2}(?![\d.,]\d)/g)) {
      if (m[1] !== undefined && m[1] === m[2]) continue;
      if (m[2] === ',') comma++;
      else point++;
    }
  }
  return point > comma ? '.' : ',';
}
