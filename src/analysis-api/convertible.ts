import type { FieldProblem } from '../api/errors.js';
import { Decimal, sum, toAmount } from '../invoice/decimal.js';
import type { Invoice, InvoiceLine } from '../invoice/model.js';

/**
 * Between the analysis and the ZUGFeRD build of createZugferdFromPdf: complete
 * what a printed invoice leaves implicit, refuse when a mandatory field was not
 * found, and refuse when the totals the lines add up to differ from the totals
 * printed on the page (a misread digit shows up there, not anywhere else).
 */

/** The Factur-X / ZUGFeRD profile of the built document. */
export type ConversionProfile = 'EN16931' | 'XRECHNUNG';

export class ConversionRefusal extends Error {
  override readonly name = 'ConversionRefusal';
  constructor(
    readonly code: 'FIELDS_MISSING' | 'TOTALS_MISMATCH',
    message: string,
    readonly fields: FieldProblem[],
  ) {
    super(message);
  }
}

/**
 * Leitweg-ID (KoSIT): coarse address, optional fine address, check digits. A
 * buyer reference of this form means a public-sector buyer, who needs XRechnung.
 */
const LEITWEG_ID = /^\d{2,12}(-[A-Za-z0-9]{1,30})?-\d{2}$/;

/** UNTDID 4461 58: SEPA credit transfer, what an IBAN on a German invoice means. */
const SEPA_CREDIT_TRANSFER = '58';
/** UN/ECE Rec 20 C62: "one", the unit when none is printed. */
const UNIT_ONE = 'C62';
const COMMERCIAL_INVOICE = '380';

interface Requirement {
  field: string;
  bt: string;
  present: (i: Invoice) => boolean;
  message?: string;
}

const has = (value: unknown) => value !== undefined && value !== '' && !(Array.isArray(value) && value.length === 0);
const need = (field: string, bt: string, get: (i: Invoice) => unknown, message?: string): Requirement => ({ field, bt, present: (i) => has(get(i)), ...(message ? { message } : {}) });

/** EN 16931 cardinality 1..1 / 1..n that cannot be derived from anything else on the page. */
const EN16931_REQUIRED: Requirement[] = [
  need('invoiceNumber', 'BT-1', (i) => i.invoiceNumber),
  need('invoiceIssueDate', 'BT-2', (i) => i.invoiceIssueDate),
  need('invoiceCurrencyCode', 'BT-5', (i) => i.invoiceCurrencyCode),
  need('seller.sellerName', 'BT-27', (i) => i.seller?.sellerName),
  need('seller.sellerPostalAddress.sellerCountryCode', 'BT-40', (i) => i.seller?.sellerPostalAddress?.sellerCountryCode),
  need('seller.sellerVatIdentifier', 'BT-31', (i) => i.seller?.sellerVatIdentifier ?? i.seller?.sellerTaxRegistrationIdentifier, "neither the seller's VAT identifier (BT-31) nor tax number (BT-32) was found"),
  need('buyer.buyerName', 'BT-44', (i) => i.buyer?.buyerName),
  need('buyer.buyerPostalAddress.buyerCountryCode', 'BT-55', (i) => i.buyer?.buyerPostalAddress?.buyerCountryCode),
  need('documentTotals.invoiceTotalAmountWithoutVat', 'BT-109', (i) => i.documentTotals?.invoiceTotalAmountWithoutVat),
  need('documentTotals.invoiceTotalAmountWithVat', 'BT-112', (i) => i.documentTotals?.invoiceTotalAmountWithVat),
  need('vatBreakdown', 'BG-23', (i) => i.vatBreakdown, 'no VAT breakdown (rate, taxable amount, tax) was found'),
  need('invoiceLine', 'BG-25', (i) => i.invoiceLine, 'no invoice line was found'),
];

