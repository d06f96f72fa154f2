import { Decimal } from '../invoice/decimal.js';
import { CATEGORY_WORDS, EU_VAT_AREA, printedCategory, vatCategoryOf } from './codes.js';
import { KNOWN_RATES } from './totals.js';
import { hasMoney, lineText, type Doc } from './document.js';
import type { Line, Segment } from './layout.js';
import { scanNumbers } from './numbers.js';
import { VAT_CATEGORY_LABEL } from './lexicon.js';
import { fold } from './text.js';
import { languageOf, type Language } from '../reading/language.js';

/**
 * What a page leaves unsaid because every reader of it knows: the country of a domestic
 * address, the VAT category of a line from its rate and the breakdown, the breakdown of an
 * invoice that prints only its lines, the reason of an exemption from the note that states
 * it. Each rule takes values already read from the page and the page's own words, never an
 * amount the page does not print or imply by its arithmetic; what it adds is reported as
 * inferred (evidence `inferred:<rule>`), so that a user sees it was not printed.
 */

/** Reads and writes the analysis result by path (`buyer.buyerPostalAddress.buyerCountryCode`, `invoiceLine[0]…`). */
export interface ResultAccess {
  get(path: string): string | undefined;
  /** Sets a value the page implies; `rule` names the inference. */
  infer(path: string, value: string, rule: string): void;
  /** Sets a value printed on the page, found by `via`. */
  read(path: string, value: string, via: string): void;
  /** The rule a value was inferred by; undefined where it was read (or is not set). */
  inferredBy(path: string): string | undefined;
  count(list: 'invoiceLine' | 'vatBreakdown' | 'documentLevelAllowances' | 'documentLevelCharges'): number;
}

/** The language most of the page's words belong to, when one clearly leads (counted once per document). */
export function pageLanguage(doc: Doc): Language | undefined {
  if (!languages.has(doc)) languages.set(doc, languageOf(doc.pages.flatMap((page) => page.lines.map(lineText))));
  return languages.get(doc);
}
const languages = new WeakMap<Doc, Language | undefined>();

/** Post code shapes of the countries whose invoices we read, and which language speaks for which. */
const POSTCODE_SHAPES: ReadonlyArray<{ shape: RegExp; byLanguage: Partial<Record<Language, string>> }> = [
  { shape: /^\d{5}$/, byLanguage: { de: 'DE', fr: 'FR', it: 'IT', es: 'ES' } },
  { shape: /^\d{4}\s?[A-Z]{2}$/, byLanguage: { nl: 'NL', en: 'NL', de: 'NL' } },
  { shape: /^\d{2}-\d{3}$/, byLanguage: { de: 'PL', en: 'PL' } },
  { shape: /^\d{4}-\d{3}$/, byLanguage: { en: 'PT', es: 'PT' } },
];

/** Which countries write post codes of this shape (the same shape, the same set). */
function postcodeShape(postcode: string | undefined): RegExp | undefined {
  return postcode === undefined ? undefined : POSTCODE_SHAPES.find((p) => p.shape.test(postcode.trim()))?.shape;
}

/** French post codes 971–976 are the overseas departments, countries of their own in ISO 3166. */
const FRENCH_OVERSEAS: Readonly<Record<string, string>> = { '971': 'GP', '972': 'MQ', '973': 'GF', '974': 'RE', '976': 'YT' };

/** A country whose post code also names a territory of its own: France's overseas departments. */
function territoryOf(country: string | undefined, postcode: string | undefined): string | undefined {
  return country === 'FR' && postcode ? (FRENCH_OVERSEAS[postcode.trim().slice(0, 3)] ?? country) : country;
}

/** The countries whose post codes have that shape and are written in that language. */
function countryOfPostcode(postcode: string | undefined, language: Language | undefined): string | undefined {
  if (!postcode || !language) return undefined;
  return territoryOf(POSTCODE_SHAPES.find((p) => p.shape.test(postcode.trim()))?.byLanguage[language], postcode);
}

/** German tax numbers ("Steuernummer 201/113/40209"): the seller is registered in Germany. */
const GERMAN_TAX_NUMBER = /^\d{2,3}\/\d{3}\/\d{4,5}$/;

/** A printed VAT id, IBAN or tax number names the country that registered it; "EL" is Greece's VAT prefix. */
const registryCountry = (id: string | undefined) => (id && /^[A-Z]{2}/.test(id) ? id.slice(0, 2).replace('EL', 'GR') : undefined);

/**
 * Country codes of seller and buyer when the page prints none:
 * - the seller's VAT id, else its German tax number, else its post code read in the page's
 *   language ("60435 Frankfurt" on a German page), else the IBAN it asks to be paid to when
 *   its post code has that country's shape;
 * - the buyer's VAT id, else the seller's country when the buyer's post code has the same
 *   shape (a domestic address block has no country line), else its post code and language.
 */
