import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { analyseWithEvidence, type EvidencedResult } from '../src/analysis/index.js';
import type { PartyModels } from '../src/analysis/party-choice.js';
import { asPrinted, generatedExamples, partyExamples } from './lib/party-examples.js';
import { trainRanker, type RankExample } from './lib/train-ranker.js';
import type { PageText } from '../src/reading/page-text.js';
import { extractTextLayer } from '../src/reading/text-layer.js';
import { documentConfidence, fieldConfidence, fitCalibration } from '../src/analysis/confidence.js';
import { Decimal } from '../src/invoice/decimal.js';
import type { Invoice } from '../src/invoice/model.js';
import {
  corpusItems,
  getPath,
  isVisible,
  notOnPage,
  renderedItems,
  visibleOf,
  ZUGFERD_GROUPS,
  type CorpusItem,
  type Kind,
  type Visible,
  wildItems,
  zugferd1DocumentName,
} from './lib/corpus-truth.js';
import { degradedScanPages } from './lib/degraded-scans.js';
import { HELD_OUT, syntheticItems, type Family } from './lib/synthetic-invoices.js';
import { quantile } from './lib/quantile.js';
import { truthQuirk } from './lib/truth-quirks.js';
import { writeGenerated } from './lib/generated-source.js';
import { calibrationModule } from './lib/calibration-module.js';

/**
 * Benchmark (not a test) of reading invoices from their visual.
 *   node dist-tools/scripts/bench-analysis.js [--corpus ../shared/corpus] [--mode text-layer] [--verbose] [--only substring]
 *                                       [--include-invalid] [--write-calibration] [--ocr-cache DIR] [--ocr-engines N]
 *                                       [--set corpus|generated] [--seeds scripts/synthetic-seeds.json] [--every N]
 *                                       [--rendered DIR]
 *
 * Every ZUGFeRD / Factur-X PDF of the corpus carries its invoice as XML: the analysis never
 * looks at the attachment; its result is compared with the XML per business term (exact after
 * normalisation, amounts to the cent). The plain PDFs with golden JSON are scored the same way
 * on the fields their JSON names. Only fields the page actually shows are counted (a value the
 * XML carries but the visual never prints cannot be read from it); how many were left out for
 * that reason is printed.
 *
 * Page sources are pluggable (`MODES`): the text layer, and `ocr-degraded`, the same pages as
 * scanner-quality images read by the OCR path (scripts/lib/degraded-scans.ts).
 *
 * `--set generated` scores synthetic layouts instead (scripts/lib/synthetic-invoices.ts): each
 * item of the seed list lays out a corpus XML's invoice in a layout family, in memory; the truth
 * is what the generator printed, so every value in it is on the page. Per family and for the
 * held-out families (layouts the rules were not written on) the same figures are reported.
 *
 * `--rendered DIR` adds the corpus's XMLs as software we did not write renders them
 * (scripts/render-foreign.sh), a fold per renderer, to the real invoices of --set wild or all.
 */

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string' },
    mode: { type: 'string', default: 'text-layer' },
    verbose: { type: 'boolean', default: false },
    only: { type: 'string' },
    /** Every Nth document only (a quicker sample for comparing OCR settings; not for reported figures). */
    every: { type: 'string' },
    'write-calibration': { type: 'boolean', default: false },
    /** ocr-degraded: keep each page's OCR words in this folder and reuse them (for iterating on the analysis; timings then exclude OCR). */
    'ocr-cache': { type: 'string' },
    /** ocr-degraded: tesseract processes (1: a page's time on one core; the service runs one a core, and reads a lone page in bands). */
    'ocr-engines': { type: 'string', default: '1' },
    /** Also the PDFs official validators reject (their XML may disagree with their page more often). */
    'include-invalid': { type: 'boolean', default: false },
    /** corpus: the PDFs of ../shared/corpus; generated: the synthetic set of --seeds. */
    set: { type: 'string', default: 'corpus' },
    seeds: { type: 'string' },
    /** Writes every document's held-out reading (fold model, fold calibration) for bench-convert --analysed. */
    'held-out-json': { type: 'string' },
    /** The invoices of other repositories (--set wild or all). */
    wild: { type: 'string' },
    /** Folds of the corpus's XMLs rendered by other software (scripts/render-foreign.sh), with --set wild or all. */
    rendered: { type: 'string' },
  },
});

const repoRoot = (() => {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!existsSync(path.join(dir, 'package.json'))) dir = path.dirname(dir);
  return dir;
})();
const corpus = path.resolve(args.corpus ?? path.join(repoRoot, '../shared/corpus'));
type PageSource = (pdf: Uint8Array, file: string) => Promise<PageText[]>;
const MODES: Record<string, PageSource> = {
  'text-layer': (pdf) => extractTextLayer(pdf),
  // Each page printed and scanned in simulation (150–200 dpi, skew, noise, JPEG), then read by the OCR path.
  'ocr-degraded': (pdf, file) => degradedScanPages(pdf, file, args['ocr-cache'], 'pdf', Number(args['ocr-engines'])),
  // The same scans, each page uploaded as a JPEG of its own.
  'ocr-degraded-jpeg': (pdf, file) => degradedScanPages(pdf, file, args['ocr-cache'], 'jpeg', Number(args['ocr-engines'])),
};
const source = MODES[args.mode!];
if (!source) throw new Error(`Unknown --mode ${args.mode}; known: ${Object.keys(MODES).join(', ')}`);
const SETS = ['corpus', 'wild', 'all', 'generated'];
if (!SETS.includes(args.set!)) throw new Error(`Unknown --set ${args.set}; known: ${SETS.join(', ')}`);
const wild = path.resolve(args.wild ?? path.join(repoRoot, '../shared/corpus-wild'));
const generated = args.set === 'generated';
if (generated && args['write-calibration']) throw new Error('--write-calibration fits on the corpus only, not on --set generated');
const seedsFile = path.resolve(args.seeds ?? path.join(repoRoot, 'scripts/synthetic-seeds.json'));
/** Generated documents record what they printed: their truth holds nothing the page does not show. */
const shown = (kind: Kind, truth: string, vis: Visible) => generated || isVisible(kind, truth, vis);
type BenchItem = CorpusItem & { bytes?: () => Promise<Uint8Array> };
const bytesOf = (item: BenchItem) => (item.bytes ? item.bytes() : Promise.resolve(readFileSync(item.file)));

// ---------------------------------------------------------------- fields compared

interface FieldDef {
  key: string;
  bt: string;
  kind: Kind;
  /** Path in the invoice, as the analysis reports evidence for it. */
  path: string;
  required?: boolean;
}