/** XRechnung (BR-DE-*) on top of EN 16931: addresses, a seller contact and payment instructions. */
const XRECHNUNG_REQUIRED: Requirement[] = [
  need('seller.sellerPostalAddress.sellerCity', 'BT-37', (i) => i.seller?.sellerPostalAddress?.sellerCity),
  need('seller.sellerPostalAddress.sellerPostCode', 'BT-38', (i) => i.seller?.sellerPostalAddress?.sellerPostCode),
  need('seller.sellerContact.sellerContactTelephoneNumber', 'BT-42', (i) => i.seller?.sellerContact?.sellerContactTelephoneNumber),
  need('seller.sellerContact.sellerContactEmailAddress', 'BT-43', (i) => i.seller?.sellerContact?.sellerContactEmailAddress),
  need('buyer.buyerPostalAddress.buyerCity', 'BT-52', (i) => i.buyer?.buyerPostalAddress?.buyerCity),
  need('buyer.buyerPostalAddress.buyerPostCode', 'BT-53', (i) => i.buyer?.buyerPostalAddress?.buyerPostCode),
  need('paymentInstructions.paymentMeansTypeCode', 'BT-81', (i) => i.paymentInstructions?.paymentMeansTypeCode, 'no payment instructions (an IBAN) were found'),
];

/** Per line: what a line must have once completed. */
const LINE_REQUIRED: Array<{ key: string; bt: string; present: (l: InvoiceLine) => boolean }> = [
  { key: 'itemInformation.itemName', bt: 'BT-153', present: (l) => has(l.itemInformation?.itemName) },
  { key: 'invoiceLineNetAmount', bt: 'BT-131', present: (l) => has(l.invoiceLineNetAmount) },
  { key: 'lineVatInformation[0].invoicedItemVatCategoryCode', bt: 'BT-151', present: (l) => has(l.lineVatInformation?.[0]?.invoicedItemVatCategoryCode) },
];

export function prepareForZugferd(found: Invoice): { invoice: Invoice; profile: ConversionProfile } {
  const invoice = complete(found);
  const profile: ConversionProfile = invoice.buyerReference && LEITWEG_ID.test(invoice.buyerReference) ? 'XRECHNUNG' : 'EN16931';
  const missing = missingFields(invoice, profile);
  if (missing.length > 0) {
    throw new ConversionRefusal('FIELDS_MISSING', `Mandatory fields were not found on the page: ${missing.map((m) => m.bt ?? m.field).join(', ')}`, missing);
  }
  const mismatches = totalMismatches(invoice);
  if (mismatches.length > 0) {
    throw new ConversionRefusal('TOTALS_MISMATCH', `The totals printed on the page do not match the invoice lines: ${mismatches.map((m) => m.message).join('; ')}`, mismatches);
  }
  return { invoice, profile };
}

/**
 * What a printed invoice leaves implicit, filled in the way a bookkeeper would:
 * type 380, unit "one", quantity 1 when only an amount is printed, line numbers,
 * the single VAT rate for lines that show none, SEPA transfer for an IBAN, the
 * company as contact point, and the sums EN 16931 defines from other totals.
 */
export function complete(found: Invoice): Invoice {
  const invoice = structuredClone(found);
  invoice.invoiceTypeCode ??= COMMERCIAL_INVOICE;
  const onlyRate = invoice.vatBreakdown?.length === 1 ? invoice.vatBreakdown[0] : undefined;
  invoice.invoiceLine = invoice.invoiceLine?.map((line, i) => completeLine(line, i, onlyRate));
  invoice.vatBreakdown = invoice.vatBreakdown?.map((row) => ({ ...row, vatCategoryCode: row.vatCategoryCode ?? (row.vatCategoryRate && new Decimal(row.vatCategoryRate).gt(0) ? 'S' : undefined) }));

  const totals = (invoice.documentTotals ??= {});
  if (invoice.invoiceLine?.length && invoice.invoiceLine.every((l) => l.invoiceLineNetAmount !== undefined)) {
    totals.sumOfInvoiceLineNetAmount ??= toAmount(sum(invoice.invoiceLine.map((l) => l.invoiceLineNetAmount)).toString());
  }
  if (invoice.vatBreakdown?.length) totals.invoiceTotalVatAmount ??= toAmount(sum(invoice.vatBreakdown.map((r) => r.vatCategoryTaxAmount)).toString());
  if (totals.invoiceTotalAmountWithVat !== undefined) {
    totals.amountDueForPayment ??= toAmount(new Decimal(totals.invoiceTotalAmountWithVat).minus(totals.paidAmount ?? 0).plus(totals.roundingAmount ?? 0).toString());
  }

  const iban = invoice.paymentInstructions?.creditTransfer?.[0]?.paymentAccountIdentifier;
  if (iban && invoice.paymentInstructions) invoice.paymentInstructions.paymentMeansTypeCode ??= SEPA_CREDIT_TRANSFER;
  const contact = invoice.seller?.sellerContact;
  if (contact && invoice.seller?.sellerName) contact.sellerContactPoint ??= invoice.seller.sellerName;
  return invoice;
}

