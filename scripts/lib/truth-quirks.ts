import type { Invoice } from '../../src/invoice/model.js';
import { documentTypeOf } from '../../src/analysis/codes.js';
import { getPath, zugferd1DocumentName } from './corpus-truth.js';
import { asPrinted } from './party-examples.js';

/**
 * Values where a sample XML, not the reading, departs from its page: the XML writes a person into
 * the address line the page's street is in, packs identifier lines into a name, or names its
 * buyer with its seller's name. bench-convert lists such differences apart from the wrong ones;
 * the calibration leaves them out, since counting a right reading of the page as wrong teaches
 * it to doubt the readings that are right.
 */
export type TruthQuirk =
  'name-with-ids' | 'street-in-line-2' | 'names-mixed' | 'kind-beyond-code-list' | 'reason-with-figures' | 'same-payment-act';

/** Identifier lines some sample XMLs put into a party's name: a GLN, a supplier or customer number. */
const ID_LINE = /^(?:GLN\s*\d{13}|(?:Lief|Kunden)-?Nr\.?\s*:?\s*\S+)$/i;
/** The same for items: the ZUGFeRD 1.0 BASIC samples write the article numbers and packing notes into the item's name. */
const ITEM_ID_LINE = /^(?:GTIN:?\s*\d{8,14}|(?:Unsere\s+)?Art(?:ikel)?[-.\s]*Nr[-.\w]*:?\s*\S+|Verpackung\s*:.*|VKE\/Geb\s*:.*)$/i;

const PARTY_NAMES = ['seller.sellerName', 'seller.sellerTradingName', 'buyer.buyerName', 'buyer.buyerTradingName'];

/** The XML's name is the read name after lines that are identifiers, not name. */
function nameAfterIds(want: string, got: string): boolean {
  const lines = want.split('\n').map((l) => l.trim());
  return lines.length > 1 && lines.at(-1) === got.trim() && lines.slice(0, -1).every((l) => ID_LINE.test(l));
}

/** The XML's item name is the read name among lines of article numbers and packing notes. */
function itemNameAmongIds(want: string, got: string): boolean {
  const lines = want.split('\n').map((l) => l.trim());
  const at = lines.indexOf(got.trim());
  return lines.length > 1 && at >= 0 && lines.every((l, i) => i === at || ITEM_ID_LINE.test(l));
}

/** The XML gives `want` as another party name than the one at `path`. */
function namedElsewhere(truth: Invoice, path: string, want: string): boolean {
  return PARTY_NAMES.some((other) => {
    const name = other !== path ? getPath(truth, other) : undefined;
    return name !== undefined && asPrinted(name) === asPrinted(want);
  });
}

/** A ZUGFeRD 1.0 XML codes 380 a kind of document its own name says is the one read (a correction, 384). */
function kindBeyondCodeList(truth: Invoice, path: string, want: string, got: string): boolean {
  const name = path === 'invoiceTypeCode' && want === '380' ? zugferd1DocumentName(truth) : undefined;
  return name !== undefined && documentTypeOf(name) === got;
}

/** Payment means codes (UNTDID 4461) by the act they ask of the buyer. */
const PAYMENT_ACTS: ReadonlyArray<ReadonlySet<string>> = [
  new Set(['30', '31', '42', '58']),
  new Set(['49', '59']),
  new Set(['48', '54', '55']),
];

/**
 * Two codes for the same act (BT-81): a transfer to an account coded 58 where the XML says 30,
 * 31 or 42, a SEPA direct debit (59) where a ZUGFeRD 1.0 XML says 49. A page that prints an IBAN
 * or "SEPA-Lastschrift" does not say which of them its issuer picks.
 */
export function samePaymentAct(want: string, got: string): boolean {
  return want !== got && PAYMENT_ACTS.some((act) => act.has(want) && act.has(got));
}

/** Labels of the figures printed beside an adjustment's reason: its percentage, base and VAT rate. */
const FIGURE_WORDS = /\b(?:basisbetrag|basis|mwst|ust|vat|steuersatz|rate)\b/gi;

/**
 * The XML's reason (BT-97, BT-104) is the read one followed by the figures the page prints beside
 * it ("Rechnungsrabatt 1 -2,00% Basisbetrag: -5,00, MwSt.-% 19,0" for "Rechnungsrabatt 1"; the
 * same issuer's EXTENDED sample writes "Rechnungsrabatt 1").
 */
function reasonWithFigures(path: string, want: string, got: string): boolean {
  if (!/(?:Allowance|Charge)Reason$/.test(path)) return false;
  const [w, g] = [asPrinted(want), asPrinted(got)];
  return (
    w.startsWith(`${g} `) &&
    w
      .slice(g.length)
      .replace(FIGURE_WORDS, '')
      .replace(/[\d\s.,:%+-]/g, '') === ''
  );
}

/**
 * Why the XML's `want` at `path` (an invoice path, or a line's path ending in `itemName`) differs
 * from the `got` read from the page without the reading being wrong; undefined when it may be.
 * For text values, reasons and the type code, and `got` must be printed on the page, as every value the analysis reads is.
 */
export function truthQuirk(truth: Invoice, path: string, want: string, got: string): TruthQuirk | undefined {
  if (kindBeyondCodeList(truth, path, want, got)) return 'kind-beyond-code-list';
  if (path === 'paymentInstructions.paymentMeansTypeCode' && samePaymentAct(want, got)) return 'same-payment-act';
  if (reasonWithFigures(path, want, got)) return 'reason-with-figures';
  if (nameAfterIds(want, got) || (path.endsWith('itemName') && itemNameAmongIds(want, got))) return 'name-with-ids';
  const line2 = path.endsWith('AddressLine1') ? getPath(truth, path.replace(/AddressLine1$/, 'AddressLine2')) : undefined;
  if (line2 !== undefined && asPrinted(line2) === asPrinted(got)) return 'street-in-line-2';
  return namedElsewhere(truth, path, want) ? 'names-mixed' : undefined;
}
