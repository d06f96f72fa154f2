import { invoiceSchema, type Invoice } from '../invoice/model.js';
import { findAccounts } from './accounts.js';
import { documentTypeOf } from './codes.js';
import { scanDates } from './dates.js';
import { buildDoc, type Doc, type Found } from './document.js';
import { findHeaderFields } from './header-fields.js';
import type { HeaderField } from './lexicon.js';
import { AnalysisError, type AnalyseOptions, type AnalysisResult, type PageText } from './page-text.js';
import { findParties, type Party } from './parties.js';
import { solveTotals } from './solver.js';
import { findLineItems } from './table.js';
import { findTotals } from './totals.js';
import { fold } from './text.js';

export { AnalysisError } from './page-text.js';
export type { AnalyseOptions, AnalysisResult, PageText, Word } from './page-text.js';
export { extractTextLayer } from './text-layer.js';

/** The best candidate: highest score, then the earliest on the page. */
function best<T>(list: Array<Found<T>> | undefined): Found<T> | undefined {
  return list?.slice().sort((a, b) => b.score - a.score || a.page - b.page || a.y - b.y)[0];
}

export function analyseInvoice(pages: PageText[], opts: AnalyseOptions): AnalysisResult {
  if (!pages.some((p) => p.words.some((w) => w.text.trim() !== ''))) {
    throw new AnalysisError('PDF_NO_TEXT', 'No readable text on any page');
  }
  const doc = buildDoc(pages);
  const conf: Record<string, number> = {};
  const invoice: Record<string, unknown> = {};
  const set = (path: string, value: string | undefined, confidence: number) => {
    if (value === undefined || value === '') return;
    setPath(invoice, path, value);
    conf[path] = Math.max(0, Math.min(1, confidence));
  };

  const header = findHeaderFields(doc);
  const pick = (f: HeaderField) => best(header.get(f));

  const number = pick('invoiceNumber');
  set('invoiceNumber', number?.value, number?.score ?? 0);
  const issue = pick('issueDate') ?? issueDateFallback(doc, number);
  set('invoiceIssueDate', issue?.value, issue?.score ?? 0);
  const type = documentType(doc);
  set('invoiceTypeCode', type, 0.8);
  const due = pick('dueDate');
  set('paymentDueDate', due?.value, due?.score ?? 0);
  const delivery = pick('deliveryDate');
  set('deliveryInformation.actualDeliveryDate', delivery?.value, delivery?.score ?? 0);
  const buyerRef = pick('buyerReference');
  set('buyerReference', buyerRef?.value, buyerRef?.score ?? 0);
  const order = pick('orderReference');
  set('purchaseOrderReference', order?.value, order?.score ?? 0);
  const contract = pick('contractReference');
  set('contractReference', contract?.value, contract?.score ?? 0);
  const customer = pick('customerNumber');
  set('buyer.buyerIdentifier', customer?.value, customer?.score ?? 0);
  const taxNo = pick('taxNumber');
  set('seller.sellerTaxRegistrationIdentifier', taxNo?.value, taxNo?.score ?? 0);

  const parties = findParties(doc);
  setParty(set, 'seller', parties.seller);
  setParty(set, 'buyer', parties.buyer);
  if (!customer && parties.buyer?.identifier) set('buyer.buyerIdentifier', parties.buyer.identifier, parties.buyer.score * 0.9);

  const accounts = findAccounts(doc);
  const iban = best(accounts.ibans);
  if (iban) set('paymentInstructions.creditTransfer[0].paymentAccountIdentifier', iban.value, iban.score);
  const bic = best(accounts.bics);
  if (bic) set('paymentInstructions.creditTransfer[0].paymentServiceProviderIdentifier', bic.value, bic.score);
  const inside = (p: Party | undefined, f: Found) => p !== undefined && f.page === p.page && f.y >= p.top - 2 && f.y <= p.bottom + 2;
  const buyerVat = best(accounts.vatIds.filter((v) => v.role === 'buyer' || inside(parties.buyer, v)));
  const sellerVat = best(accounts.vatIds.filter((v) => v.value !== buyerVat?.value && v.role === 'seller' && !inside(parties.buyer, v)));
  set('seller.sellerVatIdentifier', sellerVat?.value, sellerVat?.score ?? 0);
  set('buyer.buyerVatIdentifier', buyerVat?.value, buyerVat?.score ?? 0);

  // The table is read even without line items asked for: its lines are not totals, and its sum is BT-106.
  const table = findLineItems(doc);
  const totals = findTotals(doc, table.lines);
  const solved = solveTotals(totals.fields, totals.vatRows, table.lineSum);
  if (opts.withLineItems) {
    table.rows.forEach((r, i) => {
      const p = `invoiceLine[${i}]`;
      const c = r.arithmetic === true ? 0.95 : r.arithmetic === false ? 0.5 : 0.7;
      set(`${p}.invoiceLineIdentifier`, r.position ?? String(i + 1), r.position ? c : 0.5);
      set(`${p}.invoicedQuantity`, r.quantity, c);
      set(`${p}.invoicedQuantityUnitOfMeasureCode`, r.unit, c * 0.9);
      set(`${p}.invoiceLineNetAmount`, r.amount, c);
      set(`${p}.priceDetails.itemNetPrice`, r.unitPrice, c);
      set(`${p}.lineVatInformation[0].invoicedItemVatRate`, r.vatRate, c * 0.9);
      set(`${p}.lineVatInformation[0].invoicedItemVatCategoryCode`, r.vatRate === undefined ? undefined : Number(r.vatRate) > 0 ? 'S' : undefined, c * 0.8);
      set(`${p}.itemInformation.itemName`, r.name, c * 0.9);
      set(`${p}.itemInformation.itemDescription`, r.description, c * 0.7);
      set(`${p}.itemInformation.itemSellersIdentifier`, r.itemId, c * 0.8);
    });
  }
  const totalPaths: Record<string, string> = {
    lineTotal: 'documentTotals.sumOfInvoiceLineNetAmount',
    allowances: 'documentTotals.sumOfAllowancesOnDocumentLevel',
    charges: 'documentTotals.sumOfChargesOnDocumentLevel',
    netTotal: 'documentTotals.invoiceTotalAmountWithoutVat',
    vatTotal: 'documentTotals.invoiceTotalVatAmount',
    grossTotal: 'documentTotals.invoiceTotalAmountWithVat',
    paid: 'documentTotals.paidAmount',
    due: 'documentTotals.amountDueForPayment',
  };
  for (const [field, value] of Object.entries(solved.totals)) {
    const support = solved.support[field as keyof typeof solved.support];
    const c = support === 'label' ? 0.95 : support === 'derived' ? 0.7 : support === 'unchecked' ? 0.6 : 0.3;
    set(totalPaths[field]!, value, c);
  }
  solved.vatRows.forEach((r, i) => {
    const c = solved.consistency === 1 ? 0.9 : 0.5;
    set(`vatBreakdown[${i}].vatCategoryTaxableAmount`, r.base, c);
    set(`vatBreakdown[${i}].vatCategoryTaxAmount`, r.tax, c);
    set(`vatBreakdown[${i}].vatCategoryRate`, r.rate, c);
    set(`vatBreakdown[${i}].vatCategoryCode`, r.category, c * 0.8);
  });

  const currencyLabel = pick('currency');
  const currency = currencyLabel?.value ?? majority(totals.currencies);
  set('invoiceCurrencyCode', currency, currencyLabel ? currencyLabel.score : 0.7);

  const parsed = conform(invoice, conf);
  const values = Object.values(conf);
  const extractionConfidence = values.length ? values.reduce((a, b) => a + b, 0) / values.length : 0;
  return { invoice: parsed, extractionConfidence, fieldConfidence: conf };
}