function completeLine(line: InvoiceLine, index: number, onlyRate: NonNullable<Invoice['vatBreakdown']>[number] | undefined): InvoiceLine {
  const out = structuredClone(line);
  out.invoiceLineIdentifier ??= String(index + 1);
  out.invoicedQuantityUnitOfMeasureCode ??= UNIT_ONE;
  const amount = out.invoiceLineNetAmount;
  const price = out.priceDetails?.itemNetPrice;
  if (amount !== undefined && out.invoicedQuantity === undefined) {
    const quotient = price !== undefined && !new Decimal(price).isZero() ? new Decimal(amount).dividedBy(price) : undefined;
    // A quantity is inferred only when the printed price divides the amount exactly.
    out.invoicedQuantity = quotient?.isInteger() ? quotient.toString() : '1';
    if (!quotient?.isInteger()) out.priceDetails = { ...out.priceDetails, itemNetPrice: amount };
  }
  const implied = impliedPrice(out);
  if (implied !== undefined && (out.priceDetails?.itemNetPrice === undefined || lostSeparator(out.priceDetails.itemNetPrice, implied))) {
    out.priceDetails = { ...out.priceDetails, itemNetPrice: implied };
  }
  const vat = out.lineVatInformation?.[0];
  if (onlyRate && (!vat || (vat.invoicedItemVatRate === undefined && vat.invoicedItemVatCategoryCode === undefined))) {
    out.lineVatInformation = [{ invoicedItemVatCategoryCode: onlyRate.vatCategoryCode, invoicedItemVatRate: onlyRate.vatCategoryRate }];
  } else if (vat && vat.invoicedItemVatCategoryCode === undefined && vat.invoicedItemVatRate !== undefined && new Decimal(vat.invoicedItemVatRate).gt(0)) {
    out.lineVatInformation = [{ ...vat, invoicedItemVatCategoryCode: 'S' }, ...(out.lineVatInformation?.slice(1) ?? [])];
  }
  return out;
}

/** Amount = quantity × price holds for the line: no allowances, charges or price base quantity change the relation. */
const isPlain = (line: InvoiceLine) => !line.invoiceLineAllowances?.length && !line.invoiceLineCharges?.length && line.priceDetails?.itemPriceBaseQuantity === undefined;

/** Amount ÷ quantity, when it is an exact price of at most four decimals on a plain line. */
function impliedPrice(line: InvoiceLine): string | undefined {
  const { invoiceLineNetAmount: amount, invoicedQuantity: quantity } = line;
  if (amount === undefined || quantity === undefined || new Decimal(quantity).isZero() || !isPlain(line)) return undefined;
  const price = new Decimal(amount).dividedBy(quantity);
  return price.decimalPlaces() <= 4 ? price.toString() : undefined;
}

/**
 * OCR of a low-resolution scan drops decimal separators ("2,35" read as "235").
 * A price whose digits are exactly those of amount ÷ quantity is that price.
 */
function lostSeparator(read: string, implied: string): boolean {
  const digits = (v: string) => new Decimal(v).toFixed(4).replace(/\D/g, '').replace(/^0+|0+$/g, '');
  return !new Decimal(read).eq(implied) && digits(read) === digits(implied);
}

function missingFields(invoice: Invoice, profile: ConversionProfile): FieldProblem[] {
  const required = profile === 'XRECHNUNG' ? [...EN16931_REQUIRED, ...XRECHNUNG_REQUIRED] : EN16931_REQUIRED;
  const problems: FieldProblem[] = required
    .filter((r) => !r.present(invoice))
    .map((r) => ({ field: `invoice.${r.field}`, bt: r.bt, message: r.message ?? `${r.bt} was not found on the page` }));
  invoice.vatBreakdown?.forEach((row, i) => {
    if (!has(row.vatCategoryCode)) problems.push({ field: `invoice.vatBreakdown[${i}].vatCategoryCode`, bt: 'BT-118', message: `the VAT category of the ${row.vatCategoryRate ?? '?'} % rate (exempt, reverse charge, …) was not found` });
  });
  invoice.invoiceLine?.forEach((line, i) => {
    for (const r of LINE_REQUIRED) if (!r.present(line)) problems.push({ field: `invoice.invoiceLine[${i}].${r.key}`, bt: r.bt, message: `line ${i + 1}: ${r.bt} was not found` });
  });
  return problems;
}

