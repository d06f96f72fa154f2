import { documentTypeOf } from '../analysis/codes.js';
import { isLabel } from '../analysis/header-fields.js';
import { LITTLE_WORDS, PLACEHOLDER_WORDS } from '../analysis/lexicon.js';
import { LEGAL_FORM } from '../analysis/parties.js';
import { fold } from '../analysis/text.js';
import { Decimal } from '../invoice/decimal.js';
import type { Invoice } from '../invoice/model.js';
import type { FieldProblem } from './field-problem.js';
import { conflictMessage, type Conflict, type OwnerLanguage } from './owner-texts.js';

/**
 * Values read from a page that cannot all be right: the seller's name also stands as the buyer's,
 * a label stands as a name, a credit note owes a negative amount, a due date comes before the
 * invoice, a corrected invoice names no invoice it corrects. Each is a misreading, and a misread
 * value written into an e-invoice is booked and paid as the issuer's statement; so any of them
 * refuses the conversion before anything is written.
 * Each check is a small named action in one list (as KoSIT's validator runs its DefaultChecks),
 * so that a new kind of wrong value found in the field is one more entry.
 */

/** A value in conflict with another, at its path in the invoice (no `invoice.` prefix, as the analysis' paths). */
export interface CrossFinding {
  path: string;
  conflict: Conflict;
}

export interface CrossCheck {
  name: string;
  run: (invoice: Invoice) => CrossFinding[];
}

// ---------------------------------------------------------------- seller and buyer differ

interface Side {
  path: string;
  bt: string;
  read: (i: Invoice) => string | undefined;
}

/** Names compare as a reader would: case, diacritics and spacing are no difference. */
const nameKey = (v: string) => fold(v).replace(/\s+/g, ' ').trim();
/**
 * One name the other's start, at a word ("Global Goods Inc." and "Global Goods Inc. 789", a
 * scan's reading of the sender line): one party read twice.
 */
const sameName = (a: string, b: string) => {
  const [x, y] = [nameKey(a), nameKey(b)];
  return x !== '' && y !== '' && (x === y || y.startsWith(`${x} `) || x.startsWith(`${y} `));
};
/** VAT ids are printed with spaces now and then ("DE 123 456 789"). */
const vatKey = (v: string) => v.replace(/\s+/g, '').toUpperCase();

/**
 * Line 1, post code and city together: two parties may share a city or even a post code, but
 * not all three; a part missing on either side leaves the address unchecked.
 */
function fullAddress(line1: string | undefined, postCode: string | undefined, city: string | undefined): string | undefined {
  return line1 && postCode && city ? `${line1}, ${postCode} ${city}` : undefined;
}

const PARTY_PAIRS: ReadonlyArray<{ seller: Side; buyer: Side; same: (a: string, b: string) => boolean }> = [
  {
    seller: { path: 'seller.sellerName', bt: 'BT-27', read: (i) => i.seller?.sellerName },
    buyer: { path: 'buyer.buyerName', bt: 'BT-44', read: (i) => i.buyer?.buyerName },
    same: sameName,
  },
  {
    seller: { path: 'seller.sellerVatIdentifier', bt: 'BT-31', read: (i) => i.seller?.sellerVatIdentifier },
    buyer: { path: 'buyer.buyerVatIdentifier', bt: 'BT-48', read: (i) => i.buyer?.buyerVatIdentifier },
    same: (a, b) => vatKey(a) !== '' && vatKey(a) === vatKey(b),
  },
  {
    seller: {
      path: 'seller.sellerPostalAddress.sellerAddressLine1',
      bt: 'BT-35',
      read: ({ seller }) =>
        fullAddress(
          seller?.sellerPostalAddress?.sellerAddressLine1,
          seller?.sellerPostalAddress?.sellerPostCode,
          seller?.sellerPostalAddress?.sellerCity,
        ),
    },
    buyer: {
      path: 'buyer.buyerPostalAddress.buyerAddressLine1',
      bt: 'BT-50',
      read: ({ buyer }) =>
        fullAddress(
          buyer?.buyerPostalAddress?.buyerAddressLine1,
          buyer?.buyerPostalAddress?.buyerPostCode,
          buyer?.buyerPostalAddress?.buyerCity,
        ),
    },
    same: (a, b) => nameKey(a) !== '' && nameKey(a) === nameKey(b),
  },
];