const field = (key: string, bt: string, kind: Kind, path: string, required = false): FieldDef => ({ key, bt, kind, path, required });

const HEADER: FieldDef[] = [
  field('invoiceNumber', 'BT-1', 'id', 'invoiceNumber', true),
  field('invoiceIssueDate', 'BT-2', 'date', 'invoiceIssueDate', true),
  field('invoiceTypeCode', 'BT-3', 'code', 'invoiceTypeCode', true),
  field('invoiceCurrencyCode', 'BT-5', 'currency', 'invoiceCurrencyCode', true),
  field('paymentDueDate', 'BT-9', 'date', 'paymentDueDate'),
  field('buyerReference', 'BT-10', 'id', 'buyerReference'),
  field('contractReference', 'BT-12', 'id', 'contractReference'),
  field('purchaseOrderReference', 'BT-13', 'id', 'purchaseOrderReference'),
  field('precedingInvoiceReference', 'BT-25', 'id', 'precedingInvoiceReference[0].precedingInvoiceReference'),
  field('precedingInvoiceIssueDate', 'BT-26', 'date', 'precedingInvoiceReference[0].precedingInvoiceIssueDate'),
  field('actualDeliveryDate', 'BT-72', 'date', 'deliveryInformation.actualDeliveryDate'),
  field('sellerName', 'BT-27', 'text', 'seller.sellerName', true),
  field('sellerVatIdentifier', 'BT-31', 'id', 'seller.sellerVatIdentifier'),
  field('sellerTaxRegistrationIdentifier', 'BT-32', 'id', 'seller.sellerTaxRegistrationIdentifier'),
  field('sellerAddressLine1', 'BT-35', 'text', 'seller.sellerPostalAddress.sellerAddressLine1'),
  field('sellerAddressLine2', 'BT-36', 'text', 'seller.sellerPostalAddress.sellerAddressLine2'),
  field('sellerAddressLine3', 'BT-162', 'text', 'seller.sellerPostalAddress.sellerAddressLine3'),
  field('sellerCity', 'BT-37', 'text', 'seller.sellerPostalAddress.sellerCity'),
  field('sellerPostCode', 'BT-38', 'id', 'seller.sellerPostalAddress.sellerPostCode'),
  field('sellerCountryCode', 'BT-40', 'country', 'seller.sellerPostalAddress.sellerCountryCode'),
  field('buyerName', 'BT-44', 'text', 'buyer.buyerName', true),
  field('buyerIdentifier', 'BT-46', 'id', 'buyer.buyerIdentifier'),
  field('buyerVatIdentifier', 'BT-48', 'id', 'buyer.buyerVatIdentifier'),
  field('buyerAddressLine1', 'BT-50', 'text', 'buyer.buyerPostalAddress.buyerAddressLine1'),
  field('buyerAddressLine2', 'BT-51', 'text', 'buyer.buyerPostalAddress.buyerAddressLine2'),
  field('buyerAddressLine3', 'BT-163', 'text', 'buyer.buyerPostalAddress.buyerAddressLine3'),
  field('buyerCity', 'BT-52', 'text', 'buyer.buyerPostalAddress.buyerCity'),
  field('buyerPostCode', 'BT-53', 'id', 'buyer.buyerPostalAddress.buyerPostCode'),
  field('buyerCountryCode', 'BT-55', 'country', 'buyer.buyerPostalAddress.buyerCountryCode'),
  field('iban', 'BT-84', 'id', 'paymentInstructions.creditTransfer[0].paymentAccountIdentifier'),
  field('bic', 'BT-86', 'id', 'paymentInstructions.creditTransfer[0].paymentServiceProviderIdentifier'),
  field('sumOfInvoiceLineNetAmount', 'BT-106', 'amount', 'documentTotals.sumOfInvoiceLineNetAmount'),
  field('sumOfAllowancesOnDocumentLevel', 'BT-107', 'amount', 'documentTotals.sumOfAllowancesOnDocumentLevel'),
  field('sumOfChargesOnDocumentLevel', 'BT-108', 'amount', 'documentTotals.sumOfChargesOnDocumentLevel'),
  field('invoiceTotalAmountWithoutVat', 'BT-109', 'amount', 'documentTotals.invoiceTotalAmountWithoutVat', true),
  field('invoiceTotalVatAmount', 'BT-110', 'amount', 'documentTotals.invoiceTotalVatAmount', true),
  field('invoiceTotalAmountWithVat', 'BT-112', 'amount', 'documentTotals.invoiceTotalAmountWithVat', true),
  field('paidAmount', 'BT-113', 'amount', 'documentTotals.paidAmount'),
  field('amountDueForPayment', 'BT-115', 'amount', 'documentTotals.amountDueForPayment', true),
];

/** VAT breakdown rows are matched by rate, then compared field by field (paths relative to the row). */
const VAT_FIELDS: FieldDef[] = [
  field('vatCategoryTaxableAmount', 'BT-116', 'amount', 'vatCategoryTaxableAmount'),
  field('vatCategoryTaxAmount', 'BT-117', 'amount', 'vatCategoryTaxAmount'),
  field('vatCategoryCode', 'BT-118', 'code', 'vatCategoryCode'),
  field('vatCategoryRate', 'BT-119', 'amount', 'vatCategoryRate'),
];

type Line = NonNullable<Invoice['invoiceLine']>[number];
/** Line fields, paths relative to the line. */
const LINE_FIELDS: FieldDef[] = [
  field('itemName', 'BT-153', 'wrapped', 'itemInformation.itemName'),
  field('invoicedQuantity', 'BT-129', 'amount', 'invoicedQuantity'),
  field('unitCode', 'BT-130', 'unit', 'invoicedQuantityUnitOfMeasureCode'),
  field('itemNetPrice', 'BT-146', 'amount', 'priceDetails.itemNetPrice'),
  field('lineNetAmount', 'BT-131', 'amount', 'invoiceLineNetAmount'),
  field('vatRate', 'BT-152', 'amount', 'lineVatInformation[0].invoicedItemVatRate'),
];
/**
 * Header values judged for their confidence only, outside the header figures: the conversion
 * writes them, and no sum vouches for them, so the calibration must learn how often they are
 * right rather than lend them the confidence of other fields read the same way.
 */
