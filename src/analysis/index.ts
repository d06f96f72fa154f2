import { Decimal } from '../invoice/decimal.js';
import { invoiceSchema, type Invoice } from '../invoice/model.js';
import { stringAt } from '../invoice/paths.js';
import { findAccounts, sellerSiren, type PlacedFound } from './accounts.js';
import { findPaymentMeans } from './payment-means.js';
import { frenchVatId } from './identifiers.js';
import { findInvoicingPeriod } from './period.js';
import { findPrecedingInvoices } from './preceding-invoice.js';
import { hasUnreadPage, legibilityMark, legibleWords, markUnsureLetters, UNREAD_PAGE, withLegibility } from './legibility.js';
import { NAMED_TWICE, otherNameAtStreet } from './named-twice.js';
import { findContacts, type ContactFound } from './contacts.js';
import { documentTypeOf, INVOICE_TYPE_CODES, UNIT_PIECE, unitNamedIn, unsureKindCodes } from './codes.js';
import { documentConfidence, fieldConfidence, ORDER_DEFAULT, ORDER_NUMBER, UNSURE_KIND } from './confidence.js';
import { printedAmbiguously, scanDates } from './dates.js';
import { buildDoc, lineText, type Doc, type Found } from './document.js';
import { findHeaderFields, printsLabel } from './header-fields.js';
import type { HeaderField, TotalField } from './lexicon.js';
import type { PageText } from '../reading/page-text.js';
import { AnalysisError, type AnalyseOptions, type AnalysisResult } from './result.js';
import { chooseParties, ruledParties, type NameChoice } from './party-choice.js';
import type { NameRole } from './party-names.js';
import type { Parties, Party } from './parties.js';
import { solveTotals, unvouchedRows, UNVOUCHED, type SolvedTotals, type Totals } from './solver.js';
import { keyValueItems } from './key-value-items.js';
import { findLineItems, type ItemRow, type ItemTable } from './table.js';
import { findTotals, taxMatches, type RateTax, type TotalsCandidates, type VatRow } from './totals.js';
import {
  pageLanguage,
  inferBreakdown,
  inferDocumentAdjustments,
  inferCountries,
  inferExemptionReasons,
  inferLineCategories,
  inferRowCategories,
  type ResultAccess,
} from './implied.js';
import { partyHeadings, sectionOf, type Heading } from './sections.js';
import { INFERRED, sourceOf } from './sources.js';
import { fold } from './text.js';
import { placesOf, type Hint } from './where-read.js';

export { AnalysisError } from './result.js';
export type { AnalyseOptions, AnalysisResult } from './result.js';

/**
 * The best candidate: highest score, then the earliest on the page. It is contested when a
 * different value scored (almost) as well: two labels disagreeing is worth knowing, and the
 * other values are for a person to choose from.
 */
function best<T>(list: Array<Found<T>> | undefined): (Found<T> & { contested: boolean; rivals: T[] }) | undefined {
  const sorted = list?.slice().sort((a, b) => b.score - a.score || a.page - b.page || a.y - b.y);
  const top = sorted?.[0];
  if (!top) return undefined;
  const rivals = [...new Set(sorted!.filter((o) => o.value !== top.value && o.score >= top.score - 0.05).map((o) => o.value))];
  return { ...top, contested: rivals.length > 0, rivals };
}

/** The result with the evidence behind each field, for the benchmark that calibrates the confidences. */
export interface EvidencedResult extends AnalysisResult {
  evidence: Record<string, string>;
}

export function analyseInvoice(pages: PageText[], opts: AnalyseOptions): AnalysisResult {
  const { evidence: _evidence, ...result } = analyseWithEvidence(pages, opts);
  return result;
}

/** The fields read so far, each with how it was found. */
class Reading {
  readonly invoice: Record<string, unknown> = {};
  readonly evidence: Record<string, string> = {};
  /** Where a finder saw a value, to tell its printing from other printings of the same value. */
  readonly hints: Record<string, Hint> = {};
  /** Other readings of a value that the page leaves open, for a person to choose from. */
  readonly alternatives: Record<string, string[]> = {};
  /** What the page prints in a value's place that no value could be read from ("RM" as a unit), for a person to code. */
  readonly unreadWords: Record<string, string[]> = {};

  set(path: string, value: string | undefined, via: string, hint?: Hint): void {
    if (value === undefined || value === '') return;
    setPath(this.invoice, path, value);
    this.evidence[path] = via;
    if (hint) this.hints[path] = hint;
  }

  setFound(path: string, f: (Found & { contested?: boolean; rivals?: string[] }) | undefined): void {
    this.set(path, f?.value, f ? `${f.via}${f.contested ? ':contested' : ''}` : '', f && { page: f.page, y: f.y });
    if (f?.rivals?.length) this.alternatives[path] = f.rivals;
  }
}

