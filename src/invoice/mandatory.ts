import type { Invoice, InvoiceLine, VatBreakdown } from './model.js';
import { termName } from './term-names.js';

/**
 * What EN 16931 makes mandatory in every invoice (its cardinality 1..1 and 1..n business terms,
 * checked by rules BR-02 to BR-16, BR-21 to BR-26, BR-45 to BR-47, BR-CO-04 and BR-CO-18) and
 * that nothing in this service fills in: without them there is no invoice to write, so the create
 * endpoints refuse rather than build a document that can only fail. (BT-23 and BT-24 are filled
 * with the Peppol billing process and XRechnung 3.0 when absent, so they are not asked for.)
 */

export interface MissingField {
  /** JSON path inside the invoice, with indices: `invoiceLine[0].priceDetails.itemNetPrice`. */
  path: string;
  /** The business term, or the group when the whole group is absent. */
  bt: string;
  /** The term's English name (src/invoice/term-names.ts): API messages are English. */
  name: string;
  /** The EN 16931 rule that requires it. */
  rule: string;
}

type Getter<T> = (item: T) => unknown;

interface Requirement<T> {
  path: string;
  bt: string;
  rule: string;
  get: Getter<T>;
}

const present = (value: unknown) => value !== undefined && value !== null && value !== '' && !(Array.isArray(value) && value.length === 0);

const HEADER: ReadonlyArray<Requirement<Invoice>> = [
  { path: 'invoiceNumber', bt: 'BT-1', rule: 'BR-02', get: (i) => i.invoiceNumber },
  { path: 'invoiceIssueDate', bt: 'BT-2', rule: 'BR-03', get: (i) => i.invoiceIssueDate },
  { path: 'invoiceTypeCode', bt: 'BT-3', rule: 'BR-04', get: (i) => i.invoiceTypeCode },
  { path: 'invoiceCurrencyCode', bt: 'BT-5', rule: 'BR-05', get: (i) => i.invoiceCurrencyCode },
  { path: 'seller.sellerName', bt: 'BT-27', rule: 'BR-06', get: (i) => i.seller?.sellerName },
  {
    path: 'seller.sellerPostalAddress.sellerCountryCode',
    bt: 'BT-40',
    rule: 'BR-09',
    get: (i) => i.seller?.sellerPostalAddress?.sellerCountryCode,
  },
  { path: 'buyer.buyerName', bt: 'BT-44', rule: 'BR-07', get: (i) => i.buyer?.buyerName },
  {
    path: 'buyer.buyerPostalAddress.buyerCountryCode',
    bt: 'BT-55',
    rule: 'BR-11',
    get: (i) => i.buyer?.buyerPostalAddress?.buyerCountryCode,
  },
  {
    path: 'documentTotals.sumOfInvoiceLineNetAmount',
    bt: 'BT-106',
    rule: 'BR-12',
    get: (i) => i.documentTotals?.sumOfInvoiceLineNetAmount,
  },
  {
    path: 'documentTotals.invoiceTotalAmountWithoutVat',
    bt: 'BT-109',
    rule: 'BR-13',
    get: (i) => i.documentTotals?.invoiceTotalAmountWithoutVat,
  },
  {
    path: 'documentTotals.invoiceTotalAmountWithVat',
    bt: 'BT-112',
    rule: 'BR-14',
    get: (i) => i.documentTotals?.invoiceTotalAmountWithVat,
  },
  { path: 'documentTotals.amountDueForPayment', bt: 'BT-115', rule: 'BR-15', get: (i) => i.documentTotals?.amountDueForPayment },
];

const VAT_BREAKDOWN: ReadonlyArray<Requirement<VatBreakdown>> = [
  { path: 'vatCategoryTaxableAmount', bt: 'BT-116', rule: 'BR-45', get: (r) => r.vatCategoryTaxableAmount },
  { path: 'vatCategoryTaxAmount', bt: 'BT-117', rule: 'BR-46', get: (r) => r.vatCategoryTaxAmount },
  { path: 'vatCategoryCode', bt: 'BT-118', rule: 'BR-47', get: (r) => r.vatCategoryCode },
];

const LINE: ReadonlyArray<Requirement<InvoiceLine>> = [
  { path: 'invoiceLineIdentifier', bt: 'BT-126', rule: 'BR-21', get: (l) => l.invoiceLineIdentifier },
  { path: 'invoicedQuantity', bt: 'BT-129', rule: 'BR-22', get: (l) => l.invoicedQuantity },
  { path: 'invoicedQuantityUnitOfMeasureCode', bt: 'BT-130', rule: 'BR-23', get: (l) => l.invoicedQuantityUnitOfMeasureCode },
  { path: 'invoiceLineNetAmount', bt: 'BT-131', rule: 'BR-24', get: (l) => l.invoiceLineNetAmount },
  { path: 'priceDetails.itemNetPrice', bt: 'BT-146', rule: 'BR-26', get: (l) => l.priceDetails?.itemNetPrice },
  {
    path: 'lineVatInformation[0].invoicedItemVatCategoryCode',
    bt: 'BT-151',
    rule: 'BR-CO-04',
    get: (l) => l.lineVatInformation?.[0]?.invoicedItemVatCategoryCode,
  },
  { path: 'itemInformation.itemName', bt: 'BT-153', rule: 'BR-25', get: (l) => l.itemInformation?.itemName },
];

const lacking = (path: string, bt: string, rule: string): MissingField => ({ path, bt, name: termName(bt, 'en'), rule });

function check<T>(item: T, requirements: ReadonlyArray<Requirement<T>>, prefix: string): MissingField[] {
  return requirements.filter((r) => !present(r.get(item))).map(({ path, bt, rule }) => lacking(`${prefix}${path}`, bt, rule));
}

/** Every mandatory business term the invoice lacks, in the order of EN 16931; empty when none is missing. */
export function missingMandatoryFields(invoice: Invoice): MissingField[] {
  const missing = check(invoice, HEADER, '');
  const breakdown = invoice.vatBreakdown ?? [];
  if (breakdown.length === 0) missing.push(lacking('vatBreakdown', 'BG-23', 'BR-CO-18'));
  breakdown.forEach((row, i) => missing.push(...check(row, VAT_BREAKDOWN, `vatBreakdown[${i}].`)));
  const lines = invoice.invoiceLine ?? [];
  if (lines.length === 0) missing.push(lacking('invoiceLine', 'BG-25', 'BR-16'));
  lines.forEach((line, i) => missing.push(...check(line, LINE, `invoiceLine[${i}].`)));
  return missing;
}
