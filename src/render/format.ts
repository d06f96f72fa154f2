import { Decimal } from '../invoice/decimal.js';

/**
 * Numbers and dates as the template's locale writes them (de-DE: 1.234,56 €, 31.12.2024).
 * Intl formats decimal *strings* exactly (no detour through binary floating point), so an
 * amount prints as the invoice states it.
 */
export interface Formatter {
  money(amount: string): string;
  /** Quantities and prices keep their significant fraction digits (up to 4), at least 2 for prices. */
  quantity(value: string): string;
  price(value: string): string;
  percent(rate: string): string;
  date(iso: string): string;
}

export function createFormatter(locale: string, currency: string, dateStyle: 'short' | 'medium' | 'long'): Formatter {
  const money = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 2 });
  const quantity = new Intl.NumberFormat(locale, { minimumFractionDigits: 0, maximumFractionDigits: 4 });
  const price = new Intl.NumberFormat(locale, { style: 'currency', currency, minimumFractionDigits: 2, maximumFractionDigits: 4 });
  const percent = new Intl.NumberFormat(locale, { style: 'unit', unit: 'percent', maximumFractionDigits: 2 });
  const date = new Intl.DateTimeFormat(locale, { dateStyle, timeZone: 'UTC' });
  // Intl's typings accept only number | bigint, but ECMA-402 (and Node) format numeric strings exactly.
  const exact = (f: Intl.NumberFormat) => (value: string) => f.format(value as unknown as number);
  return {
    money: exact(money),
    quantity: exact(quantity),
    price: exact(price),
    percent: exact(percent),
    date: (iso) => {
      const [y, m, d] = iso.split('-').map(Number);
      return date.format(Date.UTC(y!, m! - 1, d!));
    },
  };
}

/** IBANs print in groups of four, as banks and people read them. */
export function formatIban(iban: string): string {
  const compact = iban.replace(/\s+/g, '').toUpperCase();
  return /^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(compact) ? compact.replace(/(.{4})(?=.)/g, '$1 ') : iban;
}

/** The negated amount, for allowances shown as deductions. */
export function negate(amount: string): string {
  return new Decimal(amount).negated().toString();
}
