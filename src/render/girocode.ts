import QRCode from 'qrcode';
import { Decimal } from '../invoice/decimal.js';
import type { Invoice } from '../invoice/model.js';

/**
 * The SEPA payment QR code ("GiroCode", EPC069-12 version 002): banking apps read it and fill
 * in a credit transfer. Only offered when it is unambiguous: a credit transfer in EUR to an
 * IBAN with a positive amount due.
 */

export interface EpcPayment {
  name: string;
  iban: string;
  bic?: string;
  /** Decimal string in EUR. */
  amount: string;
  /** Either an ISO 11649 creditor reference (RF…) or free text. */
  remittance?: string;
}

/** UNTDID 4461 codes that mean "the buyer transfers money to an account". */
const CREDIT_TRANSFER_CODES = new Set(['30', '31', '42', '58']);

const MAX_AMOUNT = new Decimal('999999999.99');

/** What the invoice asks to be paid by credit transfer, or undefined when a GiroCode would be wrong. */
export function epcPaymentOf(invoice: Invoice): EpcPayment | undefined {
  const pay = invoice.paymentInstructions;
  const account = pay?.creditTransfer?.[0];
  const iban = account?.paymentAccountIdentifier?.replace(/\s+/g, '').toUpperCase();
  const due = invoice.documentTotals?.amountDueForPayment;
  const name = account?.paymentAccountName ?? invoice.payee?.payeeName ?? invoice.seller?.sellerName;
  if (!pay?.paymentMeansTypeCode || !CREDIT_TRANSFER_CODES.has(pay.paymentMeansTypeCode)) return undefined;
  if (invoice.invoiceCurrencyCode !== 'EUR' || !iban || !isIban(iban) || !due || !name) return undefined;
  const amount = new Decimal(due);
  if (amount.lt('0.01') || amount.gt(MAX_AMOUNT) || amount.decimalPlaces() > 2) return undefined;
  return {
    name,
    iban,
    ...(account?.paymentServiceProviderIdentifier
      ? { bic: account.paymentServiceProviderIdentifier.replace(/\s+/g, '').toUpperCase() }
      : {}),
    amount: amount.toFixed(2),
    ...((pay.remittanceInformation ?? invoice.invoiceNumber) ? { remittance: pay.remittanceInformation ?? invoice.invoiceNumber } : {}),
  };
}

/** ISO 13616 check: mod-97 of the rearranged digits is 1. */
export function isIban(iban: string): boolean {
  return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) && isMod97(iban.slice(4) + iban.slice(0, 4));
}

/** ISO 11649 creditor reference: RF, two check digits, up to 21 characters, mod-97 of the rearrangement is 1. */
export function isCreditorReference(text: string): boolean {
  const compact = text.replace(/\s+/g, '').toUpperCase();
  return /^RF\d{2}[A-Z0-9]{1,21}$/.test(compact) && isMod97(compact.slice(4) + compact.slice(0, 4));
}

/** Letters count as 10..35; the number, taken digit by digit, leaves remainder 1 modulo 97. */
function isMod97(alnum: string): boolean {
  let rest = 0;
  for (const c of alnum) {
    const v = /\d/.test(c) ? c : String(c.charCodeAt(0) - 55);
    for (const d of v) rest = (rest * 10 + Number(d)) % 97;
  }
  return rest === 1;
}

/** Cuts to at most `max` characters, never inside a surrogate pair. */
const cut = (text: string, max: number) =>
  Array.from(text.replace(/[\r\n]+/g, ' ').trim())
    .slice(0, max)
    .join('');

/**
 * The EPC069-12 payload: fixed line order, LF separated, character set 1 (UTF-8), service
 * SCT. A creditor reference goes into the structured field, other text into the unstructured
 * one (never both).
 */
export function epcPayload(p: EpcPayment): string {
  const structured = p.remittance && isCreditorReference(p.remittance) ? p.remittance.replace(/\s+/g, '').toUpperCase() : '';
  const unstructured = p.remittance && !structured ? cut(p.remittance, 140) : '';
  return ['BCD', '002', '1', 'SCT', p.bic ?? '', cut(p.name, 70), p.iban, `EUR${p.amount}`, '', structured, unstructured]
    .join('\n')
    .replace(/\n+$/, '');
}

/** The QR module matrix (true = dark), error correction M as EPC069-12 requires. */
export function qrMatrix(payload: string): boolean[][] {
  const { modules } = QRCode.create(payload, { errorCorrectionLevel: 'M' });
  return Array.from({ length: modules.size }, (_, row) => Array.from({ length: modules.size }, (_, col) => Boolean(modules.get(row, col))));
}