/**
 * The EN 16931 sums (BR-CO-10, -13, -14, -15, -16) recomputed from what was
 * read, against what is printed. Amounts on a valid invoice agree to the cent;
 * anything else is a misread or a wrong invoice, and neither may be converted.
 */
function totalMismatches(invoice: Invoice): FieldProblem[] {
  const t = invoice.documentTotals ?? {};
  const lines = sum((invoice.invoiceLine ?? []).map((l) => l.invoiceLineNetAmount));
  const allowances = t.sumOfAllowancesOnDocumentLevel ?? sum((invoice.documentLevelAllowances ?? []).map((a) => a.documentLevelAllowanceAmount)).toString();
  const charges = t.sumOfChargesOnDocumentLevel ?? sum((invoice.documentLevelCharges ?? []).map((c) => c.documentLevelChargeAmount)).toString();
  const vat = sum((invoice.vatBreakdown ?? []).map((r) => r.vatCategoryTaxAmount));
  const checks: Array<{ field: string; bt: string; printed: string | undefined; computed: Decimal; how: string }> = [
    { field: 'documentTotals.sumOfInvoiceLineNetAmount', bt: 'BT-106', printed: t.sumOfInvoiceLineNetAmount, computed: lines, how: 'the line net amounts add up to' },
    { field: 'documentTotals.invoiceTotalAmountWithoutVat', bt: 'BT-109', printed: t.invoiceTotalAmountWithoutVat, computed: lines.minus(allowances).plus(charges), how: 'lines − allowances + charges give' },
    { field: 'documentTotals.invoiceTotalVatAmount', bt: 'BT-110', printed: t.invoiceTotalVatAmount, computed: vat, how: 'the VAT breakdown adds up to' },
    { field: 'documentTotals.invoiceTotalAmountWithVat', bt: 'BT-112', printed: t.invoiceTotalAmountWithVat, computed: lines.minus(allowances).plus(charges).plus(vat), how: 'net total + VAT give' },
    {
      field: 'documentTotals.amountDueForPayment',
      bt: 'BT-115',
      printed: t.amountDueForPayment,
      computed: new Decimal(t.invoiceTotalAmountWithVat ?? 0).minus(t.paidAmount ?? 0).plus(t.roundingAmount ?? 0),
      how: 'total − prepaid + rounding give',
    },
  ];
  const totals = checks
    .filter((c) => c.printed !== undefined && !new Decimal(toAmount(c.printed)).eq(toAmount(c.computed.toString())))
    .map((c) => ({ field: `invoice.${c.field}`, bt: c.bt, message: `${c.bt} printed as ${toAmount(c.printed!)}, but ${c.how} ${toAmount(c.computed.toString())}` }));
  return [...totals, ...lineMismatches(invoice)];
}

/**
 * Quantity × price against the line amount on plain lines. The printed price is
 * rounded to the cent, so the product may be off by half a cent per unit.
 */
function lineMismatches(invoice: Invoice): FieldProblem[] {
  const problems: FieldProblem[] = [];
  invoice.invoiceLine?.forEach((line, i) => {
    const { invoicedQuantity: quantity, invoiceLineNetAmount: amount } = line;
    const price = line.priceDetails?.itemNetPrice;
    if (quantity === undefined || amount === undefined || price === undefined || !isPlain(line)) return;
    const product = new Decimal(price).times(quantity);
    if (product.minus(amount).abs().lte(new Decimal(quantity).abs().times('0.005').plus('0.01'))) return;
    const computed = toAmount(product.toString());
    problems.push({
      field: `invoice.invoiceLine[${i}].invoiceLineNetAmount`,
      bt: 'BT-131',
      message: `line ${i + 1}: BT-131 printed as ${toAmount(amount)}, but quantity ${quantity} × price ${price} give ${computed}`,
    });
  });
  return problems;
}