export function analyseWithEvidence(pages: PageText[], opts: AnalyseOptions): EvidencedResult {
  // Text layers of fonts without a character map come out as symbols only: that is no text either.
  if (!pages.some((p) => p.words.some((w) => /[\p{L}\p{N}]/u.test(w.text)))) {
    throw new AnalysisError('PDF_NO_TEXT', 'No readable text on any page');
  }
  const doc = buildDoc(pages);
  const r = new Reading();
  const header = findHeaderFields(doc);
  const pick = (f: HeaderField) => best(header.get(f));
  const { type, customer } = readHeader(r, doc, pick);
  const headings = partyHeadings(doc);
  const { parties, choices } = chooseParties(doc, headings, ruledParties(doc, headings), opts.partyModels);
  readParties(r, doc, parties, choices, customer);
  holdNamesNamedTwice(r, doc);
  readAccounts(r, doc, parties, headings);
  // The table is read even without line items asked for: its lines are not totals, and its sum is BT-106.
  const table = itemsOf(doc);
  readContacts(r, doc, parties, table);
  // A credit note states positive amounts (EN 16931); a corrective invoice keeps the signs it prints.
  const signed = (v: string) => (type.code === '381' ? new Decimal(v).abs().toFixed(2) : v);
  const totals = readTotals(r, doc, table, signed);
  if (opts.withLineItems) {
    const rates = breakdownRates(r.invoice);
    // Its quantities too: a credit note's "-2 × 7,62 = -15,24" is 2 × 7.62 = 15.24.
    const lines = type.code === '381' ? table.rows.map(positiveQuantity) : table.rows;
    lines.forEach((row, i) => readLine(r, doc, row, i, signed, rates));
    holdLostUnits(r, doc, lines);
  }
  inferTheRest(r, doc, table);
  const currencyLabel = pick('currency');
  r.set('invoiceCurrencyCode', currencyLabel?.value ?? majority(totals.currencies), currencyLabel ? 'label' : 'printed-majority');
  return resultOf(r, doc, pages, choices, table);
}

/** Number, dates, type, references: the fields the labels of the header give. */
function readHeader(
  r: Reading,
  doc: Doc,
  pick: (f: HeaderField) => ReturnType<typeof best<string>>,
): { type: { code: string; via: string }; customer: Found | undefined } {
  const number = pick('invoiceNumber');
  r.setFound('invoiceNumber', number);
  r.setFound('invoiceIssueDate', pick('issueDate') ?? issueDateFallback(doc, number));
  const type = readType(r, doc, pick('typeCode'));
  r.setFound('paymentDueDate', pick('dueDate'));
  r.setFound('paymentTerms', pick('paymentTerms'));
  r.setFound('deliveryInformation.actualDeliveryDate', pick('deliveryDate'));
  const period = findInvoicingPeriod(doc);
  r.setFound('invoicingPeriod.invoicingPeriodStartDate', period?.start);
  r.setFound('invoicingPeriod.invoicingPeriodEndDate', period?.end);
  const references = orderAndBuyerReference(pick('orderReference'), pick('yourReference'), pick('buyerReference'));
  r.setFound('buyerReference', references.buyer);
  r.setFound('purchaseOrderReference', references.order);
  if (number && references.order?.value === number.value) r.evidence.invoiceNumber = `${r.evidence.invoiceNumber}${ORDER_NUMBER}`;
  r.setFound('contractReference', pick('contractReference'));
  const preceding = findPrecedingInvoices(doc, pick('precedingInvoice'), number?.value);
  preceding.forEach((p, i) => {
    r.setFound(`precedingInvoiceReference[${i}].precedingInvoiceReference`, p.number);
    r.setFound(`precedingInvoiceReference[${i}].precedingInvoiceIssueDate`, p.date);
  });
  // A correction's title that also names the invoice corrected is one (384): issuers send one that names none as 380 too.
  if (type.code === '384' && preceding.length && r.evidence.invoiceTypeCode?.startsWith('title:'))
    r.evidence.invoiceTypeCode = `${r.evidence.invoiceTypeCode}:names-invoice`;
  const customer = pick('customerNumber');
  r.setFound('buyer.buyerIdentifier', customer);
  r.setFound('seller.sellerTaxRegistrationIdentifier', pick('taxNumber'));
  return { type, customer };
}

/**
 * "Your reference" on an English or French invoice is the customer's order, unless the page also
 * prints the order under a label of its own: then it is the buyer's reference ("Your Order:
 * A7450891", "Your Reference: dept0815").
 */
function orderAndBuyerReference(order: Found | undefined, yours: Found | undefined, buyer: Found | undefined) {
  if (!yours || !order) return { order: order ?? yours, buyer };
  return { order, buyer: buyer ?? (yours.value === order.value ? undefined : yours) };
}

function readParties(r: Reading, doc: Doc, parties: Parties, choices: Record<NameRole, NameChoice>, customer: Found | undefined): void {
  setParty(r, doc, 'seller', parties.seller, choices.seller);
  setParty(r, doc, 'buyer', parties.buyer, choices.buyer);
  if (!customer && parties.buyer?.identifier) r.set('buyer.buyerIdentifier', parties.buyer.identifier, `party:${parties.buyer.via}`);
  // The number in the seller's own section of a key–value rendering is the seller's identifier.
  if (parties.seller?.via === 'key-value' && parties.seller.identifier)
    r.set('seller.sellerIdentifier[0]', parties.seller.identifier, 'party:key-value');
}