export function inferCountries(r: ResultAccess, doc: Doc): void {
  const language = pageLanguage(doc);
  const sellerPath = 'seller.sellerPostalAddress.sellerCountryCode';
  const buyerPath = 'buyer.buyerPostalAddress.buyerCountryCode';
  const sellerPostcode = r.get('seller.sellerPostalAddress.sellerPostCode');
  const buyerPostcode = r.get('buyer.buyerPostalAddress.buyerPostCode');
  if (r.get(sellerPath) === undefined && r.get('seller.sellerName') !== undefined) {
    const taxNumber = r.get('seller.sellerTaxRegistrationIdentifier');
    const iban = registryCountry(r.get('paymentInstructions.creditTransfer[0].paymentAccountIdentifier'));
    const ibanFits =
      iban && sellerPostcode && POSTCODE_SHAPES.some((p) => p.shape.test(sellerPostcode) && Object.values(p.byLanguage).includes(iban));
    const found: Array<[string | undefined, string]> = [
      [registryCountry(r.get('seller.sellerVatIdentifier')), 'vat-prefix'],
      [taxNumber && GERMAN_TAX_NUMBER.test(taxNumber.replace(/\s+/g, '')) ? 'DE' : undefined, 'tax-number'],
      [countryOfPostcode(sellerPostcode, language), 'postcode-language'],
      [ibanFits ? iban : undefined, 'iban'],
    ];
    const hit = found.find(([c]) => c !== undefined);
    if (hit) r.infer(sellerPath, territoryOf(hit[0], sellerPostcode)!, hit[1]);
  }
  if (r.get(buyerPath) === undefined && r.get('buyer.buyerName') !== undefined) {
    const seller = r.get(sellerPath);
    const sellerShape = postcodeShape(sellerPostcode);
    const domestic = seller && buyerPostcode && sellerShape?.test(buyerPostcode.trim()) ? territoryOf(seller, buyerPostcode) : undefined;
    const found: Array<[string | undefined, string]> = [
      [registryCountry(r.get('buyer.buyerVatIdentifier')), 'vat-prefix'],
      [domestic, 'seller-country'],
      [countryOfPostcode(buyerPostcode, language), 'postcode-language'],
    ];
    const hit = found.find(([c]) => c !== undefined);
    if (hit) r.infer(buyerPath, territoryOf(hit[0], buyerPostcode)!, hit[1]);
  }
}

/**
 * Words of a printed exemption note, by the category it explains: the category's own words and
 * the legal references such notes cite. Any of them also serves a note of another 0 % category.
 */
const LEGAL_REFERENCES: Readonly<Record<string, string>> = {
  AE: 'article 196|283-2',
  K: '262 ter|§ ?4 nr\\.? ?1 ?b|article 138',
  G: "262 i\\b|hors (?:de l')?ue|outside the eu|drittland|§ ?4 nr\\.? ?1 ?a",
  O: 'hors (?:du )?champ',
  E: 'befreit|§ ?4 nr|293 b',
};
const EXEMPTION_WORDS: ReadonlyMap<string, RegExp> = new Map(
  CATEGORY_WORDS.map(([category, words]) => [category, new RegExp(`${words.source}|${LEGAL_REFERENCES[category]}`)]),
);
const ANY_EXEMPTION = new RegExp([...EXEMPTION_WORDS.values()].map((r) => r.source).join('|'));

/**
 * A 0 % rate's category from the notes on the page. Nothing when nothing explains it: exempt,
 * reverse charge, export and zero rated all print 0 %, and only the page can say which.
 */
export function zeroRateCategory(doc: Doc): string | undefined {
  if (!zeroRateCategories.has(doc))
    zeroRateCategories.set(doc, vatCategoryOf(undefined, doc.pages.flatMap((p) => p.lines.map(lineText)).join('\n')));
  return zeroRateCategories.get(doc);
}
/** Asked once per line and row: the page's notes are read once per document. */
const zeroRateCategories = new WeakMap<Doc, string | undefined>();

/**
 * A seller established outside the EU VAT area, with no EU VAT id, charges no EU VAT: its
 * 0 % is outside the scope of tax (O), whatever else it prints about taxes.
 */
function sellerOutsideEu(r: ResultAccess): boolean {
  const issued = r.get('invoiceIssueDate');
  const country = euMember(r.get('seller.sellerPostalAddress.sellerCountryCode'), issued);
  const vatId = registryCountry(r.get('seller.sellerVatIdentifier'));
  return country === false && (vatId === undefined || euMember(vatId, issued) === false);
}

/**
 * Whether a country was in the EU VAT area when the invoice was issued: the United Kingdom left
 * it on 1 January 2021 (a 2018 invoice from London to Leipzig is an intra-community supply).
 * Undefined where that cannot be told: no country, or a British one and no date.
 */
function euMember(country: string | undefined, issued: string | undefined): boolean | undefined {
  if (country === undefined) return undefined;
  if (country !== 'GB') return EU_VAT_AREA.has(country);
  return issued === undefined ? undefined : issued < BREXIT;
}
const BREXIT = '2021-01-01';

/**
 * A seller in the EU VAT area that charges no VAT to a buyer established outside it, without
 * an EU VAT id, and prints nothing to explain it. An exempt export of goods must say so on the
 * invoice (VAT Directive art. 226(11)); a supply whose place is the buyer's country (a service
 * to a business abroad) is outside the scope of EU VAT and needs no note. The silent page is
 * the second.
 */
function buyerOutsideEu(r: ResultAccess): boolean {
  const issued = r.get('invoiceIssueDate');
  const buyerVatId = registryCountry(r.get('buyer.buyerVatIdentifier'));
  return (
    euMember(r.get('seller.sellerPostalAddress.sellerCountryCode'), issued) === true &&
    euMember(r.get('buyer.buyerPostalAddress.buyerCountryCode'), issued) === false &&
    (buyerVatId === undefined || euMember(buyerVatId, issued) === false)
  );
}