const HEADER_TEXT_FIELDS: FieldDef[] = [
  field('paymentTerms', 'BT-20', 'wrapped', 'paymentTerms'),
  field('paymentMeansTypeCode', 'BT-81', 'code', 'paymentInstructions.paymentMeansTypeCode'),
  field('mandateReferenceIdentifier', 'BT-89', 'id', 'paymentInstructions.directDebit.mandateReferenceIdentifier'),
  field('bankAssignedCreditorIdentifier', 'BT-90', 'id', 'paymentInstructions.directDebit.bankAssignedCreditorIdentifier'),
  field('debitedAccountIdentifier', 'BT-91', 'id', 'paymentInstructions.directDebit.debitedAccountIdentifier'),
  field('sellerIdentifier', 'BT-29', 'id', 'seller.sellerIdentifier[0]'),
  field('sellerLegalRegistrationIdentifier', 'BT-30', 'id', 'seller.sellerLegalRegistrationIdentifier'),
  field('sellerContactTelephoneNumber', 'BT-42', 'id', 'seller.sellerContact.sellerContactTelephoneNumber'),
  field('sellerContactEmailAddress', 'BT-43', 'id', 'seller.sellerContact.sellerContactEmailAddress'),
  field('invoicingPeriodStartDate', 'BT-73', 'date', 'invoicingPeriod.invoicingPeriodStartDate'),
  field('invoicingPeriodEndDate', 'BT-74', 'date', 'invoicingPeriod.invoicingPeriodEndDate'),
];

/**
 * Line values judged for their confidence only, outside line F1: no sum vouches for them, so the
 * calibration must learn apart how often they are right (the line's arithmetic said nothing of a
 * GTIN taken as the seller's item number, nor does it of an allowance's reason).
 */
const LINE_TEXT_FIELDS: FieldDef[] = [
  field('itemSellersIdentifier', 'BT-155', 'id', 'itemInformation.itemSellersIdentifier'),
  field('itemDescription', 'BT-154', 'text', 'itemInformation.itemDescription'),
  field('allowanceReason', 'BT-139', 'text', 'invoiceLineAllowances[0].invoiceLineAllowanceReason'),
  field('chargeReason', 'BT-144', 'text', 'invoiceLineCharges[0].invoiceLineChargeReason'),
];

// ---------------------------------------------------------------- comparison

const isText = (kind: Kind) => kind === 'text' || kind === 'wrapped';

function same(kind: Kind, truth: string, got: string | undefined, creditNote = false): boolean {
  if (got === undefined) return false;
  switch (kind) {
    case 'amount': {
      // To the cent, sign included; only a credit note may state as positive what its XML counts as negative (as bench-convert).
      const [t, g] = [truth, got].map((v) => new Decimal(v).toDecimalPlaces(2)) as [Decimal, Decimal];
      return creditNote ? t.abs().eq(g.abs()) : t.eq(g);
    }
    case 'text':
    case 'wrapped':
      // Strictly as printed: whitespace runs collapsed, nothing else removed, case kept.
      return asPrinted(truth) === asPrinted(got);
    case 'id':
      // Digit groups ("DE89 3704 …") are how identifiers are printed, not part of them; case is.
      return truth.replace(/\s+/g, '') === got.replace(/\s+/g, '');
    default:
      return truth.trim().toUpperCase() === got.trim().toUpperCase();
  }
}

// ---------------------------------------------------------------- scoring

/** Per field: `truth` counts values the page shows; `hidden*` values the XML has but the page does not show. */
interface Tally {
  truth: number;
  right: number;
  wrong: number;
  missing: number;
  hidden: number;
  hiddenRight: number;
  hiddenWrong: number;
  /** Returned where the ground truth has no value at all: cannot be judged. */
  unjudged: number;
}
const tally = (): Tally => ({ truth: 0, right: 0, wrong: 0, missing: 0, hidden: 0, hiddenRight: 0, hiddenWrong: 0, unjudged: 0 });

interface DocScore {
  file: string;
  group: string;
  pages: number;
  seconds: number;
  confidence: number;
  judged: number;
  right: number;
  requiredAll: boolean | undefined;
  line: { tp: number; fp: number; fn: number };
  misses: string[];
  /**
   * Judged returned fields: path and whether right; with the evidence, what calibration counts.
   * `hidden`: the page does not show the XML's value (an XML of another invoice than its page, a
   * value the page prints otherwise), so "wrong" may be the XML's fault. `disputed`: the XML, not
   * the reading, departs from the page (truthQuirk); still wrong in every figure, but not taught
   * to the calibration as a wrong reading.
   */
  verdicts: Array<{ path: string; right: boolean; hidden?: boolean; disputed?: boolean }>;
  /** The XML or the reading is a credit note (381), whose amounts count whatever their sign. */
  creditNote: boolean;
  evidence: Record<string, string>;
  /** The confidence the analysis reported per field path. */
  fieldConfidence: Record<string, number>;
  /** Header fields (not lines) the page shows, and how many of them were read right. */
  header: { truth: number; right: number };
  /** Seller and buyer names the page shows, and how many were read right. */
  parties: { truth: number; right: number };
  /**
   * The page shows the XML's number, date and gross total. Where it does not, the XML describes
   * another invoice or another version of it (a corrected date, other totals), and a right reading
   * of the page is judged wrong against it.
   */
  agrees: boolean;
  /** What the analysis returned and the truth, for the held-out export. */
  result: EvidencedResult;
  truth: Invoice;
}

const perField = new Map<string, Tally & { bt: string }>();
const perGroup = new Map<
  string,
  { truth: number; correct: number; docs: number; required: number; requiredOk: number; line: { tp: number; fp: number; fn: number } }
>();
const docs: DocScore[] = [];
/** Printed fields returned, and those the analysis could show on the page (the review page draws their boxes). */
const placed = { printed: 0, placed: 0 };

function score(
  f: FieldDef,
  prefix: string,
  truth: string | undefined,
  got: string | undefined,
  vis: Visible,
  doc: DocScore,
  path: string,
): void {
  const key = `${prefix}${f.key}`;
  const t = perField.get(key) ?? { ...tally(), bt: f.bt };
  perField.set(key, t);
  if (truth === undefined) {
    if (got !== undefined) t.unjudged++;
    return;
  }
  const ok = same(f.kind, truth, got, doc.creditNote);
  // A zero allowance, charge or prepayment is what the absence of such a line means, not something printed.
  const impliedZero = /^(sumOfAllowances|sumOfCharges|paidAmount)/.test(f.key) && new Decimal(truth).isZero();
  const hidden = impliedZero || !shown(f.kind, truth, vis);
  if (got !== undefined) {
    doc.judged++;
    if (ok) doc.right++;
    const disputed = !ok && (isText(f.kind) || f.kind === 'code') && truthQuirk(doc.truth, path, truth, got) !== undefined;
    doc.verdicts.push({ path, right: ok, ...(hidden ? { hidden } : {}), ...(disputed ? { disputed } : {}) });
  }
  if (hidden) {
    t.hidden++;
    if (got !== undefined) {
      if (ok) t.hiddenRight++;
      else t.hiddenWrong++;
    }
    return;
  }
  t.truth++;
  doc.header.truth++;
  const party = f.key === 'sellerName' || f.key === 'buyerName';
  if (party) doc.parties.truth++;
  if (ok) {
    t.right++;
    doc.header.right++;
    if (party) doc.parties.right++;
  } else {
    if (got !== undefined) t.wrong++;
    else t.missing++;
    doc.misses.push(`${key}: want ${truth} got ${got ?? '—'}`);
  }
}