/** A party's name the page contradicts, another company named at its street, is held open with the other name offered. */
function holdNamesNamedTwice(r: Reading, doc: Doc): void {
  for (const role of ['seller', 'buyer'] as const) {
    const path = `${role}.${role}Name`;
    const name = stringAt(r.invoice, path);
    const address = `${role}.${role}PostalAddress`;
    const street = stringAt(r.invoice, `${address}.${role}AddressLine1`);
    const other = name && street ? otherNameAtStreet(doc, name, street, stringAt(r.invoice, `${address}.${role}PostCode`)) : undefined;
    if (!other) continue;
    r.evidence[path] = `${r.evidence[path]}${NAMED_TWICE}`;
    r.alternatives[path] = [...(r.alternatives[path] ?? []), other];
  }
}

/**
 * The seller's contact: printed in the seller's block (or just under it), the letterhead and the
 * blocks beside it above the item table (a contact person's "phone:" under "Account manager:"),
 * or the footer; never in the buyer's. Of several, the first printed is taken: a contact person's
 * above the items before the company's in the footer.
 */
function readContacts(r: Reading, doc: Doc, parties: Parties, table: ItemTable): void {
  const heightOf = (c: ContactFound) => doc.pages.find((p) => p.page === c.page)!.height;
  const near = (p: Party | undefined, c: ContactFound) =>
    p !== undefined && c.page === p.page && c.y >= p.top - 2 && c.y <= p.bottom + 0.045 * heightOf(c);
  const first = table.rows.find((row) => row.top !== undefined);
  const aboveItems = (c: ContactFound) =>
    first ? c.page < first.page || (c.page === first.page && c.y < first.top!) : c.y < 0.2 * heightOf(c);
  const sellerPlace = (c: ContactFound) => near(parties.seller, c) || aboveItems(c) || c.y > 0.8 * heightOf(c);
  const found = findContacts(doc);
  // The buyer's own, wherever the page repeats it (a contact block that prints it beside the seller's person).
  const buyers = new Set(found.filter((c) => near(parties.buyer, c)).map((c) => c.value));
  const contacts = found.filter((c) => sellerPlace(c) && !buyers.has(c.value));
  r.set('seller.sellerContact.sellerContactTelephoneNumber', contacts.find((c) => c.kind === 'phone')?.value, 'contact:label');
  r.set('seller.sellerContact.sellerContactEmailAddress', contacts.find((c) => c.kind === 'email')?.value, 'contact:address');
}

/**
 * The payment means the page states; for a direct debit, its mandate, the creditor's id and the
 * buyer's account it draws on. Returns whether the payment is a direct debit.
 */
function readDirectDebit(r: Reading, doc: Doc, debited: Found[]): boolean {
  const means = findPaymentMeans(doc);
  r.setFound('paymentInstructions.paymentMeansTypeCode', means.code);
  if (means.code?.value !== '59' && means.code?.value !== '49') return false;
  r.setFound('paymentInstructions.directDebit.mandateReferenceIdentifier', means.mandate);
  r.setFound('paymentInstructions.directDebit.bankAssignedCreditorIdentifier', means.creditor);
  r.setFound('paymentInstructions.directDebit.debitedAccountIdentifier', best(debited));
  return true;
}

/** Bank account, VAT ids and register number, each given to the party whose block or section prints it. */
function readAccounts(r: Reading, doc: Doc, parties: Parties, headings: readonly Heading[]): void {
  const accounts = findAccounts(doc);
  // A debit draws on the buyer's account: an IBAN it prints is no account to pay into, whoever's it is.
  if (!readDirectDebit(r, doc, accounts.debited)) {
    r.setFound('paymentInstructions.creditTransfer[0].paymentAccountIdentifier', best(accounts.ibans));
    r.setFound('paymentInstructions.creditTransfer[0].paymentServiceProviderIdentifier', best(accounts.bics));
  }
  // A VAT id inside a party's block, or printed right under it, is that party's.
  const belongs = (p: Party | undefined, v: PlacedFound) =>
    p !== undefined &&
    v.page === p.page &&
    v.y >= p.top - 2 &&
    v.y <= p.bottom + 3 * v.segment.height &&
    v.segment.x0 >= p.x0 - v.segment.height &&
    v.segment.x0 < p.x1;
  // In a readable rendering (a heading for each party) the VAT id stands in its party's section, however far below the name.
  const sections = headings.some((h) => h.role === 'seller') && headings.some((h) => h.role === 'buyer') ? headings : [];
  const sectionRole = (v: PlacedFound) =>
    sectionOf(sections, { page: v.page, top: v.segment.top, x0: v.segment.x0, x1: v.segment.x1 })?.role;
  // A number the seller's section prints is the seller's, wherever else it is repeated (notes under the buyer's section).
  const sellerSection = new Set(accounts.vatIds.filter((v) => sectionRole(v) === 'seller').map((v) => v.value));
  const buyersSection = (v: PlacedFound) => sectionRole(v) === 'buyer' && !sellerSection.has(v.value);
  const buyerVat = best(accounts.vatIds.filter((v) => v.role === 'buyer' || belongs(parties.buyer, v) || buyersSection(v)));
  const sellerVat = best(
    accounts.vatIds.filter((v) => v.value !== buyerVat?.value && v.role === 'seller' && !belongs(parties.buyer, v) && !buyersSection(v)),
  );
  r.setFound('seller.sellerVatIdentifier', sellerVat);
  r.setFound('buyer.buyerVatIdentifier', buyerVat);
  // A commercial register number outside the buyer's block is the seller's legal registration (BT-30), when only one is printed.
  const registers = accounts.registers.filter((f) => !belongs(parties.buyer, f));
  if (new Set(registers.map((f) => f.value)).size === 1) r.setFound('seller.sellerLegalRegistrationIdentifier', registers[0]);
  else
    readFrenchNumbers(
      r,
      doc,
      accounts.sirets.filter((f) => !belongs(parties.buyer, f)),
      sellerVat !== undefined,
    );
}