/**
 * Either side may be the one read from the other's block, so both are named: the person who
 * confirms sees each with its own alternatives.
 */
function partiesDiffer(invoice: Invoice): CrossFinding[] {
  return PARTY_PAIRS.flatMap(({ seller, buyer, same }) => {
    const [s, b] = [seller.read(invoice), buyer.read(invoice)];
    if (!s || !b || !same(s, b)) return [];
    return [
      { path: buyer.path, conflict: { kind: 'same-as-other-party', bt: buyer.bt, otherBt: seller.bt, value: b } },
      { path: seller.path, conflict: { kind: 'same-as-other-party', bt: seller.bt, otherBt: buyer.bt, value: s } },
    ];
  });
}

// ---------------------------------------------------------------- party names are names

const wordsOf = (name: string) =>
  fold(name)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
const isLittle = (w: string) => LITTLE_WORDS.has(w) || /^\d+$/.test(w);

type NotAName = Extract<Conflict, { kind: 'not-a-name' }>['why'];

/** "Name: Global Supplies Ltd.": the label was read with the name. */
function labelBefore(name: string): boolean {
  const at = name.indexOf(':');
  if (at <= 0) return false;
  const label = name.slice(0, at);
  return isLabel(label) || wordsOf(label).every((w) => PLACEHOLDER_WORDS.has(w) || isLittle(w));
}

function whyNotAName(name: string): NotAName | undefined {
  if (!/\p{L}/u.test(name)) return 'no-letters';
  // The lexicon's labels are whole texts ("Lieferant", "Bill to", "Rechnungsnummer"), so a name that merely contains one passes.
  if (/:\s*$/.test(name) || isLabel(name) || labelBefore(name)) return 'label';
  if (LEGAL_FORM.test(name)) return undefined;
  const words = wordsOf(name);
  if (words.every((w) => PLACEHOLDER_WORDS.has(w) || isLittle(w))) return 'placeholder';
  // documentTypeOf finds "rechnung" inside "Rechnungswesen Müller" too: every word must be a title's.
  if (documentTypeOf(name) && words.every((w) => documentTypeOf(w) || isLittle(w))) return 'title';
  return undefined;
}

const PARTY_NAMES: readonly Side[] = [PARTY_PAIRS[0]!.seller, PARTY_PAIRS[0]!.buyer];

function partyNamesAreNames(invoice: Invoice): CrossFinding[] {
  return PARTY_NAMES.flatMap(({ path, bt, read }) => {
    const name = read(invoice);
    const why = name === undefined ? undefined : whyNotAName(name);
    return why ? [{ path, conflict: { kind: 'not-a-name', bt, value: name!, why } }] : [];
  });
}

// ---------------------------------------------------------------- sign and type code agree

const SIGNED_TOTALS: ReadonlyArray<Side> = [
  { path: 'documentTotals.invoiceTotalAmountWithoutVat', bt: 'BT-109', read: (i) => i.documentTotals?.invoiceTotalAmountWithoutVat },
  { path: 'documentTotals.invoiceTotalAmountWithVat', bt: 'BT-112', read: (i) => i.documentTotals?.invoiceTotalAmountWithVat },
];

/**
 * The analysis states a credit note's amounts as positive (src/analysis/index.ts), as EN 16931
 * wants; a negative one left over means the sign or the title was misread, and a negative credit
 * note is a claim on the buyer. A commercial invoice (380) with a negative total is, on paper, a
 * credit note whose title was not read. Corrective and other invoices (384, …) keep the signs
 * they print and are not checked.
 */