/** A 0 % category from the page's notes, else from where the seller and the buyer are established. */
function zeroRateCategoryOf(r: ResultAccess, doc: Doc): [category: string, rule: string] | undefined {
  const noted = zeroRateCategory(doc);
  if (noted) return [noted, 'rate'];
  if (sellerOutsideEu(r)) return ['O', 'seller-outside-eu'];
  return buyerOutsideEu(r) ? ['O', 'buyer-outside-eu'] : undefined;
}

/**
 * The printed note that explains an exemption (BT-120): the first line that speaks of it
 * without amounts, continued by the lines printed under it in the same column. A note set in a
 * breakdown row, around its amounts, is that row's reason and goes before one printed elsewhere
 * (a seller's "Kleinunternehmer gemäß § 19 UStG" above the breakdown's own wording).
 */
export function exemptionNote(doc: Doc, category: string): string | undefined {
  const own = EXEMPTION_WORDS.get(category);
  if (!own) return undefined;
  const candidates: Note[] = [];
  for (const page of doc.pages) {
    page.lines.forEach((line, i) => {
      line.segments.forEach((seg) => {
        const folded = fold(seg.text);
        // "Umsatzsteuerkategorie: E (Exempt from tax)" names the category, not why.
        if (!ANY_EXEMPTION.test(folded) || VAT_CATEGORY_LABEL.test(folded) || scanNumbers(seg.text, doc.mark).some((n) => n.decimals >= 2))
          return;
        const note = noteAt(doc, page.lines, i, seg);
        // A lone word ("Steuerfrei" as a column value) is a category, not a reason.
        if (note.text.split(' ').length >= 3) candidates.push(note);
      });
    });
  }
  // A note naming another category's exemption ("reverse charge" beside an intra-community row) is that row's.
  const ownNote = (c: Note) => own.test(fold(c.text));
  return (candidates.find((c) => c.inRow && ownNote(c)) ?? candidates.find(ownNote))?.text;
}

interface Note {
  text: string;
  /** Its lines stand around a line of amounts: a breakdown row's cell. */
  inRow: boolean;
}

const joined = (parts: string[]) => parts.join(' ').replace(/\s+/g, ' ').trim();
/** The segment of a line that starts at the note's left edge. */
const atEdge = (line: Line, seg: Segment) => line.segments.find((s) => Math.abs(s.x0 - seg.x0) < seg.height);
/** The segment is an amount (the row's first column holds one), not words of the note. */
const isAmount = (doc: Doc, line: Line, seg: Segment) => hasMoney(doc, { ...line, segments: [seg] });

/**
 * The note at `seg`, with the lines of its row's cell above it where the row's amounts stand
 * right above it ("Kein Ausweis von" / "Umsatzsteuer, da 1,00 0 0,00" / "Kleinunternehmer
 * gemäß" / "§ 19 UStG"). A note read that far must end at its legal reference.
 */
function noteAt(doc: Doc, lines: Line[], i: number, seg: Segment): Note {
  const under = noteUnder(doc, lines, i, seg);
  const above = cellAbove(doc, lines, i, seg);
  if (above === undefined) return under;
  const text = joined([...above, under.text]);
  return REASON_END.test(text) ? { text, inRow: true } : under;
}

/** A row's label ("VAT (E)", "Umsatzsteuer (E)"): the category it names, not the reason's words. */
const ROW_LABEL = /\(\s*[A-Z]{1,2}\s*\)\s*$/;

/**
 * The cell's lines above `seg` when a line of amounts stands right above it, up to the row's
 * label, a sentence's end or a gap; undefined when no amounts stand there.
 */
function cellAbove(doc: Doc, lines: Line[], i: number, seg: Segment): string[] | undefined {
  const amounts = lines[i - 1];
  if (!amounts || !hasMoney(doc, amounts) || lines[i]!.top - amounts.bottom > 0.8 * seg.height) return undefined;
  const inline = atEdge(amounts, seg);
  if (inline && isAmount(doc, amounts, inline)) return undefined;
  const parts = inline ? [inline.text] : [];
  for (let k = i - 2, next = amounts; k >= 0 && parts.length < 3; k--) {
    const line = lines[k]!;
    const cell = atEdge(line, seg);
    if (!cell || next.top - line.bottom > 0.8 * seg.height || hasMoney(doc, line)) break;
    if (ROW_LABEL.test(cell.text) || VAT_CATEGORY_LABEL.test(fold(cell.text)) || /[.:;]$/.test(cell.text.trim())) break;
    parts.unshift(cell.text);
    next = line;
  }
  return parts;
}

/**
 * The note that opens with `seg`: the lines set under it at its left edge, up to its legal
 * reference or full stop, since what is set under that is something else (an address, an amount's
 * label). A breakdown row centres its amounts on its reason's wrapped lines ("Steuerfreie" /
 * "380,00 0 0,00" / "Leistungen nach" / "§4 Nr. 14 UStG"): the line of amounts is passed over,
 * with the reason's words on it, but a note read past amounts must end at its legal reference,
 * or it is only what stands above them.
 */