/**
 * A French seller's SIREN is its BT-30 where no VAT id names it (`sellerSiren`); else its SIRET and
 * SIREN are offered for a person to pick. The VAT id a SIREN makes is offered too: not printed, it
 * is no reading, and a person confirms it where the e-invoice needs one.
 */
function readFrenchNumbers(r: Reading, doc: Doc, sirets: readonly PlacedFound[], vatPrinted: boolean): void {
  const siren = sellerSiren(sirets, vatPrinted, doc.source === 'ocr');
  if (siren) {
    r.setFound('seller.sellerLegalRegistrationIdentifier', siren);
    r.unreadWords['seller.sellerVatIdentifier'] = [frenchVatId(siren.value)];
    return;
  }
  const offered = [...new Set(sirets.flatMap((f) => [f.value, f.value.slice(0, 9)]))];
  if (offered.length > 0) r.unreadWords['seller.sellerLegalRegistrationIdentifier'] = offered;
}

/**
 * How a total was found. A total worked out from the others where the page prints another under
 * its label is in conflict with the page ("Zahlbetrag 440,00" under "Offene Zahlungen 220,00";
 * a gross of net plus one rate's VAT line beside a printed "Total with VAT"). An amount due
 * worked out as the gross less nothing paid is held in doubt where it stands on a page the scan
 * read as noise.
 */
function supportOf(doc: Doc, totals: TotalsCandidates, solved: SolvedTotals, field: TotalField, value: string): string {
  const support = solved.support[field]!;
  if (support !== 'derived') return support;
  // Payments and line sums are derived beside printed part payments and subtotals as a rule; the totals are not.
  const printedAlone = field === 'netTotal' || field === 'vatTotal' || field === 'grossTotal' || field === 'due';
  if (printedAlone && (totals.fields.get(field) ?? []).some((f) => !new Decimal(f.value).eq(value))) return 'conflict';
  return field === 'due' && hasUnreadPage(doc) ? `${support}${UNREAD_PAGE}` : support;
}

/** The document totals and the VAT breakdown, solved against each other and the items' sum. */
function readTotals(r: Reading, doc: Doc, table: ItemTable, signed: (v: string) => string): TotalsCandidates {
  const totals = findTotals(doc, table.lines);
  const rowsComplete = totals.openRates.every((o) => totals.vatRows.some((row) => row.rate === o.rate));
  const solved = solveTotals(totals.fields, totals.vatRows, table.lineSum, rowsComplete);
  for (const [field, value] of Object.entries(solved.totals) as Array<[TotalField, string]>) {
    const printed = totals.fields.get(field)?.find((f) => new Decimal(f.value).eq(value));
    r.set(
      TOTAL_PATHS[field],
      signed(value),
      `totals:${supportOf(doc, totals, solved, field, value)}`,
      printed && { page: printed.page, y: printed.y },
    );
  }
  const completed = missingRow(solved.vatRows, totals.openRates, solved.totals);
  const rowsVia = completed
    ? 'vatrow:completed'
    : `vatrow:${solved.consistency === 1 ? 'consistent' : solved.consistency === undefined ? 'unchecked' : 'inconsistent'}`;
  const vatRows = completed
    ? [...solved.vatRows, completed]
    : solved.vatRows.length
      ? solved.vatRows
      : rateTaxRows(
          totals.rateTaxes,
          solved.totals,
          table.rows.map((row) => row.amount),
        );
  const unvouched = unvouchedRows(vatRows, solved.totals.netTotal);
  vatRows.forEach((row, i) => {
    const at = rowHint(row);
    const via = unvouched.has(i) ? `${rowsVia}${UNVOUCHED}` : rowsVia;
    r.set(`vatBreakdown[${i}].vatCategoryTaxableAmount`, signed(row.base), via, at);
    r.set(`vatBreakdown[${i}].vatCategoryTaxAmount`, signed(row.tax), new Decimal(row.rate).isZero() ? rowsVia : via, at);
    r.set(`vatBreakdown[${i}].vatCategoryRate`, row.rate, rowsVia, at);
    r.set(`vatBreakdown[${i}].vatCategoryCode`, row.category, rowsVia, at);
  });
  return totals;
}

/** A breakdown row read from the page knows its line; one computed from rates and taxes does not. */
function rowHint(row: RateRow | VatRow): Hint | undefined {
  return 'page' in row ? { page: row.page, y: row.y } : undefined;
}

/** The rates of the VAT breakdown read, as numbers ("19.00" and "19" alike). */
function breakdownRates(invoice: Record<string, unknown>): ReadonlySet<string> {
  const rows = (invoice.vatBreakdown ?? []) as Array<{ vatCategoryRate?: string }>;
  return new Set(rows.flatMap((row) => (row.vatCategoryRate === undefined ? [] : [new Decimal(row.vatCategoryRate).toString()])));
}