function setParty(set: (path: string, v: string | undefined, c: number) => void, role: 'seller' | 'buyer', p: Party | undefined) {
  if (!p) return;
  set(`${role}.${role}Name`, p.name, p.score);
  const a = `${role}.${role}PostalAddress.${role}`;
  set(`${a}AddressLine1`, p.line1, p.score * 0.9);
  set(`${a}City`, p.city, p.score);
  set(`${a}PostCode`, p.postcode, p.score);
  set(`${a}CountryCode`, p.country, p.score * 0.9);
}

function issueDateFallback(doc: Doc, number: Found | undefined): Found | undefined {
  // "Rechnung Nr. 471102 vom 05.03.2018": the date printed with the number.
  const first = doc.pages[0]!;
  if (number) {
    // On the number's line, or on the next one when the title wraps before the date ("… Nr. 471102 vom / 05.03.2018").
    const lines = doc.pages.find((p) => p.page === number.page)?.lines ?? [];
    const at = lines.findIndex((l) => Math.abs(l.top - number.y) < 2 * l.height);
    for (const line of [lines[at], lines[at + 1]]) {
      if (!line || line.top - number.y > 3 * line.height) continue;
      const d = scanDates(line.segments.map((s) => s.text).join(' '), doc.order)[0];
      if (d) return { value: d.iso, score: 0.7, page: number.page, y: number.y, via: 'beside-number' };
    }
  }
  // Otherwise the first date in the upper part of the first page.
  for (const line of first.lines) {
    if (line.top > 0.5 * first.height) break;
    for (const seg of line.segments) {
      const d = scanDates(seg.text, doc.order)[0];
      if (d) return { value: d.iso, score: 0.4, page: first.page, y: line.top, via: 'first-date' };
    }
  }
  return undefined;
}