function noteUnder(doc: Doc, lines: Line[], i: number, seg: Segment): Note {
  const parts = [seg.text];
  let aboveAmounts: number | undefined;
  for (let k = i + 1, prev = lines[i]!; k < lines.length && parts.length < 4 && !REASON_END.test(parts.at(-1)!); k++) {
    const next = lines[k]!;
    if (next.top - prev.bottom > 0.8 * seg.height) break;
    const below = atEdge(next, seg);
    const amounts = hasMoney(doc, next);
    if (amounts && (aboveAmounts !== undefined || (below && isAmount(doc, next, below)))) break;
    if (amounts) aboveAmounts = parts.length;
    else if (!below) break;
    if (below) parts.push(below.text);
    prev = next;
  }
  const text = joined(parts);
  if (aboveAmounts === undefined) return { text, inRow: false };
  return REASON_END.test(text) ? { text, inRow: true } : { text: joined(parts.slice(0, aboveAmounts)), inRow: false };
}

/** Its legal reference, or a full stop after a word (not an abbreviation: "gem.", "Nr."). */
const REASON_END = /(?:\b(?:UStG|MwStSystRL|CGI|VAT Act)|\d{4}\/\d+\/EC|(?:\p{L}{4,}|\d)\.)\s*\)?$/u;

/** The rule that codes a 0 % row Z because nothing on the page explains it: a guess (see confidence.ts). */
export const ZERO_RATE_DEFAULT = 'zero-rate-row';

interface Row {
  rate: string;
  category?: string;
  /** The category is the zero-rate default, a guess. */
  guessed?: boolean;
}

/**
 * Each line's VAT category (BT-151): the category the breakdown gives its rate when only one
 * does, else S for a positive rate and, for 0 %, the category the page's notes explain.
 * A line without a rate takes the only breakdown row, or the row its amount belongs to when
 * the lines' amounts add up to the breakdown's bases in exactly one way.
 */
export function inferLineCategories(r: ResultAccess, doc: Doc): void {
  const rows: Row[] = [];
  for (let i = 0; i < r.count('vatBreakdown'); i++) {
    const rate = r.get(`vatBreakdown[${i}].vatCategoryRate`);
    if (rate !== undefined)
      rows.push({
        rate,
        ...(r.get(`vatBreakdown[${i}].vatCategoryCode`) ? { category: r.get(`vatBreakdown[${i}].vatCategoryCode`)! } : {}),
        ...(r.inferredBy(`vatBreakdown[${i}].vatCategoryCode`) === ZERO_RATE_DEFAULT ? { guessed: true } : {}),
      });
  }
  const lines = r.count('invoiceLine');
  const vat = (i: number) => `invoiceLine[${i}].lineVatInformation[0]`;
  const unrated = Array.from({ length: lines }, (_, i) => i).filter((i) => r.get(`${vat(i)}.invoicedItemVatRate`) === undefined);
  if (unrated.length > 0 && rows.length === 1) {
    for (const i of unrated) r.infer(`${vat(i)}.invoicedItemVatRate`, rows[0]!.rate, 'only-rate');
  } else if (unrated.length > 0 && rows.length > 1) {
    const assigned = assignRates(r, unrated, rows.length);
    if (assigned) assigned.forEach((row, k) => r.infer(`${vat(unrated[k]!)}.invoicedItemVatRate`, rows[row]!.rate, 'breakdown-sums'));
  }
  for (let i = 0; i < lines; i++) {
    if (r.get(`${vat(i)}.invoicedItemVatCategoryCode`) !== undefined) continue;
    const rate = r.get(`${vat(i)}.invoicedItemVatRate`);
    if (rate === undefined) continue;
    const sameRate = rows.filter((row) => new Decimal(row.rate).eq(rate));
    // Rows of one rate differ in category: the rate cannot say which is the line's.
    if (sameRate.length > 1) continue;
    const categories = new Set(sameRate.filter((row) => row.category).map((row) => row.category!));
    // A row's category guessed ("Z" for a 0 % nothing explains) is the lines' guess too, no surer.
    const [category, rule] =
      categories.size === 1
        ? [[...categories][0]!, sameRate[0]!.guessed ? ZERO_RATE_DEFAULT : 'breakdown-category']
        : new Decimal(rate).gt(0)
          ? ['S', 'rate']
          : (zeroRateCategoryOf(r, doc) ?? []);
    if (category) r.infer(`${vat(i)}.invoicedItemVatCategoryCode`, category, rule!);
  }
}

/** The only way of giving each unrated line a breakdown row so that every row's lines add up to its base; undefined when none or several. */
function assignRates(r: ResultAccess, unrated: number[], rowCount: number): number[] | undefined {
  if (unrated.length > 16) return undefined;
  const cents = (v: string | undefined) => (v === undefined ? undefined : new Decimal(v).times(100).round().toNumber());
  const remaining: number[] = [];
  for (let k = 0; k < rowCount; k++) {
    const base = cents(r.get(`vatBreakdown[${k}].vatCategoryTaxableAmount`));
    if (base === undefined) return undefined;
    remaining.push(base);
  }
  for (let i = 0; i < r.count('invoiceLine'); i++) {
    if (unrated.includes(i)) continue;
    const rate = r.get(`invoiceLine[${i}].lineVatInformation[0].invoicedItemVatRate`);
    const k = [...Array(rowCount).keys()].find(
      (j) => rate !== undefined && new Decimal(r.get(`vatBreakdown[${j}].vatCategoryRate`)!).eq(rate),
    );
    const amount = cents(r.get(`invoiceLine[${i}].invoiceLineNetAmount`));
    if (k === undefined || amount === undefined) return undefined;
    remaining[k]! -= amount;
  }
  const amounts = unrated.map((i) => cents(r.get(`invoiceLine[${i}].invoiceLineNetAmount`)));
  if (amounts.some((a) => a === undefined)) return undefined;
  const solutions: number[][] = [];
  const pick: number[] = [];
  const search = (n: number) => {
    if (solutions.length > 1) return;
    if (n === amounts.length) {
      if (remaining.every((v) => v === 0)) solutions.push([...pick]);
      return;
    }
    for (let k = 0; k < rowCount; k++) {
      remaining[k]! -= amounts[n]!;
      pick.push(k);
      search(n + 1);
      pick.pop();
      remaining[k]! += amounts[n]!;
    }
  };
  search(0);
  return solutions.length === 1 ? solutions[0] : undefined;
}