/**
 * Quantity × price = amount says nothing of a line's VAT rate; the breakdown does: a rate it lists
 * is borne out, one it lacks was likely misread ("19,82" for "19 %", "3" for "19").
 */
function rateEvidence(rate: string | undefined, rates: ReadonlySet<string>): string {
  if (rates.size === 0) return 'line:rate:alone';
  return rate !== undefined && rates.has(new Decimal(rate).toString()) ? 'line:rate:listed' : 'line:rate:unlisted';
}

const positiveQuantity = (row: ItemRow): ItemRow =>
  row.quantity === undefined ? row : { ...row, quantity: new Decimal(row.quantity).abs().toString() };

/** The evidence of a line's description and item number: calibrated apart from the figures the line's sums check. */
const LINE_TEXT = 'line:text';

/** How surely a scan read the words of an item's name on the row's first line ("RESES Frühstück"): an evidence suffix. */
function nameLegibility(doc: Doc, row: ItemRow): string | undefined {
  if (row.name === undefined || row.top === undefined) return undefined;
  return legibilityMark(legibleWords(doc, { page: row.page, top: row.top, bottom: row.top, x0: 0, x1: Infinity }, row.name));
}

/**
 * A line's unit and how it was found. "Stk", "pcs", "pce" stand for several codes (C62, H87, XPP):
 * calibrated apart from the units of measure. Where the table prints no unit at all, the item's
 * name may ("Beratung (Stunde)"), and "one" would be a wrong code then.
 */
function lineUnit(row: ItemRow, via: string): [string | undefined, string] {
  if (row.unit !== undefined) return [row.unit, row.unit === UNIT_PIECE ? 'unit:piece' : via];
  const named = row.unitPrinted === undefined && row.name !== undefined ? unitNamedIn(row.name) : undefined;
  return [named, named === undefined ? via : 'unit:named'];
}

/** Words that head a unit column or label a unit ("Einheit", "Unit", "ME"), "Preis pro Einheit" among them. */
const UNIT_WORD = /^(?:einheit|mengeneinheit|unit|units|unite|uom)$/;
const UNIT_ABBREVIATION = /^(?:ME|EH)$/;

/** Whether the page prints units: one read on a line, or a word that heads or labels them. */
function printsUnits(doc: Doc, rows: readonly ItemRow[]): boolean {
  if (rows.some((row) => row.unit !== undefined || row.unitPrinted !== undefined)) return true;
  const words = doc.pages.flatMap((p) => p.lines.flatMap((l) => l.segments.flatMap((s) => s.text.split(/\s+/))));
  return words.some((w) => UNIT_WORD.test(fold(w).replace(/[^a-z]/g, '')) || UNIT_ABBREVIATION.test(w.replace(/[^A-Za-z]/g, '')));
}

/**
 * On a scan, a line whose unit was not read where the page prints units: the recogniser lost it
 * ("KGM" beside "Einheit" read onto no line), so it is printed, unread, and "one" would be a guess.
 */
function holdLostUnits(r: Reading, doc: Doc, rows: readonly ItemRow[]): void {
  if (doc.source !== 'ocr' || !printsUnits(doc, rows)) return;
  rows.forEach((_, i) => {
    const path = `invoiceLine[${i}].invoicedQuantityUnitOfMeasureCode`;
    if (stringAt(r.invoice, path) === undefined) r.unreadWords[path] ??= [];
  });
}

function readLine(r: Reading, doc: Doc, row: ItemRow, i: number, signed: (v: string) => string, rates: ReadonlySet<string>): void {
  const p = `invoiceLine[${i}]`;
  const via = `line:${row.arithmetic === true ? 'arithmetic' : row.arithmetic === false ? 'inconsistent' : 'unchecked'}`;
  const at = row.top === undefined ? undefined : { page: row.page, y: row.top };
  const set = (path: string, value: string | undefined, how: string) => r.set(`${p}.${path}`, value, how, at);
  set('invoiceLineIdentifier', row.position ?? String(i + 1), row.position ? via : 'line:numbered');
  set('invoicedQuantity', row.quantity, via);
  const [unit, unitHow] = lineUnit(row, via);
  set('invoicedQuantityUnitOfMeasureCode', unit, unitHow);
  if (row.unit === undefined && row.unitPrinted !== undefined)
    r.unreadWords[`${p}.invoicedQuantityUnitOfMeasureCode`] = row.unitPrinted ? [row.unitPrinted] : [];
  set('invoiceLineNetAmount', row.amount === undefined ? undefined : signed(row.amount), via);
  set('priceDetails.itemNetPrice', row.unitPrice, via);
  set('priceDetails.itemPriceBaseQuantity', row.priceBase, via);
  set('priceDetails.itemPriceBaseQuantityUnitOfMeasure', row.priceBaseUnit, via);
  set('lineVatInformation[0].invoicedItemVatRate', row.vatRate, rateEvidence(row.vatRate, rates));
  set('lineVatInformation[0].invoicedItemVatCategoryCode', row.vatCategory, via);
  // How surely a name is whole is told by how it was set, not by the line's arithmetic.
  set('itemInformation.itemName', row.name, `${row.nameSet ? `name:${row.nameSet}` : via}${nameLegibility(doc, row) ?? ''}`);
  if (row.nameAlternatives) r.alternatives[`${p}.itemInformation.itemName`] = row.nameAlternatives;
  // Nor does the arithmetic vouch for the words and numbers beside the figures (a GTIN taken for the seller's item number).
  set('itemInformation.itemDescription', row.description, LINE_TEXT);
  set('itemInformation.itemSellersIdentifier', row.itemId, LINE_TEXT);
  row.allowances?.forEach((a, j) => {
    set(`invoiceLineAllowances[${j}].invoiceLineAllowanceAmount`, a.amount, via);
    set(`invoiceLineAllowances[${j}].invoiceLineAllowanceReason`, a.reason, `${via}${a.legibility ?? ''}`);
    set(`invoiceLineAllowances[${j}].invoiceLineAllowanceReasonCode`, a.code, via);
  });
  row.charges?.forEach((c, j) => {
    set(`invoiceLineCharges[${j}].invoiceLineChargeAmount`, c.amount, via);
    set(`invoiceLineCharges[${j}].invoiceLineChargeReason`, c.reason, `${via}${c.legibility ?? ''}`);
  });
}