function scoreLines(truthLines: Line[], got: Line[], vis: Visible, doc: DocScore): void {
  const visibleFields = (l: Line) => LINE_FIELDS.filter((f) => getPath(l, f.path) !== undefined && shown(f.kind, getPath(l, f.path)!, vis));
  const agree = (t: Line, g: Line) =>
    LINE_FIELDS.filter((f) => getPath(t, f.path) !== undefined && same(f.kind, getPath(t, f.path)!, getPath(g, f.path), doc.creditNote))
      .length;
  // Rows are matched greedily by the number of agreeing fields, in page order on ties.
  const pairs: Array<[number, number, number]> = [];
  truthLines.forEach((t, i) => got.forEach((g, j) => pairs.push([agree(t, g), i, j])));
  pairs.sort((a, b) => b[0] - a[0] || Math.abs(a[1] - a[2]) - Math.abs(b[1] - b[2]));
  const ti = new Set<number>();
  const gi = new Set<number>();
  const match = new Map<number, number>();
  for (const [n, i, j] of pairs) {
    if (n === 0 || ti.has(i) || gi.has(j)) continue;
    ti.add(i);
    gi.add(j);
    match.set(i, j);
  }
  truthLines.forEach((t, i) => {
    const j = match.get(i);
    const g = j === undefined ? undefined : got[j];
    if (g) judgeForConfidence([...LINE_FIELDS, ...LINE_TEXT_FIELDS], t, g, doc, `invoiceLine[${j}].`);
    for (const f of visibleFields(t)) {
      const tv = getPath(t, f.path)!;
      const gv = g ? getPath(g, f.path) : undefined;
      const ok = same(f.kind, tv, gv, doc.creditNote);
      const lt = perField.get(`line.${f.key}`) ?? { ...tally(), bt: f.bt };
      perField.set(`line.${f.key}`, lt);
      lt.truth++;
      if (ok) {
        lt.right++;
        doc.line.tp++;
      } else {
        doc.line.fn++;
        if (gv !== undefined) {
          lt.wrong++;
          doc.line.fp++;
        } else lt.missing++;
        doc.misses.push(`line ${i + 1} ${f.key}: want ${tv} got ${g ? (gv ?? '—') : 'no row'}`);
      }
    }
  });
  got.forEach((g, j) => {
    if (gi.has(j)) return;
    for (const f of LINE_FIELDS) {
      if (getPath(g, f.path) === undefined) continue;
      doc.line.fp++;
      doc.verdicts.push({ path: `invoiceLine[${j}].${f.path}`, right: false });
    }
    doc.misses.push(`extra row ${j + 1}: ${g.itemInformation?.itemName ?? '—'} ${g.invoiceLineNetAmount ?? ''}`);
  });
}

function scoreVat(truth: Invoice, got: Invoice, vis: Visible, doc: DocScore): void {
  // One row of the reading answers one row of the truth.
  const taken = new Set<number>();
  for (const row of truth.vatBreakdown ?? []) {
    const rate = row.vatCategoryRate;
    const rows = got.vatBreakdown ?? [];
    const sameRate = rows.filter(
      (g, i) => !taken.has(i) && rate !== undefined && g.vatCategoryRate !== undefined && new Decimal(g.vatCategoryRate).eq(rate),
    );
    // Rows of one rate (0 % exempt, reverse charge, zero rated) are told apart by category, then by base.
    const sameBase = (g: (typeof rows)[number]) =>
      g.vatCategoryTaxableAmount !== undefined &&
      row.vatCategoryTaxableAmount !== undefined &&
      same('amount', row.vatCategoryTaxableAmount, g.vatCategoryTaxableAmount, doc.creditNote);
    const counterpart =
      sameRate.find((g) => g.vatCategoryCode === row.vatCategoryCode && sameBase(g)) ??
      sameRate.find((g) => g.vatCategoryCode !== undefined && g.vatCategoryCode === row.vatCategoryCode) ??
      sameRate.find(sameBase) ??
      sameRate[0];
    const at = counterpart ? rows.indexOf(counterpart) : -1;
    if (at >= 0) taken.add(at);
    const match = at >= 0 ? got.vatBreakdown![at] : undefined;
    for (const f of VAT_FIELDS)
      score(f, 'vat.', getPath(row, f.path), match ? getPath(match, f.path) : undefined, vis, doc, `vatBreakdown[${at}].${f.path}`);
  }
}

/**
 * The reasons of document-level allowances and charges read from the page (BT-97, BT-104), each
 * judged against the truth's adjustment of the same amount and rate. No sum vouches for words, so
 * the calibration must learn them apart from the amounts they share their evidence with. They
 * enter the calibration and the reliability figures, not the per-field accuracy tables. A default
 * reason inferred for an adjustment the page gives only as a total is no reading and is not judged.
 */
function judgeAdjustmentReasons(truth: Invoice, got: Invoice, doc: DocScore): void {
  for (const [list, key] of [
    ['documentLevelAllowances', 'documentLevelAllowance'],
    ['documentLevelCharges', 'documentLevelCharge'],
  ] as const) {
    const wanted = [...((truth[list] ?? []) as Array<Record<string, string | undefined>>)];
    ((got[list] ?? []) as Array<Record<string, string | undefined>>).forEach((g, j) => {
      const path = `${list}[${j}].${key}Reason`;
      const reason = g[`${key}Reason`];
      if (reason === undefined || doc.evidence[path] === undefined || doc.evidence[path]!.replace(/^ocr:/, '').startsWith('inferred:'))
        return;
      const at = wanted.findIndex(
        (t) => t !== undefined && sameFigure(t[`${key}Amount`], g[`${key}Amount`]) && sameFigure(t[`${key}VatRate`], g[`${key}VatRate`]),
      );
      const want = at >= 0 ? wanted[at]![`${key}Reason`] : undefined;
      if (at < 0 || want === undefined) return;
      delete wanted[at];
      const right = same('text', want, reason);
      const disputed = !right && truthQuirk(doc.truth, path, want, reason) !== undefined;
      doc.verdicts.push({ path, right, ...(disputed ? { disputed } : {}) });
    });
  }
}