/**
 * A breakdown (BG-23) where the page prints none: the lines grouped by rate and category when
 * their taxes add up to the printed VAT total and their amounts to the printed net total; or,
 * without usable lines, the one known rate that turns the net total into the VAT total.
 */
export function inferBreakdown(r: ResultAccess, doc: Doc): void {
  if (r.count('vatBreakdown') > 0) return;
  const net = r.get('documentTotals.invoiceTotalAmountWithoutVat');
  const vatTotal = r.get('documentTotals.invoiceTotalVatAmount');
  if (net === undefined || vatTotal === undefined) return;
  const groups = linesByRate(r);
  // Allowances and charges printed as 0,00 ("Summe Nachlässe 0,00") change no rate's base.
  const none = (path: string) => {
    const v = r.get(path);
    return v === undefined || new Decimal(v).isZero();
  };
  if (
    groups &&
    groups.size > 0 &&
    none('documentTotals.sumOfAllowancesOnDocumentLevel') &&
    none('documentTotals.sumOfChargesOnDocumentLevel')
  ) {
    const rows = [...groups.values()].map((g) => ({
      ...g,
      tax: g.base.times(g.rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP),
    }));
    const baseSum = rows.reduce((s, g) => s.plus(g.base), new Decimal(0));
    const taxSum = rows.reduce((s, g) => s.plus(g.tax), new Decimal(0));
    if (baseSum.eq(net) && taxSum.eq(vatTotal)) {
      rows.forEach((g, i) => setRow(r, i, g.base.toFixed(2), g.tax.toFixed(2), g.rate, g.category, 'lines'));
      return;
    }
  }
  if (groups && groups.size > 0) return;
  const netD = new Decimal(net);
  const vatD = new Decimal(vatTotal);
  if (vatD.isZero()) {
    const category = zeroRateCategoryOf(r, doc)?.[0];
    if (!netD.isZero() && category) setRow(r, 0, net, vatTotal, '0', category, 'zero-vat');
    return;
  }
  const fitting = [...KNOWN_RATES].filter((rate) => rate !== '0' && netD.times(rate).dividedBy(100).minus(vatD).abs().lte('0.01'));
  if (fitting.length === 1) setRow(r, 0, net, vatTotal, fitting[0]!, 'S', 'totals-rate');
}

function setRow(r: ResultAccess, i: number, base: string, tax: string, rate: string, category: string, rule: string): void {
  r.infer(`vatBreakdown[${i}].vatCategoryTaxableAmount`, base, rule);
  r.infer(`vatBreakdown[${i}].vatCategoryTaxAmount`, tax, rule);
  r.infer(`vatBreakdown[${i}].vatCategoryRate`, rate, rule);
  r.infer(`vatBreakdown[${i}].vatCategoryCode`, category, rule);
}

/** Σ line amounts per rate and category; undefined when a line lacks its amount, rate or category. */
function linesByRate(r: ResultAccess): Map<string, { rate: string; category: string; base: Decimal }> | undefined {
  const groups = new Map<string, { rate: string; category: string; base: Decimal }>();
  for (let i = 0; i < r.count('invoiceLine'); i++) {
    const rate = r.get(`invoiceLine[${i}].lineVatInformation[0].invoicedItemVatRate`);
    const category = r.get(`invoiceLine[${i}].lineVatInformation[0].invoicedItemVatCategoryCode`);
    const amount = r.get(`invoiceLine[${i}].invoiceLineNetAmount`);
    if (rate === undefined || category === undefined || amount === undefined) return undefined;
    const key = `${category}|${new Decimal(rate).toString()}`;
    const g = groups.get(key) ?? { rate: new Decimal(rate).toString(), category, base: new Decimal(0) };
    g.base = g.base.plus(amount);
    groups.set(key, g);
  }
  return groups;
}

/**
 * Exempt categories whose reason (BR-E-10) only the page can give. Reverse charge, intra-community
 * supply, export and not subject to VAT each have one VATEX code that states the reason, which the
 * conversion writes with its standard text: the page's wording of it is read cut short, or is a
 * row label ("TVA 0% export (vente)"), more often than it adds anything.
 */
const REASON_FROM_PAGE = new Set(['E']);