/** What the page implies but does not print next to a label: countries, categories, a missing breakdown, adjustments. */
function inferTheRest(r: Reading, doc: Doc, table: ItemTable): void {
  const access: ResultAccess = {
    get: (path) => stringAt(r.invoice, path),
    infer: (path, value, rule) => {
      if (r.evidence[path] === undefined) r.set(path, value, `${INFERRED}${rule}`);
    },
    read: (path, value, via) => {
      if (r.evidence[path] === undefined) r.set(path, value, via);
    },
    count: (list) => (Array.isArray(r.invoice[list]) ? (r.invoice[list] as unknown[]).length : 0),
    inferredBy: (path) => (r.evidence[path]?.startsWith(INFERRED) ? r.evidence[path]!.slice(INFERRED.length) : undefined),
  };
  inferCountries(access, doc);
  inferRowCategories(access, doc);
  inferLineCategories(access, doc);
  inferBreakdown(access, doc);
  // A breakdown found only now gives the lines that print no rate theirs.
  inferLineCategories(access, doc);
  inferExemptionReasons(access, doc);
  inferDocumentAdjustments(access, doc, table.lines);
}

/** The invoice as the model parses it, with each field's confidence and source, the names' alternatives and what was printed but not read. */
function resultOf(r: Reading, doc: Doc, pages: PageText[], choices: Record<NameRole, NameChoice>, table: ItemTable): EvidencedResult {
  const { invoice, evidence } = r;
  const parsed = conform(invoice, evidence);
  markDefaultOrder(doc, invoice, evidence);
  markUnsureLetters(doc, invoice, evidence);
  // OCR readings are calibrated apart from text-layer ones: the same layout evidence is weaker when the letters are guessed.
  if (doc.source === 'ocr') for (const path of Object.keys(evidence)) evidence[path] = `ocr:${evidence[path]}`;
  const quality = ocrQuality(pages);
  const fieldConf: Record<string, number> = {};
  for (const [path, via] of Object.entries(evidence)) fieldConf[path] = fieldConfidence(path, via, undefined, quality);
  const fieldSource = Object.fromEntries(Object.entries(evidence).map(([path, via]) => [path, sourceOf(via)]));
  const language = pageLanguage(doc);
  const printed = Object.keys(fieldSource).filter((path) => fieldSource[path] === 'printed');
  const places = placesOf(doc, new Map(printed.map((path) => [path, stringAt(invoice, path) ?? ''])), r.hints);
  const candidates: Record<string, string[]> = {
    // Only for values the answer keeps (conform drops what does not fit the model).
    ...Object.fromEntries(Object.entries(r.alternatives).filter(([path]) => stringAt(parsed, path) !== undefined)),
    ...r.unreadWords,
    ...Object.fromEntries(
      (['seller', 'buyer'] as const)
        .map((role) => [
          `${role}.${role}Name`,
          [...new Set([...(r.alternatives[`${role}.${role}Name`] ?? []), ...choices[role].alternatives])],
        ])
        .filter(([, names]) => names!.length > 0),
    ),
  };
  // An item table printed but not read: the conversion must not stand one line per rate in for its items.
  // A delivery date labelled but not read: nor may it take the issue date for one.
  const unread = [
    ...(table.rowsPrinted && table.rows.length === 0 ? ['BG-25'] : []),
    ...(!parsed.deliveryInformation?.actualDeliveryDate && printsLabel(doc, 'deliveryDate') ? ['BT-72'] : []),
  ];
  return {
    invoice: parsed,
    ...(Object.keys(candidates).length ? { candidates } : {}),
    ...(unread.length ? { unread } : {}),
    extractionConfidence: documentConfidence(fieldConf),
    fieldConfidence: fieldConf,
    fieldSource,
    fieldPlace: places,
    ...(language ? { language } : {}),
    evidence,
  };
}

type RateRow = { rate: string; base: string; tax: string; category?: string };

