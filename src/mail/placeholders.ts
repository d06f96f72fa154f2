import type { Invoice } from '../invoice/model.js';

/**
 * Placeholders in the subject and message: `{name}`, matched case-insensitively. A placeholder
 * with a value is replaced; one without stays as written, so braces in CSS or prose survive.
 *
 * The create endpoints fill three from the invoice:
 *   {invoicenumber}  BT-1 invoice number
 *   {invoicedate}    BT-2 issue date as DD.MM.YYYY
 *   {lastname}       the last word of the buyer's contact point (BT-56), e.g. "Mustermann"
 *                    for "Dr. Erika Mustermann" or "Mustermann, Erika"; empty without BT-56
 * (empty when the invoice has no such value). The delivery endpoint takes its values from
 * `content` instead.
 */

/** Lower-case names to values. */
export type PlaceholderValues = Record<string, string>;

const PLACEHOLDER = /\{([A-Za-z0-9_.-]{1,64})\}/g;

/** `encode` adapts a value to where it lands: HTML-escaped in HTML, single-line in a subject. */
export function fillPlaceholders(template: string, values: PlaceholderValues, encode: (value: string) => string = (v) => v): string {
  return template.replace(PLACEHOLDER, (match, name: string) => {
    const value = values[name.toLowerCase()];
    return value === undefined ? match : encode(value);
  });
}

/** A value that lands in a header: line breaks and other controls become spaces, so no value can add a header line. */
export function singleLine(value: string): string {
  return value.replace(/[\u0000-\u001f\u007f]+/g, ' ');
}

export function invoicePlaceholders(invoice: Invoice): PlaceholderValues {
  return {
    invoicenumber: invoice.invoiceNumber ?? '',
    invoicedate: invoice.invoiceIssueDate ? germanDate(invoice.invoiceIssueDate) : '',
    lastname: lastName(invoice.buyer?.buyerContact?.buyerContactPoint),
  };
}

/** `Mustermann, Erika` names the surname first; otherwise it is the last word. */
export function lastName(contactPoint: string | undefined): string {
  const text = contactPoint?.trim() ?? '';
  if (text.includes(',')) return text.slice(0, text.indexOf(',')).trim();
  return text.split(/\s+/).at(-1) ?? '';
}

/** The model keeps dates as ISO YYYY-MM-DD. */
function germanDate(iso: string): string {
  const [year, month, day] = iso.split('-');
  return `${day}.${month}.${year}`;
}

/** `content` keys of the delivery endpoint, as placeholder values (names match case-insensitively). */
export function contentPlaceholders(content: Record<string, string>): PlaceholderValues {
  return Object.fromEntries(Object.entries(content).map(([k, v]) => [k.toLowerCase(), v]));
}