/** BT-120 from the note printed on the page, for every breakdown row of an exemption only the page explains. */
export function inferExemptionReasons(r: ResultAccess, doc: Doc): void {
  for (let i = 0; i < r.count('vatBreakdown'); i++) {
    const category = r.get(`vatBreakdown[${i}].vatCategoryCode`);
    if (!category || !REASON_FROM_PAGE.has(category) || r.get(`vatBreakdown[${i}].vatExemptionReasonText`) !== undefined) continue;
    const note = exemptionNote(doc, category);
    if (note) r.read(`vatBreakdown[${i}].vatExemptionReasonText`, note, 'note:exemption');
  }
}

/**
 * Breakdown rows whose category nothing beside them named: S for a positive rate; for 0 %, the
 * page's notes, else where the seller is established, else zero rated, since the page prints
 * a row of 0 % VAT and nothing that makes it exempt.
 */
export function inferRowCategories(r: ResultAccess, doc: Doc): void {
  for (let i = 0; i < r.count('vatBreakdown'); i++) {
    const rate = r.get(`vatBreakdown[${i}].vatCategoryRate`);
    if (r.get(`vatBreakdown[${i}].vatCategoryCode`) !== undefined || rate === undefined) continue;
    // Rows of one rate differ in category: the rate alone cannot say which each is.
    if (
      Array.from({ length: r.count('vatBreakdown') }, (_, k) => r.get(`vatBreakdown[${k}].vatCategoryRate`)).filter((x) => x === rate)
        .length > 1
    )
      continue;
    const [category, rule] = new Decimal(rate).gt(0) ? ['S', 'rate'] : (zeroRateCategoryOf(r, doc) ?? ['Z', ZERO_RATE_DEFAULT]);
    r.infer(`vatBreakdown[${i}].vatCategoryCode`, category, rule);
  }
}

const ALLOWANCE_WORDS = /rabatt|abschlag|nachlass|discount|allowance|remise|reduction|korting|sconto/;
const CHARGE_WORDS = /zuschlag|aufschlag|fracht|versand|transport|porto|verpackung|charge|surcharge|frais|shipping|freight|toeslag/;
/** Words of a line-level allowance (per item, per unit): not a document-level one. */
const ITEM_WORDS = /artikel|position|item|\/ ?stk|per unit|par unite|pro stuck/;
/** A label of the adjustments' sum ("Total charges", "Summe Abschläge", "Gesamtbetrag der Zuschläge"): never one of them. */
const SUM_LABEL = /^(?:total|totale|totaal|sum|summe|gesamt(?:betrag|summe)?|somme)\b/;

interface Adjustment {
  kind: 'allowance' | 'charge';
  amount: Decimal;
  rate: string;
  reason: string;
  /** The category code printed on the adjustment's own line ("0 % AE"). */
  category?: string;
  /** The reason is printed on the page, beside an amount the breakdown gave as well. */
  reasonPrinted?: boolean;
}

/**
 * Document-level allowances and charges (BG-20, BG-21) where the page prints their totals
 * (BT-107, BT-108): the lines outside the item table that name one, with its VAT rate and
 * amount, when they add up to those totals and make every breakdown row agree with its lines
 * (BR-S-08); otherwise, when there are only allowances or only charges, what each rate's
 * breakdown base differs from its lines by. Every amount is printed or follows from printed ones.
 */
export function inferDocumentAdjustments(r: ResultAccess, doc: Doc, tableLines: ReadonlySet<string>): void {
  if (r.count('documentLevelAllowances') > 0 || r.count('documentLevelCharges') > 0) return;
  const totalOf = (path: string) => new Decimal(r.get(path) ?? 0);
  const allowances = totalOf('documentTotals.sumOfAllowancesOnDocumentLevel');
  const charges = totalOf('documentTotals.sumOfChargesOnDocumentLevel');
  if (allowances.isZero() && charges.isZero()) return;
  const rates = breakdownRates(r);
  const differences = rateDifferences(r, rates);
  // A corrective invoice's allowances carry the sign of its lines; the page prints them without it.
  const sign = (kind: Adjustment['kind']) => ((kind === 'allowance' ? allowances : charges).isNegative() ? -1 : 1);
  const printed = printedAdjustments(doc, tableLines, rates).map((a) => ({ ...a, amount: a.amount.times(sign(a.kind)) }));
  const sumOf = (kind: Adjustment['kind']) => printed.filter((a) => a.kind === kind).reduce((s, a) => s.plus(a.amount), new Decimal(0));
  const agrees = (list: Adjustment[]) =>
    !differences ||
    [...differences].every(([rate, d]) =>
      list
        .filter((a) => a.rate === rate)
        .reduce((s, a) => s.plus(a.kind === 'charge' ? a.amount : a.amount.negated()), new Decimal(0))
        .eq(d),
    );
  if (printed.length > 0 && sumOf('allowance').eq(allowances) && sumOf('charge').eq(charges) && agrees(printed)) {
    writeAdjustments(r, printed, rates, true);
    return;
  }
  const reasons = DEFAULT_REASONS[pageLanguage(doc) ?? 'en'] ?? DEFAULT_REASONS.en!;
  const write = (list: Adjustment[]) =>
    writeAdjustments(
      r,
      list.map((a) => withPrintedReason(a, printed)),
      rates,
      false,
    );
  if (rates.size === 1 && differences) {
    // One rate: everything is at that rate, whatever mix of allowances and charges.
    const [rate] = [...rates.keys()];
    const both: Adjustment[] = [
      ...(allowances.isZero() ? [] : [{ kind: 'allowance' as const, amount: allowances, rate: rate!, reason: reasons.allowance }]),
      ...(charges.isZero() ? [] : [{ kind: 'charge' as const, amount: charges, rate: rate!, reason: reasons.charge }]),
    ];
    if (agrees(both)) write(both);
    return;
  }
  if (!differences || (!allowances.isZero() && !charges.isZero())) return;
  const kind: Adjustment['kind'] = allowances.isZero() ? 'charge' : 'allowance';
  const reason = reasons[kind];
  const expected = kind === 'allowance' ? allowances : charges;
  const derived = [...differences]
    .filter(([, d]) => !d.isZero())
    .map(([rate, d]) => ({ kind, amount: kind === 'charge' ? d : d.negated(), rate, reason }));
  const total = derived.reduce((s, a) => s.plus(a.amount), new Decimal(0));
  if (derived.every((a) => a.amount.isNegative() === expected.isNegative()) && total.eq(expected)) write(derived);
}