/**
 * Rates printed with their tax but not their base ("TVA 20 % 370,92", "IVA 7% 19,25 / IVA 19%
 * 37,62"), whose taxes add up to the VAT total. One rate: its base is the net total when net ×
 * rate = tax. Several: the only way of dividing the item amounts among the rates so that each
 * rate's share times the rate rounds to its tax (and the shares add up to the net total) gives
 * the bases; without items, or with more than one way, none.
 */
function rateTaxRows(rateTaxes: RateTax[], totals: Totals, items: Array<string | undefined>): RateRow[] {
  const distinct = [...new Map(rateTaxes.map((r) => [`${r.rate}|${r.tax}`, r])).values()];
  const { netTotal, vatTotal } = totals;
  if (distinct.length === 0 || netTotal === undefined || vatTotal === undefined) return [];
  if (
    !distinct.reduce((sum, r) => sum.plus(r.tax), new Decimal(0)).eq(vatTotal) ||
    new Set(distinct.map((r) => r.rate)).size !== distinct.length
  )
    return [];
  const row = (r: RateTax, base: string): RateRow => ({ rate: r.rate, base, tax: r.tax, ...(r.category ? { category: r.category } : {}) });
  if (distinct.length === 1) return taxMatches(netTotal, distinct[0]!.rate, distinct[0]!.tax) ? [row(distinct[0]!, netTotal)] : [];
  // The search tries every division (rates^items): kept to a few thousand on the analysis' path.
  if (items.length === 0 || items.length > 8 || items.some((a) => a === undefined) || distinct.length > 3) return [];
  const amounts = items.map((a) => new Decimal(a!));
  // Rounded as printed: the share times the rate, to the cent, is the tax.
  const fits = (base: Decimal, r: RateTax) =>
    base.times(r.rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).eq(r.tax) && !base.isZero();
  const found = new Set<string>();
  const shares = new Array<Decimal>(distinct.length);
  const assign = (i: number) => {
    if (found.size > 1) return;
    if (i === amounts.length) {
      if (shares.every((b, k) => fits(b, distinct[k]!)) && shares.reduce((s, b) => s.plus(b), new Decimal(0)).eq(netTotal))
        found.add(shares.map((b) => b.toFixed(2)).join('|'));
      return;
    }
    for (let k = 0; k < distinct.length; k++) {
      shares[k] = shares[k]!.plus(amounts[i]!);
      assign(i + 1);
      shares[k] = shares[k]!.minus(amounts[i]!);
    }
  };
  shares.fill(new Decimal(0));
  assign(0);
  if (found.size !== 1) return [];
  const bases = [...found][0]!.split('|');
  return distinct.map((r, k) => row(r, bases[k]!));
}

/**
 * One breakdown row whose amounts could not be read while its rate could: what the totals
 * leave for it (net total − the other bases, VAT total − the other taxes), when base × rate
 * gives that tax. The arithmetic of the whole breakdown stands in for the illegible digits.
 */
function missingRow(rows: VatRow[], openRates: TotalsCandidates['openRates'], totals: Totals): VatRow | undefined {
  const known = new Set(rows.map((r) => r.rate));
  const open = new Map(openRates.filter((r) => !known.has(r.rate)).map((r) => [r.rate, r]));
  if (open.size !== 1 || totals.netTotal === undefined || totals.vatTotal === undefined) return undefined;
  const only = [...open.values()][0]!;
  const base = rows.reduce((s, r) => s.minus(r.base), new Decimal(totals.netTotal));
  const tax = rows.reduce((s, r) => s.minus(r.tax), new Decimal(totals.vatTotal));
  const fits = only.rate === '0' ? tax.isZero() && !base.isZero() : taxMatches(base.toFixed(2), only.rate, tax.toFixed(2));
  if (!fits) return undefined;
  const last = rows.at(-1);
  return {
    rate: only.rate,
    base: base.toFixed(2),
    tax: tax.toFixed(2),
    ...(only.category ? { category: only.category } : {}),
    page: last?.page ?? 1,
    y: last?.y ?? 0,
    labelled: false,
  };
}

/** Mean OCR word confidence over all pages (1 for text layers, which have none). */
function ocrQuality(pages: PageText[]): number {
  const values = pages.flatMap((p) => p.words.map((w) => w.confidence)).filter((c): c is number => c !== undefined);
  return values.length ? values.reduce((a, b) => a + b, 0) / values.length : 1;
}

const TOTAL_PATHS: Readonly<Record<TotalField, string>> = {
  lineTotal: 'documentTotals.sumOfInvoiceLineNetAmount',
  allowances: 'documentTotals.sumOfAllowancesOnDocumentLevel',
  charges: 'documentTotals.sumOfChargesOnDocumentLevel',
  netTotal: 'documentTotals.invoiceTotalAmountWithoutVat',
  vatTotal: 'documentTotals.invoiceTotalVatAmount',
  grossTotal: 'documentTotals.invoiceTotalAmountWithVat',
  paid: 'documentTotals.paidAmount',
  rounding: 'documentTotals.roundingAmount',
  due: 'documentTotals.amountDueForPayment',
};

/**
 * A date read from a slash date that would be another date in the other order, on a page whose
 * slash dates never settle the order, was read day-first by default: its evidence says so, and
 * the calibration measures such readings apart.
 */