/**
 * Values the truth and the reading both have, as verdicts for the calibration (the accuracy
 * tables count their own); `prefix` places a line's fields (`invoiceLine[3].`). Given the page
 * (`vis`), a value the page prints where it does not print the XML's is disputed, as
 * bench-convert lists it apart: the ZUGFeRD 1.0 samples' XMLs name "max.mustermann@…" where
 * their pages print "max.muster@…".
 */
function judgeForConfidence<T extends object>(fields: FieldDef[], truth: T, got: T, doc: DocScore, prefix = '', vis?: Visible): void {
  for (const f of fields) {
    const [want, value] = [getPath(truth, f.path), getPath(got, f.path)];
    if (want === undefined || value === undefined) continue;
    const right = same(f.kind, want, value, doc.creditNote);
    const pageDiffers = vis !== undefined && !isVisible(f.kind, want, vis) && isVisible(f.kind, value, vis);
    const quirk = (isText(f.kind) || f.kind === 'code') && truthQuirk(doc.truth, f.path, want, value) !== undefined;
    const disputed = !right && (pageDiffers || quirk);
    doc.verdicts.push({ path: `${prefix}${f.path}`, right, ...(disputed ? { disputed } : {}) });
  }
}

const sameFigure = (a: string | undefined, b: string | undefined) =>
  a !== undefined && b !== undefined && new Decimal(a).abs().eq(new Decimal(b).abs());

// ---------------------------------------------------------------- run

async function run(): Promise<void> {
  if (!existsSync(corpus)) {
    console.log(`No corpus at ${corpus}: nothing to measure (pass --corpus DIR).`);
    return;
  }
  console.log(`Corpus: ${corpus}   mode: ${args.mode}${generated ? `   set: generated from ${path.relative(repoRoot, seedsFile)}` : ''}`);
  if (args.set !== 'corpus' && args.set !== 'generated' && !existsSync(wild))
    console.log(`No corpus-wild at ${wild}: its folds are left out.`);
  const corpusSet = () => corpusItems(corpus, [...ZUGFERD_GROUPS, ...(args['include-invalid'] ? ['invalid'] : [])]);
  const items: BenchItem[] = (
    generated
      ? syntheticItems(corpus, seedsFile)
      : [
          ...(args.set === 'wild' ? [] : corpusSet()),
          ...(args.set === 'corpus' ? [] : [...wildItems(wild), ...(args.rendered ? renderedItems(path.resolve(args.rendered)) : [])]),
        ]
  ).filter((i, at) => (!args.only || i.file.includes(args.only)) && at % Number(args.every ?? 1) === 0);
  // Warm-up: the first pdfjs load compiles a lot of code; it is not what a page costs.
  if (items[0]) await source!(await bytesOf(items[0]), items[0].file);
  let skipped = 0;
  const read: Read[] = [];
  for (const item of items) {
    const truth = await item.truth();
    if (!truth) {
      skipped++;
      console.log(`  skipped (no readable ground truth): ${path.relative(corpus, item.file)}`);
      continue;
    }
    const bytes = await bytesOf(item);
    const started = performance.now();
    const pages = await source!(bytes, item.file);
    const seconds = (performance.now() - started) / 1000;
    // What the page shows is judged on its text layer, so that a value OCR misreads still counts as a miss.
    const textLayer = args.mode === 'text-layer' ? pages : await extractTextLayer(bytes);
    const vis = visibleOf(textLayer);
    read.push({ item, truth, pages, textLayer, vis, seconds });
  }
  // Real invoices are scored by a ranker trained without their fold; the generated set by the committed one.
  const modelsFor = generated ? () => undefined : foldModels(read, await generatedExamples(corpus, seedsFile));
  for (const r of read) scoreDocument(r, modelsFor(r.item.group));
  await report(skipped);
  if (generated) heldOutReport();
  if (args['held-out-json']) writeHeldOut(args['held-out-json']);
}

/**
 * Each document as the conversion would get it from a fold that never saw it: the reading of
 * the fold's ranker, and every field's confidence from the calibration fitted on the other folds.
 */
function writeHeldOut(file: string): void {
  const tables = new Map<string, ReturnType<typeof fitCalibration>>();
  const tableOf = (group: string) => {
    if (!tables.has(group)) tables.set(group, calibrationOf(docs.filter((d) => d.group !== group)));
    return tables.get(group)!;
  };
  const out = docs.map((d) => ({
    file: d.file,
    group: d.group,
    agrees: d.agrees,
    scanned: args.mode !== 'text-layer',
    truth: d.truth,
    zugferd1Name: zugferd1DocumentName(d.truth),
    invoice: d.result.invoice,
    sources: d.result.fieldSource,
    candidates: d.result.candidates ?? {},
    unread: d.result.unread ?? [],
    evidence: d.evidence,
    confidence: Object.fromEntries(Object.entries(d.evidence).map(([p, e]) => [p, fieldConfidence(p, e, tableOf(d.group))])),
  }));
  writeFileSync(file, JSON.stringify({ mode: args.mode, documents: out }));
  console.log(`\nWrote the held-out readings of ${out.length} documents to ${file}.`);
}

interface Read {
  item: BenchItem;
  truth: Invoice;
  pages: PageText[];
  /** The text layer, which the ranker is trained on (as train-models does) whatever the mode scores. */
  textLayer: PageText[];
  vis: Visible;
  /** Reading the pages (text layer or OCR). */
  seconds: number;
}

/** Per fold, the party-name rankers trained on every other fold. */
function foldModels(read: Read[], extra: Record<'seller' | 'buyer', RankExample[]>): (group: string) => PartyModels {
  const examples = read.map((r) => ({ group: r.item.group, ...partyExamples(r.truth, r.textLayer) }));
  const cache = new Map<string, PartyModels>();
  return (group) => {
    if (!cache.has(group)) {
      const rest = examples.filter((e) => e.group !== group);
      const train = (role: 'seller' | 'buyer') => trainRanker([...rest.flatMap((e) => e[role]), ...extra[role]]);
      cache.set(group, { seller: train('seller'), buyer: train('buyer') });
    }
    return cache.get(group)!;
  };
}