/**
 * An adjustment the breakdown gives, with the reason of the one printed row of its kind, rate and
 * amount: the page's words, where the printed rows as a whole did not add up (an item's own
 * allowance set outside its table, "Abschlag Lagerware", counted with them).
 */
function withPrintedReason(a: Adjustment, printed: readonly Adjustment[]): Adjustment {
  const same = printed.filter((p) => p.kind === a.kind && p.rate === a.rate && p.amount.abs().eq(a.amount.abs()));
  return same.length === 1 && same[0]!.reason ? { ...a, reason: same[0]!.reason, reasonPrinted: true } : a;
}

/** Reasons (BT-97, BT-104) for allowances and charges the page gives only as totals. */
export const DEFAULT_REASONS: Partial<Record<Language, Record<Adjustment['kind'], string>>> = {
  de: { allowance: 'Nachlass', charge: 'Zuschlag' },
  en: { allowance: 'Discount', charge: 'Charge' },
  fr: { allowance: 'Remise', charge: 'Frais' },
  nl: { allowance: 'Korting', charge: 'Toeslag' },
  it: { allowance: 'Sconto', charge: 'Supplemento' },
  es: { allowance: 'Descuento', charge: 'Recargo' },
};

/**
 * Each breakdown rate with its category; '' where rows of that rate differ in category (0 % for
 * reverse charge, zero rated and intra-community alike): the rate cannot say which is meant.
 */
function breakdownRates(r: ResultAccess): Map<string, string> {
  const rates = new Map<string, string>();
  for (let i = 0; i < r.count('vatBreakdown'); i++) {
    const rate = r.get(`vatBreakdown[${i}].vatCategoryRate`);
    if (rate === undefined) continue;
    const key = new Decimal(rate).toString();
    // A row read without its category is standard rated only where it charges VAT (BR-S-05).
    const category = r.get(`vatBreakdown[${i}].vatCategoryCode`) ?? (new Decimal(rate).gt(0) ? 'S' : '');
    rates.set(key, rates.has(key) && rates.get(key) !== category ? '' : category);
  }
  return rates;
}

/** Per breakdown rate, its base minus its lines' amounts (charges − allowances of that rate); undefined when a line or row is incomplete. */
function rateDifferences(r: ResultAccess, rates: Map<string, string>): Map<string, Decimal> | undefined {
  const diff = new Map<string, Decimal>();
  for (let i = 0; i < r.count('vatBreakdown'); i++) {
    const rate = r.get(`vatBreakdown[${i}].vatCategoryRate`);
    const base = r.get(`vatBreakdown[${i}].vatCategoryTaxableAmount`);
    if (rate === undefined || base === undefined) return undefined;
    const key = new Decimal(rate).toString();
    diff.set(key, (diff.get(key) ?? new Decimal(0)).plus(base));
  }
  for (let i = 0; i < r.count('invoiceLine'); i++) {
    const rate = r.get(`invoiceLine[${i}].lineVatInformation[0].invoicedItemVatRate`);
    const amount = r.get(`invoiceLine[${i}].invoiceLineNetAmount`);
    if (rate === undefined || amount === undefined || !rates.has(new Decimal(rate).toString())) return undefined;
    const key = new Decimal(rate).toString();
    diff.set(key, diff.get(key)!.minus(amount));
  }
  return r.count('invoiceLine') > 0 ? diff : undefined;
}

/** Lines outside the item table naming an allowance or charge, with a breakdown rate and an amount. */
function printedAdjustments(doc: Doc, tableLines: ReadonlySet<string>, rates: Map<string, string>): Adjustment[] {
  const out: Adjustment[] = [];
  let reason = '';
  for (const page of doc.pages) {
    for (const line of page.lines) {
      if (tableLines.has(`${line.page}:${line.index}`)) continue;
      const text = lineText(line);
      const folded = fold(text);
      const numbers = scanNumbers(text, doc.mark);
      const amount = numbers.filter((n) => n.decimals >= 2 && !n.percent).at(-1);
      const lead = leadOf(text, doc.mark);
      const sum = SUM_LABEL.test(fold(lead));
      if ((ALLOWANCE_WORDS.test(fold(lead)) || CHARGE_WORDS.test(fold(lead))) && !sum) reason = lead;
      const kind = ALLOWANCE_WORDS.test(folded) ? 'allowance' : CHARGE_WORDS.test(folded) ? 'charge' : undefined;
      if (!kind || !amount || ITEM_WORDS.test(folded) || sum || !reason) {
        if (!kind || sum) reason = '';
        continue;
      }
      const rate =
        numbers.map((n) => new Decimal(n.value).abs().toString()).find((v, k) => numbers[k] !== amount && rates.has(v)) ??
        (rates.size === 1 ? [...rates.keys()][0] : undefined);
      if (rate === undefined) continue;
      const category = printedCategory(text) ?? CATEGORY_AFTER_REASON.exec(reason)?.[1];
      out.push({ kind, amount: new Decimal(amount.value).abs(), rate, reason: reasonOf(reason, kind), ...(category ? { category } : {}) });
    }
  }
  return out;
}