function markDefaultOrder(doc: Doc, invoice: Record<string, unknown>, evidence: Record<string, string>): void {
  if (doc.orderSettled) return;
  const text = doc.pages.flatMap((p) => p.lines.map(lineText)).join('\n');
  for (const path of Object.keys(evidence)) {
    const value = stringAt(invoice, path);
    if (typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) && printedAmbiguously(text, value))
      evidence[path] = `${evidence[path]}${ORDER_DEFAULT}`;
  }
}

/** The ranker's probability in coarse steps: the calibration measures how often each step's names were right. */
const PROBABILITY_STEPS = [0.9, 0.7];

function setParty(r: Reading, doc: Doc, role: 'seller' | 'buyer', p: Party | undefined, choice: NameChoice) {
  if (!p) return;
  const via = `party:${p.via}`;
  const step = PROBABILITY_STEPS.find((s) => (choice.probability ?? 0) >= s) ?? 0;
  const block = { page: p.page, y: p.top };
  const set = (path: string, value: string | undefined, how: string) => r.set(path, value, withLegibility(doc, p, value, how), block);
  set(`${role}.${role}Name`, p.name, `rank:${step}`);
  const a = `${role}.${role}PostalAddress.${role}`;
  set(`${a}AddressLine1`, p.line1, via);
  set(`${a}AddressLine2`, p.line2, via);
  set(`${a}AddressLine3`, p.line3, via);
  set(`${a}City`, p.city, via);
  set(`${a}PostCode`, p.postcode, via);
  r.set(`${a}CountryCode`, p.country, via, block);
}

/**
 * The item table, or the blocks of labelled values where they give more items (a block's labels
 * may pass for a table header); items printed as either but read as neither are printed all the same.
 */
function itemsOf(doc: Doc): ItemTable {
  const table = findLineItems(doc);
  const blocks = keyValueItems(doc);
  if (blocks.rows.length > table.rows.length) return blocks;
  return blocks.rowsPrinted && table.rows.length === 0 ? { ...table, rowsPrinted: true } : table;
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

/** A code printed beside its label ("Rechnungsart: 380") settles the type; a title only names its kind. */
function readType(r: Reading, doc: Doc, printed: Found | undefined): { code: string; via: string } {
  if (printed) {
    r.setFound('invoiceTypeCode', printed);
    return { code: printed.value, via: printed.via };
  }
  const type = documentType(doc);
  r.set('invoiceTypeCode', type.code, type.via);
  if (type.others) r.alternatives.invoiceTypeCode = type.others;
  return type;
}

/**
 * The title: the document-type word printed largest on the first page's upper half; an invoice
 * when none is. `others`: the codes a kind the page cannot settle may stand for instead.
 */
function documentType(doc: Doc): { code: string; via: string; others?: string[] } {
  const first = doc.pages[0]!;
  const segs = first.lines.filter((l) => l.top < 0.5 * first.height).flatMap((l) => l.segments);
  const typed = segs
    .map((s) => ({ s, title: titleOf(s.text) }))
    .map(({ s, title }) => ({ s, printed: printedTypeCode(title), named: documentTypeOf(title), title }))
    .filter((x) => (x.printed ?? x.named) !== undefined && fold(x.title).length < 60);
  typed.sort((a, b) => b.s.height - a.s.height);
  const top = typed[0];
  if (!top) return { code: '380', via: 'default' };
  const code = (top.printed ?? top.named)!;
  // A kind issuers code either way is a guess, unless the rendering prints the code itself.
  const others = top.printed ? undefined : unsureKindCodes(top.title);
  return { code, via: `title:${code}${others ? UNSURE_KIND : ''}`, ...(others ? { others: [...others] } : {}) };
}

/** A title line without the number and date it goes on to give ("Rechnung des Versicherers (575) Nr. 00.123 vom 11.03.2018"): a sentence stays long. */
function titleOf(text: string): string {
  return text.replace(/\s(?:nr\.?|no\.?|n°|nº|number|nummer|numéro|numero)\s.*$/i, '');
}

/**
 * Renderings of the XML print the type code itself after its name ("Gutschrift (Selbst
 * ausgestellte Rechnung) (389)"): where a title names a document type and carries a code in
 * parentheses that EN 16931 allows for invoices and credit notes, that code is the type.
 */
function printedTypeCode(title: string): string | undefined {
  const code = /\((\d{2,3})\)\s*$/.exec(title)?.[1];
  return code && INVOICE_TYPE_CODES.has(code) && documentTypeOf(title) !== undefined ? code : undefined;
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
function conform(raw: Record<string, unknown>, evidence: Record<string, string>): Invoice {
  for (let attempt = 0; attempt < 20; attempt++) {
    const r = invoiceSchema.safeParse(raw);
    if (r.success) return r.data;
    for (const issue of r.error.issues) {
      const path = issue.path;
      let node = raw as Record<string | number, unknown>;
      for (const k of path.slice(0, -1)) node = node[k as string] as Record<string | number, unknown>;
      const last = path.at(-1);
      if (node && last !== undefined) delete node[last as string];
      const key = path
        .map((p) => (typeof p === 'number' ? `[${p}]` : `.${String(p)}`))
        .join('')
        .replace(/^\./, '')
        .replace(/\.\[/g, '[');
      delete evidence[key];
    }
  }
  return {};
}