function scoreDocument({ item, truth, pages, vis, seconds: readSeconds }: Read, partyModels: PartyModels | undefined): void {
  const started = performance.now();
  let result: EvidencedResult;
  try {
    result = analyseWithEvidence(pages, { withLineItems: true, ...(partyModels ? { partyModels } : {}) });
  } catch (e) {
    result = { invoice: {}, extractionConfidence: 0, fieldConfidence: {}, fieldSource: {}, fieldPlace: {}, evidence: {} };
    console.log(`  ${path.relative(corpus, item.file)}: ${(e as Error).message}`);
  }
  const seconds = readSeconds + (performance.now() - started) / 1000;
  for (const [field, source] of Object.entries(result.fieldSource)) {
    if (source !== 'printed') continue;
    placed.printed++;
    if (result.fieldPlace[field]) placed.placed++;
  }
  const doc: DocScore = {
    file: path.relative(path.dirname(corpus), item.file),
    group: item.group,
    pages: Math.max(1, pages.length),
    seconds,
    confidence: result.extractionConfidence,
    judged: 0,
    right: 0,
    requiredAll: undefined,
    line: { tp: 0, fp: 0, fn: 0 },
    misses: [],
    verdicts: [],
    creditNote: truth.invoiceTypeCode === '381' || result.invoice.invoiceTypeCode === '381',
    evidence: result.evidence,
    fieldConfidence: result.fieldConfidence,
    header: { truth: 0, right: 0 },
    parties: { truth: 0, right: 0 },
    result,
    truth,
    agrees: generated || item.golden !== undefined || notOnPage(truth, vis).length === 0,
  };
  const fields = item.golden ? HEADER.filter((f) => getPath(truth, f.path) !== undefined) : HEADER;
  let required = 0;
  let requiredOk = 0;
  for (const f of fields) {
    const t = getPath(truth, f.path);
    const g = getPath(result.invoice, f.path);
    // The golden issuer may be spelt as the company's full name.
    const gt = f.key === 'sellerName' && item.golden?.partner_name && same('text', item.golden.partner_name, g) ? g : t;
    score(f, '', gt, g, vis, doc, f.path);
    if (f.required && gt !== undefined && shown(f.kind, gt, vis)) {
      required++;
      if (same(f.kind, gt, g, doc.creditNote)) requiredOk++;
    }
  }
  if (!item.golden) scoreVat(truth, result.invoice, vis, doc);
  if (!item.golden) judgeAdjustmentReasons(truth, result.invoice, doc);
  if (!item.golden) judgeForConfidence(HEADER_TEXT_FIELDS, truth, result.invoice, doc, '', vis);
  if (truth.invoiceLine?.length) scoreLines(truth.invoiceLine, result.invoice.invoiceLine ?? [], vis, doc);
  doc.requiredAll = item.golden ? undefined : required > 0 ? requiredOk === required : undefined;
  docs.push(doc);
  const g = perGroup.get(item.group) ?? { truth: 0, correct: 0, docs: 0, required: 0, requiredOk: 0, line: { tp: 0, fp: 0, fn: 0 } };
  g.docs++;
  if (doc.requiredAll !== undefined) {
    g.required++;
    if (doc.requiredAll) g.requiredOk++;
  }
  g.line.tp += doc.line.tp;
  g.line.fp += doc.line.fp;
  g.line.fn += doc.line.fn;
  perGroup.set(item.group, g);
  if (args.verbose) {
    console.log(
      `\n${doc.file}  conf=${doc.confidence.toFixed(2)}  ${seconds.toFixed(2)} s  lines tp ${doc.line.tp} fp ${doc.line.fp} fn ${doc.line.fn}`,
    );
    for (const m of doc.misses) console.log(`    ${m}`);
  }
}

// ---------------------------------------------------------------- report

const pct = (a: number, b: number) => (b === 0 ? '   —  ' : `${((100 * a) / b).toFixed(1).padStart(5)}%`);

/**
 * Field confidence as reported against how often such fields were right: a reliability diagram
 * over every judged returned field, in bins of reported confidence. A field reported at 0.9 or
 * more should be right at least 95 % of the time.
 */
function reliabilityDiagram(): void {
  const fields = docs.flatMap((d) =>
    d.verdicts
      .filter((v) => d.fieldConfidence[v.path] !== undefined)
      .map((v) => ({ conf: d.fieldConfidence[v.path]!, right: v.right, agrees: d.agrees })),
  );
  console.log('\nReliability of field confidence (every judged returned field)');
  console.log(`${'reported'.padEnd(14)}${'fields'.padStart(8)}${'mean reported'.padStart(15)}${'observed'.padStart(10)}  `);
  const bins: Array<[number, number]> = [
    [0, 0.5],
    [0.5, 0.6],
    [0.6, 0.7],
    [0.7, 0.8],
    [0.8, 0.9],
    [0.9, 0.95],
    [0.95, 1.01],
  ];
  for (const [lo, hi] of bins) {
    const inBin = fields.filter((f) => f.conf >= lo && f.conf < hi);
    const mean = inBin.length ? inBin.reduce((s, f) => s + f.conf, 0) / inBin.length : NaN;
    const right = inBin.filter((f) => f.right).length;
    const bar = inBin.length ? '#'.repeat(Math.round((20 * right) / inBin.length)) : '';
    console.log(
      `${`[${lo.toFixed(2)}, ${Math.min(hi, 1).toFixed(2)})`.padEnd(14)}${String(inBin.length).padStart(8)}${(Number.isNaN(mean) ? '—' : mean.toFixed(3)).padStart(15)}   ${pct(right, inBin.length)}  ${bar}`,
    );
  }
  const high = fields.filter((f) => f.conf >= 0.9);
  const highAgreeing = high.filter((f) => f.agrees);
  console.log(
    `  fields reported >= 0.9: ${pct(high.length, fields.length)} of all (${high.length}/${fields.length}); right: ${pct(high.filter((f) => f.right).length, high.length)}; on pages that agree with their XML: ${pct(highAgreeing.filter((f) => f.right).length, highAgreeing.length)}`,
  );
  const disagreeing = docs.filter((d) => !d.agrees);
  if (disagreeing.length)
    console.log(`  pages whose number, date or gross total differs from their XML: ${disagreeing.map((d) => d.file).join(', ')}`);
}

/**
 * Per fold (a corpus source or a corpus-wild repository), with the calibration fitted on the
 * other folds only: what a user's invoices from a source never measured can expect. The last
 * row pools the held-out folds.
 */