/** The title: the document-type word printed largest on the first page's upper half. */
function documentType(doc: Doc): string | undefined {
  const first = doc.pages[0]!;
  const segs = first.lines.filter((l) => l.top < 0.5 * first.height).flatMap((l) => l.segments);
  const typed = segs.map((s) => ({ s, t: documentTypeOf(s.text) })).filter((x) => x.t !== undefined && fold(x.s.text).length < 60);
  typed.sort((a, b) => b.s.height - a.s.height);
  return typed[0]?.t ?? (segs.length ? '380' : undefined);
}

function majority(values: string[]): string | undefined {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1])[0]?.[0];
}

/** Sets `a.b[0].c` style paths on a plain object. */
function setPath(target: Record<string, unknown>, path: string, value: string): void {
  const keys = path.split('.').flatMap((k) => {
    const m = /^(\w+)\[(\d+)\]$/.exec(k);
    return m ? [m[1]!, Number(m[2])] : [k];
  });
  let node: Record<string | number, unknown> = target;
  keys.forEach((k, i) => {
    if (i === keys.length - 1) {
      node[k] = value;
      return;
    }
    const nextIsIndex = typeof keys[i + 1] === 'number';
    node[k] ??= nextIsIndex ? [] : {};
    node = node[k] as Record<string | number, unknown>;
  });
}

/**
 * Runs the result through the invoice model, dropping any value the model refuses (and its
 * confidence) instead of failing: the analysis returns what it can vouch for.
 */
function conform(raw: Record<string, unknown>, conf: Record<string, number>): Invoice {
  for (let attempt = 0; attempt < 20; attempt++) {
    const r = invoiceSchema.safeParse(raw);
    if (r.success) return r.data;
    for (const issue of r.error.issues) {
      const path = issue.path;
      let node = raw as Record<string | number, unknown>;
      for (const k of path.slice(0, -1)) node = node[k as string] as Record<string | number, unknown>;
      const last = path.at(-1);
      if (node && last !== undefined) delete node[last as string];
      const key = path.map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`)).join('').replace(/^\./, '').replace(/\.\[/g, '[');
      delete conf[key];
    }
  }
  return {};
}