/**
 * The words before a line's first figure: its label. An aside in parentheses is no part of it,
 * though it may print the rate ("Allowance (Tax: 19.00%): Discount" → "Allowance : Discount").
 */
function leadOf(text: string, mark: Doc['mark']): string {
  const bare = text.replace(/\([^()]*\)/g, ' ');
  const [first] = scanNumbers(bare, mark);
  // A label's own number ends it, before its colon or its column's gap ("Rechnungsrabatt 1:", "Rechnungsrabatt 1   2,00 %").
  const own =
    first !== undefined &&
    first.decimals === 0 &&
    !first.percent &&
    /\p{L} $/u.test(bare.slice(0, first.start)) &&
    /^(?:\s*:|\s{3}|$)/.test(bare.slice(first.end));
  return withoutFigureLabels(bare.slice(0, first === undefined ? bare.length : own ? first.end : first.start));
}

/** The labels of a line's figures, printed after its reason with no figure between ("MwSt.-%", "Basisbetrag:"). */
const FIGURE_LABEL = /^(?:basisbetrag|basis|mwst|ust|vat|steuer(?:satz)?)$/i;

/** "Transportkosten   :   MwSt.-%" → "Transportkosten"; "Abschlag Basisbetrag:" → "Abschlag". */
function withoutFigureLabels(lead: string): string {
  const words = lead.split(/\s+/).filter(Boolean);
  while (words.length > 1) {
    const word = words.at(-1)!.replace(/[.:%-]+/g, '');
    if (word && !FIGURE_LABEL.test(word)) break;
    words.pop();
  }
  return words.join(' ').replace(/[:\s]+$/, '');
}

/** A label that names only the kind of adjustment ("Extra charge:", "Nachlass:"): the reason is what follows it. */
const KIND_LABEL =
  /^(?:extra |additional )?(?:abschlag|rabatt|nachlass|allowance|discount|remise|zuschlag|aufschlag|charge|surcharge|frais)\s*:\s*(?=\S)/i;

/** A VAT category code set after the reason ("Fracht und Verpackung, S"): the category's, not the reason's words. */
const CATEGORY_AFTER_REASON = /,\s*(S|Z|E|AE|K|G|O|L|M)$/;

/** A word the text layer ran together across a column gap, at its inner capital: "AbschlagStammkundenrabatt". */
const RUN_TOGETHER = /^(\p{Lu}?\p{Ll}+)(\p{Lu}\p{Ll}+)$/u;

/** "Abschlag   Sondernachlass" → "Sondernachlass": the kind word alone is no reason when a better one follows. */
function reasonOf(printed: string, kind: Adjustment['kind']): string {
  const lead = printed.replace(CATEGORY_AFTER_REASON, '');
  if (KIND_LABEL.test(lead))
    return lead
      .replace(KIND_LABEL, '')
      .replace(/\s*:\s*/g, ' ')
      .trim();
  const kindWord =
    kind === 'allowance'
      ? /^(abschlag|abzgl\.?|rabatt|nachlass|allowance|discount|remise)$/i
      : /^(zuschlag|aufschlag|zzgl\.?|charge|surcharge|frais)$/i;
  const words = lead.replace(/:/g, ' ').split(/\s+/).filter(Boolean);
  const [, glued, rest] = RUN_TOGETHER.exec(words[0] ?? '') ?? [];
  if (glued && rest && kindWord.test(glued)) return [rest, ...words.slice(1)].join(' ');
  return (words.length > 1 && kindWord.test(words[0]!) ? words.slice(1) : words).join(' ');
}

/** Printed rows are read values; rows derived from the breakdown are inferred, their reason a default. */
function writeAdjustments(r: ResultAccess, list: Adjustment[], rates: Map<string, string>, printed: boolean): void {
  const counters = { allowance: 0, charge: 0 };
  for (const a of list) {
    const i = counters[a.kind]++;
    const [path, key] =
      a.kind === 'allowance'
        ? [`documentLevelAllowances[${i}]`, 'documentLevelAllowance']
        : [`documentLevelCharges[${i}]`, 'documentLevelCharge'];
    const put = (field: string, value: string) =>
      printed
        ? r.read(`${path}.${key}${field}`, value, 'adjustment:printed')
        : r.infer(`${path}.${key}${field}`, value, 'breakdown-difference');
    put('Amount', a.amount.toFixed(2));
    put('VatRate', a.rate);
    if (a.reasonPrinted) r.read(`${path}.${key}Reason`, a.reason, 'adjustment:printed');
    else put('Reason', a.reason);
    if (a.category) put('VatCategoryCode', a.category);
    else if (rates.get(a.rate)) r.infer(`${path}.${key}VatCategoryCode`, rates.get(a.rate)!, 'breakdown-category');
  }
}