function leaveOneSourceOut(): void {
  console.log('\nLeave one source out: each fold scored with the calibration fitted without it');
  console.log("(right, agreeing: only the pages that show their XML's number, date and gross total; the others describe another invoice)");
  console.log(
    `${'fold'.padEnd(24)}${'docs'.padStart(5)}${'header'.padStart(9)}${'parties'.padStart(9)}${'line F1'.padStart(9)}${'>= 0.9'.padStart(8)}${'right'.padStart(8)}${'agreeing'.padStart(10)}`,
  );
  const pooled: FoldRow = { docs: [], fields: [] };
  const groups = [...new Set(docs.map((d) => d.group))];
  for (const group of [...groups, 'held-out, pooled']) {
    const row =
      group === 'held-out, pooled'
        ? pooled
        : (() => {
            const table = calibrationOf(docs.filter((d) => d.group !== group));
            const own = docs.filter((d) => d.group === group);
            const fields = own.flatMap((d) =>
              judgedOf(d).map((j) => ({ ...j, file: d.file, conf: fieldConfidence(j.path, j.evidence, table), agrees: d.agrees })),
            );
            pooled.docs.push(...own);
            pooled.fields.push(...fields);
            return { docs: own, fields };
          })();
    printFold(group, row);
  }
}

interface FoldRow {
  docs: DocScore[];
  fields: Array<{ path: string; right: boolean; conf: number; agrees: boolean; file: string; evidence: string; hidden?: boolean }>;
}

function printFold(name: string, { docs: own, fields }: FoldRow): void {
  const high = fields.filter((f) => f.conf >= 0.9);
  const highAgreeing = high.filter((f) => f.agrees);
  const sumOf = (k: 'header' | 'parties') =>
    own.reduce((s, d) => ({ truth: s.truth + d[k].truth, right: s.right + d[k].right }), { truth: 0, right: 0 });
  const header = sumOf('header');
  const parties = sumOf('parties');
  const l = own.reduce((s, d) => ({ tp: s.tp + d.line.tp, fp: s.fp + d.line.fp, fn: s.fn + d.line.fn }), { tp: 0, fp: 0, fn: 0 });
  const f1 = l.tp + l.fn === 0 ? '    —  ' : `${((200 * l.tp) / (2 * l.tp + l.fp + l.fn)).toFixed(1).padStart(6)}%`;
  console.log(
    `${name.padEnd(24)}${String(own.length).padStart(5)}${pct(header.right, header.truth).padStart(9)}${pct(parties.right, parties.truth).padStart(9)}${f1.padStart(9)}${pct(high.length, fields.length).padStart(8)}${pct(high.filter((f) => f.right).length, high.length).padStart(8)}${pct(highAgreeing.filter((f) => f.right).length, highAgreeing.length).padStart(10)}`,
  );
  if (args.verbose)
    for (const f of high.filter((f) => !f.right))
      console.log(
        `    wrong at ${f.conf.toFixed(2)}: ${f.file} ${f.path} (${f.evidence}${f.hidden ? ', not on the page' : ''}${f.agrees ? '' : ', page disagrees with its XML'})`,
      );
}

/**
 * The calibration fitted on these documents' readings. A page whose XML describes another invoice
 * (its number, date or gross total differ) cannot say whether a reading of it was right: its
 * readings would be judged against values the page does not print, so it is left out; so is a
 * value where the XML, not the reading, departs from the page (a disputed verdict).
 */
function calibrationOf(ds: DocScore[]): ReturnType<typeof fitCalibration> {
  return fitCalibration(
    ds
      .filter((d) => d.agrees)
      .flatMap(judgedOf)
      .filter((j) => !j.disputed),
  );
}

function judgedOf(
  d: DocScore,
): Array<{ path: string; evidence: string; right: boolean; source: string; hidden?: boolean; disputed?: boolean }> {
  return d.verdicts.filter((v) => d.evidence[v.path] !== undefined).map((v) => ({ ...v, evidence: d.evidence[v.path]!, source: d.group }));
}

function calibrationTable(scored: Array<{ doc: DocScore; score: number }>): void {
  console.log(
    `${'confidence'.padEnd(14)}${'docs'.padStart(6)}${'mean conf'.padStart(11)}${'fields'.padStart(8)}${'precision'.padStart(11)}`,
  );
  const bins: Array<[number, number]> = [
    [0, 0.5],
    [0.5, 0.7],
    [0.7, 0.8],
    [0.8, 0.9],
    [0.9, 0.95],
    [0.95, 1.01],
  ];
  for (const [lo, hi] of bins) {
    const ds = scored.filter((d) => d.score >= lo && d.score < hi);
    const judged = ds.reduce((s, d) => s + d.doc.judged, 0);
    const right = ds.reduce((s, d) => s + d.doc.right, 0);
    const mean = ds.length ? ds.reduce((s, d) => s + d.score, 0) / ds.length : NaN;
    console.log(
      `${`[${lo.toFixed(2)}, ${Math.min(hi, 1).toFixed(2)})`.padEnd(14)}${String(ds.length).padStart(6)}${(Number.isNaN(mean) ? '—' : mean.toFixed(3)).padStart(11)}${String(judged).padStart(8)}   ${pct(right, judged)}`,
    );
  }
  const high = scored.filter((d) => d.score >= 0.9);
  const hj = high.reduce((s, d) => s + d.doc.judged, 0);
  const hr = high.reduce((s, d) => s + d.doc.right, 0);
  console.log(`  documents scored >= 0.9: ${high.length}/${scored.length}; their returned fields right: ${pct(hr, hj)} (${hr}/${hj})`);
}

const everyHeaderFieldRight = (d: DocScore) => d.header.truth > 0 && d.header.right === d.header.truth;

/** --set generated: the families the rules may be written on, then the held-out ones. */
function heldOutReport(): void {
  console.log('\nHeld-out families (layouts the rules were not written on)');
  for (const heldOut of [false, true]) {
    const ds = docs.filter((d) => HELD_OUT.has(d.group as Family) === heldOut);
    const ht = ds.reduce((a, d) => a + d.header.truth, 0);
    const hr = ds.reduce((a, d) => a + d.header.right, 0);
    const l = ds.reduce((s, d) => ({ tp: s.tp + d.line.tp, fp: s.fp + d.line.fp, fn: s.fn + d.line.fn }), { tp: 0, fp: 0, fn: 0 });
    const req = ds.filter((d) => d.requiredAll !== undefined);
    const all = ds.filter(everyHeaderFieldRight).length;
    const families = [...new Set(ds.map((d) => d.group))].join(', ');
    console.log(
      `  ${(heldOut ? 'held out' : 'tuning').padEnd(9)} ${String(ds.length).padStart(4)} docs  header ${pct(hr, ht)} (${hr}/${ht})  every required right ${req.filter((d) => d.requiredAll).length}/${req.length}  every field right ${all}/${ds.length}  line F1 ${l.tp === 0 ? '0.0' : ((200 * l.tp) / (2 * l.tp + l.fp + l.fn)).toFixed(1)}%   [${families}]`,
    );
  }
}