function signMatchesType(invoice: Invoice): CrossFinding[] {
  const typeCode = invoice.invoiceTypeCode;
  if (typeCode !== '380' && typeCode !== '381') return [];
  return SIGNED_TOTALS.flatMap(({ path, bt, read }) => {
    const value = read(invoice);
    return value !== undefined && new Decimal(value).isNegative() ? [{ path, conflict: { kind: 'sign', bt, value, typeCode } }] : [];
  });
}

// ---------------------------------------------------------------- dates in order

const ISO_DATE = /^(\d{4})-(\d{2}-\d{2})$/;

/** The same day a year later, as an ISO string (29 February compares as the last day of February). */
const yearAfter = (iso: string) => iso.replace(ISO_DATE, (_, y: string, md: string) => `${Number(y) + 1}-${md}`);

/**
 * Conservative on purpose: only orders no invoice has. A due date before the invoice date
 * (on the same day is "payable at once") is a misread day or month, or the labels swapped. A
 * delivery months or years before the invoice is ordinary (late invoicing), and a prepayment
 * invoice may precede its delivery, but by more than a year is a misread year. Both dates are
 * named: either may be the wrong one.
 */
function datesInOrder(invoice: Invoice): CrossFinding[] {
  const issue = invoice.invoiceIssueDate;
  if (!issue || !ISO_DATE.test(issue)) return [];
  const due = invoice.paymentDueDate;
  const delivery = invoice.deliveryInformation?.actualDeliveryDate;
  const findings: CrossFinding[] = [];
  const pair = (path: string, bt: string, value: string, why: 'before' | 'year-after', back: 'after' | 'year-before') =>
    findings.push(
      { path, conflict: { kind: 'date-order', bt, value, otherBt: 'BT-2', otherValue: issue, why } },
      { path: 'invoiceIssueDate', conflict: { kind: 'date-order', bt: 'BT-2', value: issue, otherBt: bt, otherValue: value, why: back } },
    );
  if (due && ISO_DATE.test(due) && due < issue) pair('paymentDueDate', 'BT-9', due, 'before', 'after');
  if (delivery && ISO_DATE.test(delivery) && delivery > yearAfter(issue))
    pair('deliveryInformation.actualDeliveryDate', 'BT-72', delivery, 'year-after', 'year-before');
  return findings;
}

// ---------------------------------------------------------------- a corrected invoice names its invoice

/**
 * A corrected invoice (384) corrects one invoice, and names it (BG-3; XRechnung requires it). A
 * title read as a correction without the invoice it corrects is a title some issuers print on
 * an ordinary invoice with negative lines (the ZUGFeRD 1.0 samples code their
 * "Rechnungskorrektur" 380), so the type is for a person to confirm.
 */
function correctionNamesItsInvoice(invoice: Invoice): CrossFinding[] {
  if (invoice.invoiceTypeCode !== '384' || invoice.precedingInvoiceReference?.length) return [];
  return [{ path: 'invoiceTypeCode', conflict: { kind: 'correction-without-invoice', bt: 'BT-3', value: '384' } }];
}

// ---------------------------------------------------------------- the list

export const CROSS_CHECKS: readonly CrossCheck[] = [
  { name: 'parties-differ', run: partiesDiffer },
  { name: 'party-names-are-names', run: partyNamesAreNames },
  { name: 'sign-matches-type', run: signMatchesType },
  { name: 'dates-in-order', run: datesInOrder },
  { name: 'correction-names-its-invoice', run: correctionNamesItsInvoice },
];

/** Every conflict, as the refusal's fields: what was read, and the other readings the caller found for that path. */
export function crossCheckProblems(
  invoice: Invoice,
  lang: OwnerLanguage,
  candidates: Readonly<Record<string, readonly string[]>> = {},
): FieldProblem[] {
  return CROSS_CHECKS.flatMap((check) => check.run(invoice)).map(({ path, conflict }) => {
    const others = [...new Set(candidates[path] ?? [])].filter((c) => c !== conflict.value);
    return {
      field: `invoice.${path}`,
      bt: conflict.bt,
      message: conflictMessage(conflict, lang),
      value: conflict.value,
      ...(others.length ? { candidates: others } : {}),
    };
  });
}