async function report(skipped: number): Promise<void> {
  console.log(`\nDocuments: ${docs.length} analysed, ${skipped} skipped`);
  console.log(
    '\nPer field (truth = values the page shows; accuracy = right / truth; precision = right / returned, hidden values included)',
  );
  console.log(
    `${'field'.padEnd(34)}${'BT'.padEnd(8)}${'truth'.padStart(6)}${'right'.padStart(6)}${'wrong'.padStart(6)}${'miss'.padStart(6)}${'hidden'.padStart(7)}${'h.ret'.padStart(6)}${'unjdg'.padStart(6)}  accuracy  precision`,
  );
  let hTruth = 0;
  let hRight = 0;
  const rows = [...perField.entries()].sort((a, b) => Number(a[0].startsWith('line.')) - Number(b[0].startsWith('line.')));
  for (const [key, t] of rows) {
    const judged = t.right + t.wrong + t.hiddenRight + t.hiddenWrong;
    console.log(
      `${key.padEnd(34)}${t.bt.padEnd(8)}${String(t.truth).padStart(6)}${String(t.right).padStart(6)}${String(t.wrong).padStart(6)}${String(t.missing).padStart(6)}${String(t.hidden).padStart(7)}${String(t.hiddenRight + t.hiddenWrong).padStart(6)}${String(t.unjudged).padStart(6)}   ${pct(t.right, t.truth)}   ${pct(t.right + t.hiddenRight, judged)}`,
    );
    if (!key.startsWith('line.')) {
      hTruth += t.truth;
      hRight += t.right;
    }
  }
  const lt = docs.reduce((s, d) => ({ tp: s.tp + d.line.tp, fp: s.fp + d.line.fp, fn: s.fn + d.line.fn }), { tp: 0, fp: 0, fn: 0 });
  const f1 = (l: { tp: number; fp: number; fn: number }) => (l.tp === 0 ? 0 : (2 * l.tp) / (2 * l.tp + l.fp + l.fn));
  console.log('\nPer group');
  console.log(`${'group'.padEnd(20)}${'docs'.padStart(6)}  header fields          all-required-right   line F1`);
  for (const [g, s] of perGroup) {
    const ds = docs.filter((d) => d.group === g);
    const ht = ds.reduce((a, d) => a + d.header.truth, 0);
    const hr = ds.reduce((a, d) => a + d.header.right, 0);
    console.log(
      `${g.padEnd(20)}${String(s.docs).padStart(6)}  ${pct(hr, ht)} ${`(${hr}/${ht})`.padEnd(12)}  ${`${s.requiredOk}/${s.required}`.padStart(8)} ${pct(s.requiredOk, s.required)}     ${(100 * f1(s.line)).toFixed(1)}%`,
    );
  }

  const withRequired = docs.filter((d) => d.requiredAll !== undefined);
  console.log('\nSummary');
  console.log(`  header fields accuracy (all groups, visible truth): ${pct(hRight, hTruth)}  (${hRight}/${hTruth})`);
  const realistic = docs.filter((d) => d.group !== 'zugferd-2.1');
  console.log(
    `  documents with every required field right: ${pct(withRequired.filter((d) => d.requiredAll).length, withRequired.length)}  (${withRequired.filter((d) => d.requiredAll).length}/${withRequired.length}; realistic layouts ${realistic.filter((d) => d.requiredAll).length}/${realistic.filter((d) => d.requiredAll !== undefined).length})`,
  );
  const allHeader = docs.filter(everyHeaderFieldRight).length;
  console.log(`  documents with every header field the page shows right: ${pct(allHeader, docs.length)}  (${allHeader}/${docs.length})`);
  console.log(
    `  line items: F1 ${(100 * f1(lt)).toFixed(1)}%  (tp ${lt.tp}, fp ${lt.fp}, fn ${lt.fn}; precision ${pct(lt.tp, lt.tp + lt.fp)}, recall ${pct(lt.tp, lt.tp + lt.fn)})`,
  );

  console.log(
    `  printed fields shown on the page (page and box): ${pct(placed.placed, placed.printed)}  (${placed.placed}/${placed.printed})`,
  );

  reliabilityDiagram();

  console.log('\nCalibration of extractionConfidence (precision = right / judged returned fields)');
  calibrationTable(docs.map((d) => ({ doc: d, score: d.confidence })));

  // The calibration procedure itself, judged on documents it was not fitted on (two folds).
  const folds = [0, 1].map((k) => docs.filter((_, i) => i % 2 === k));
  const crossScored = folds.flatMap((test, k) => {
    const table = calibrationOf(folds[1 - k]!);
    return test.map((d) => {
      const values = Object.fromEntries(Object.entries(d.evidence).map(([p, e]) => [p, fieldConfidence(p, e, table)]));
      return { doc: d, score: documentConfidence(values) };
    });
  });
  console.log('\nSame, with the calibration fitted on the other half of the documents (two-fold cross-validation)');
  calibrationTable(crossScored);
  leaveOneSourceOut();

  const fitted = calibrationOf(docs);
  if (args['write-calibration']) {
    const target = path.join(repoRoot, 'src/analysis/calibration.ts');
    const { source, count, ocrRun } = calibrationModule(readFileSync(target, 'utf8'), fitted);
    await writeGenerated(target, source);
    console.log(
      `\nWrote ${count} calibration counts (${Object.keys(fitted).length} from this ${ocrRun ? 'OCR' : 'text-layer'} run) to ${path.relative(repoRoot, target)} (rebuild to use them).`,
    );
  }

  const perPage = docs.map((d) => d.seconds / d.pages);
  if (args['ocr-cache']) console.log(`\nOCR words reused from ${args['ocr-cache']} where present: the timings below do not measure OCR.`);
  console.log(
    `\nTiming (text extraction + analysis, per page): median ${quantile(perPage, 0.5).toFixed(3)} s, p95 ${quantile(perPage, 0.95).toFixed(3)} s, max ${Math.max(...perPage).toFixed(3)} s over ${docs.length} documents / ${docs.reduce((s, d) => s + d.pages, 0)} pages`,
  );
}

await run();
