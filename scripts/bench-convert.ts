import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import http from 'node:http';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRef, PDFStream, type PDFObject } from 'pdf-lib';
import { extractTextLayer } from '../src/reading/text-layer.js';
import { Decimal } from '../src/invoice/decimal.js';
import { invoiceSchema, type Invoice } from '../src/invoice/model.js';
import { listTemplates, loadTemplate, renderInvoicePdf, templateRoots } from '../src/render/index.js';
import { LEGAL_FORM } from '../src/analysis/parties.js';
import { vatCategoryOf } from '../src/analysis/codes.js';
import { DEFAULT_REASONS } from '../src/analysis/implied.js';
import type { FieldSource } from '../src/analysis/sources.js';
import { certaintyOf, ConversionRefusal, prepareForZugferd } from '../src/conversion/convertible.js';
import {
  corpusItems,
  embeddedFiles,
  getPath,
  isVisible,
  notOnPage,
  truthOf,
  withZugferd1Name,
  visibleOf,
  ZUGFERD_GROUPS,
  type Golden,
  type Kind,
  type Visible,
} from './lib/corpus-truth.js';
import { scanProfile, seedOf } from './lib/scan-simulation.js';
import { scannedPdf } from './lib/scanned-pdf.js';
import { repoRoot, spawnService, type SpawnedService } from './lib/spawn-service.js';
import { quantile } from './lib/quantile.js';
import { samePaymentAct, truthQuirk } from './lib/truth-quirks.js';

/**
 * Benchmark (not a test) of createZugferdFromPdf end to end against the built service.
 *   node dist-tools/scripts/bench-convert.js [--corpus ../shared/corpus] [--set corpus|fixtures] [--mode text-layer|ocr-degraded] [--only substring]
 *                                      [--concurrency 1] [--verbose] [--json results.json]
 *   node dist-tools/scripts/bench-convert.js --analysed held-out.json [--threshold T] [--verbose]
 *
 * Input: the ZUGFeRD / Factur-X PDFs of the corpus whose page agrees with their XML (the invoice
 * number, issue date and gross total of the XML are all visible in the text layer; a PDF whose
 * page says something else cannot be judged by its XML), the plain PDFs with golden JSON, and
 * the plain PDFs without. Every attachment is removed before sending, so the service has only
 * the page to read; in `ocr-degraded` mode the pages are further printed and scanned in
 * simulation (scripts/lib/scan-simulation.ts) into an image-only PDF, so it has to OCR them.
 *
 * Per file: the HTTP status, the failure code with its fields or rule codes, and the wall time
 * of the request. The XML of every converted PDF is compared with the truth on the values a
 * user checks before accepting an invoice: right only when they could accept it unchanged.
 * A difference is listed, but not counted wrong, when the page prints the output's value and
 * not the XML's, when the XML's own value breaks an EN 16931 rule, or when two names differ
 * only by a legal form; the report also gives the rate with every difference counted wrong.
 * One warm-up request (the first file, not counted) precedes the measured ones.
 *
 * `--set fixtures` measures the same on invoices whose truth is exact and needs no corpus: every
 * invoice of test/fixtures/invoices (the model's edge cases: several rates, credit notes,
 * allowances, reverse charge, export …) rendered by every built-in template.
 */

const { values: args } = parseArgs({
  options: {
    corpus: { type: 'string' },
    mode: { type: 'string', default: 'text-layer' },
    set: { type: 'string', default: 'corpus' },
    only: { type: 'string' },
    concurrency: { type: 'string', default: '1' },
    verbose: { type: 'boolean', default: false },
    json: { type: 'string' },
    /**
     * In process, without the service: the held-out readings bench-analysis wrote with
     * --held-out-json (each document read by the ranker and calibration of the folds that never
     * saw it), through the conversion's checks at every certainty threshold.
     */
    analysed: { type: 'string' },
    /** With --analysed: list the documents and differing values at this threshold instead of the product's. */
    threshold: { type: 'string' },
  },
});
const corpus = path.resolve(args.corpus ?? path.join(repoRoot, '../shared/corpus'));
const concurrency = Math.max(1, Number(args.concurrency) || 1);
type Prepare = (pdf: Uint8Array, file: string) => Promise<Uint8Array>;
const MODES: Record<string, Prepare> = {
  'text-layer': (pdf) => withoutEmbeddedFiles(pdf),
  'ocr-degraded': async (pdf, file) => scannedPdf(await withoutEmbeddedFiles(pdf), scanProfile(seedOf(path.basename(file)))),
};
const prepare = MODES[args.mode!];
if (!prepare) throw new Error(`Unknown --mode ${args.mode}; known: ${Object.keys(MODES).join(', ')}`);

// ---------------------------------------------------------------- input

interface Case {
  group: string;
  file: string;
  /** Absent for plain PDFs without golden JSON: only whether they convert is measured. */
  truth?: Invoice;
  golden?: Golden;
  /** What the original page shows, to tell a misreading from a page that prints another value than its XML. */
  visible?: Visible;
}

async function listCases(): Promise<Case[]> {
  const cases: Case[] = [];
  const dropped: string[] = [];
  let candidates = 0;
  for (const item of corpusItems(corpus, ZUGFERD_GROUPS).filter((i) => !args.only || i.file.includes(args.only))) {
    const truth = await item.truth();
    const visible = visibleOf(await extractTextLayer(readFileSync(item.file)));
    if (item.golden) {
      cases.push({ group: item.group, file: item.file, truth, golden: item.golden, visible });
      continue;
    }
    candidates++;
    const unseen = truth ? notOnPage(truth, visible) : ['no readable XML'];
    if (unseen.length) dropped.push(`${path.relative(corpus, item.file)} (${unseen.join(', ')})`);
    else cases.push({ group: item.group, file: item.file, truth, visible });
  }
  const plainDir = path.join(corpus, 'plain-pdf');
  if (existsSync(plainDir)) {
    for (const f of readdirSync(plainDir)
      .filter((n) => n.toLowerCase().endsWith('.pdf'))
      .sort()) {
      const file = path.join(plainDir, f);
      if (!args.only || file.includes(args.only)) cases.push({ group: 'plain-pdf', file });
    }
  }
  console.log(`ZUGFeRD / Factur-X PDFs whose page agrees with their XML: ${candidates - dropped.length} of ${candidates} kept`);
  for (const d of dropped) console.log(`  dropped: ${d}`);
  return cases;
}

/** The test fixtures rendered by every built-in template, written to `dir`; the fixture is the truth. */
async function fixtureCases(dir: string): Promise<Case[]> {
  const fixtures = path.join(repoRoot, 'test/fixtures/invoices');
  const roots = templateRoots(dir);
  const templates = (await listTemplates(roots)).filter((t) => t.source === 'builtin' && t.valid).map((t) => t.id);
  const cases: Case[] = [];
  for (const name of readdirSync(fixtures)
    .filter((f) => f.endsWith('.json'))
    .sort()) {
    const truth = invoiceSchema.parse(JSON.parse(readFileSync(path.join(fixtures, name), 'utf8')));
    for (const id of templates) {
      const file = path.join(dir, `${path.basename(name, '.json')}-${id}.pdf`);
      if (args.only && !file.includes(args.only)) continue;
      const { pdf } = await renderInvoicePdf(truth, await loadTemplate(roots, id), {
        created: new Date('2026-01-15T10:00:00Z'),
        fileId: '0'.repeat(32),
      });
      writeFileSync(file, pdf);
      cases.push({ group: 'fixtures', file, truth, visible: visibleOf(await extractTextLayer(pdf)) });
    }
  }
  console.log(`Fixtures rendered by the built-in templates (${templates.join(', ')}): ${cases.length}`);
  return cases;
}

/** The PDF without attachments: the name tree, the /AF arrays, and the file streams themselves. */
async function withoutEmbeddedFiles(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf, { ignoreEncryption: true, updateMetadata: false });
  doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict)?.delete(PDFName.of('EmbeddedFiles'));
  doc.catalog.delete(PDFName.of('AF'));
  for (const page of doc.getPages()) page.node.delete(PDFName.of('AF'));
  // pdf-lib writes unreferenced objects too: without this the XML would still be in the file.
  dropUnreachable(doc);
  const out = await doc.save();
  const left = await embeddedFiles(out);
  if (left.length) throw new Error(`embedded files left after removal: ${left.map((e) => e.name).join(', ')}`);
  return out;
}

function dropUnreachable(doc: PDFDocument): void {
  const reached = new Set<PDFRef>();
  const todo: Array<PDFObject | undefined> = [doc.context.trailerInfo.Root, doc.context.trailerInfo.Info];
  while (todo.length) {
    const obj = todo.pop();
    if (obj instanceof PDFRef) {
      if (reached.has(obj)) continue;
      reached.add(obj);
      todo.push(doc.context.lookup(obj));
    } else if (obj instanceof PDFDict) todo.push(...obj.values());
    else if (obj instanceof PDFArray) todo.push(...obj.asArray());
    else if (obj instanceof PDFStream) todo.push(obj.dict);
  }
  for (const [ref] of doc.context.enumerateIndirectObjects()) if (!reached.has(ref)) doc.context.delete(ref);
}

/** The pages as a scanner returns them: one JPEG per page, the page as large as the paper scanned. */
// ---------------------------------------------------------------- request

interface Answer {
  status: number;
  body: Buffer;
}

/** Not fetch: its 300 s header timeout is shorter than the 600 s a conversion may take (README, Scaling). */
function post(service: SpawnedService, route: string, json: unknown): Promise<Answer> {
  const payload = JSON.stringify(json);
  return new Promise((resolve, reject) => {
    const req = http.request(
      `${service.url}${route}`,
      {
        method: 'POST',
        timeout: 600_000,
        headers: {
          authorization: `Bearer ${service.token}`,
          'content-type': 'application/json',
          'content-length': Buffer.byteLength(payload),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(chunks) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 600 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

interface ApiFailure {
  code?: string;
  fields?: Array<{ field: string; bt?: string; message: string }>;
  ruleCodes?: string[];
}

interface Verdict {
  bt: string;
  want?: string;
  got?: string;
  /**
   * `page-differs`: the output differs from the XML, but the page prints the output's value and not the XML's.
   * `truth-breaks`: the XML's own value breaks the EN 16931 rule in `rule`, so it is no target.
   * `legal-form`: a name that differs from the XML only by a legal form ("SARL", "GmbH") printed with it.
   * `name-with-ids`: the XML's name is the output's name with identifier lines around it ("GLN 4333741000005", "Lief-Nr: 549910"; for items "GTIN: …", "Verpackung: Karton").
   * `street-in-line-2`: the XML puts a person in address line 1 and the street the output read in line 2.
   * `names-mixed`: the XML's value is a name it gives elsewhere (its buyer named with its seller's name, a trading
   *   name as an address line), and the page prints the output's value.
   * `kind-beyond-code-list`: a ZUGFeRD 1.0 XML codes 380 the kind of document (BT-3) its own name gives and the
   *   output codes ("RECHNUNGS-KORREKTUR", 384): that code list has only 84, 380 and 389.
   * `reason-with-figures`: the XML's allowance or charge reason is the output's followed by the figures printed
   *   beside it (percentage, base, VAT rate).
   * `empty-row`: the XML has a VAT breakdown row of nothing (no base or a zero one, no tax) the output has not:
   *   a row no amount is in states nothing an e-invoice needs.
   * `piece-code`: the XML codes an item's unit (BT-130) as one of the codes for a piece (H87, XPP, NAR, EA) where the
   *   output codes another (C62), and the page prints no word for the XML's code: "Stk" or "pcs" names a piece, not a code.
   * `standard-text`: an exemption reason (BT-120) the page's own words were not read for: the output states its
   *   category's VATEX code and standard text instead (a default the conversion names), where the XML words it its own way;
   *   likewise an allowance's or charge's reason (BT-97, BT-104) given as the default word ("Nachlass", "Charge").
   * `same-payment-act`: the XML codes the payment means (BT-81) as another code for the same act as the output's
   *   (a transfer to an account: 30, 31, 42 or 58; a direct debit: 49 or 59; see scripts/lib/truth-quirks.ts).
   */
  verdict:
    | 'right'
    | 'wrong'
    | 'page-differs'
    | 'truth-breaks'
    | 'legal-form'
    | 'name-with-ids'
    | 'street-in-line-2'
    | 'names-mixed'
    | 'kind-beyond-code-list'
    | 'reason-with-figures'
    | 'piece-code'
    | 'empty-row'
    | 'standard-text'
    | 'same-payment-act'
    | 'absent'
    | 'unjudged';
  rule?: string;
}

interface Result {
  file: string;
  group: string;
  status: number;
  /** `ok`, the service's error code, or what went wrong on this side (PREPARE_FAILED, NO_ANSWER, OUTPUT_UNREADABLE). */
  code: string;
  seconds: number;
  fields?: string[];
  ruleCodes?: string[];
  error?: unknown;
  verdicts?: Verdict[];
}

async function convert(service: SpawnedService, c: Case): Promise<Result> {
  const base = { file: c.group === 'fixtures' ? path.basename(c.file) : path.relative(corpus, c.file), group: c.group };
  let pdf: Uint8Array;
  try {
    pdf = await prepare!(readFileSync(c.file), c.file);
  } catch (e) {
    return { ...base, status: 0, code: 'PREPARE_FAILED', seconds: 0, error: (e as Error).message };
  }
  const started = performance.now();
  let answer: Answer;
  try {
    answer = await post(service, '/createZugferdFromPdf', {
      fileBase64: Buffer.from(pdf).toString('base64'),
      fileName: path.basename(c.file),
    });
  } catch (e) {
    return { ...base, status: 0, code: 'NO_ANSWER', seconds: (performance.now() - started) / 1000, error: (e as Error).message };
  }
  const seconds = (performance.now() - started) / 1000;
  if (answer.status === 200) {
    try {
      return { ...base, status: 200, code: 'ok', seconds, ...(c.truth ? { verdicts: await judge(c, answer.body) } : {}) };
    } catch (e) {
      return { ...base, status: 200, code: 'OUTPUT_UNREADABLE', seconds, error: (e as Error).message };
    }
  }
  let error: ApiFailure | undefined;
  try {
    error = (JSON.parse(answer.body.toString('utf8')) as { error?: ApiFailure }).error;
  } catch {
    // Not the JSON failure answer (a proxy, a crash): the status is all there is.
  }
  return {
    ...base,
    status: answer.status,
    code: error?.code ?? `HTTP_${answer.status}`,
    seconds,
    ...(error?.fields ? { fields: error.fields.map((f) => f.bt ?? f.field) } : {}),
    ...(error?.ruleCodes ? { ruleCodes: error.ruleCodes } : {}),
    error,
  };
}

// ---------------------------------------------------------------- comparison

type Compare = 'text' | 'id' | 'date' | 'amount' | 'number';
const PRIVATE_USE_CODE = /[\uE000-\uF8FF]/u;

/** `kind`: how the page shows the value, for the page-differs check. */
const COMPARED: Array<{ bt: string; path: string; compare: Compare; kind: Kind }> = [
  { bt: 'BT-1', path: 'invoiceNumber', compare: 'id', kind: 'id' },
  { bt: 'BT-2', path: 'invoiceIssueDate', compare: 'date', kind: 'date' },
  { bt: 'BT-3', path: 'invoiceTypeCode', compare: 'id', kind: 'code' },
  { bt: 'BT-5', path: 'invoiceCurrencyCode', compare: 'id', kind: 'currency' },
  { bt: 'BT-9', path: 'paymentDueDate', compare: 'date', kind: 'date' },
  { bt: 'BT-10', path: 'buyerReference', compare: 'id', kind: 'id' },
  { bt: 'BT-12', path: 'contractReference', compare: 'id', kind: 'id' },
  { bt: 'BT-13', path: 'purchaseOrderReference', compare: 'id', kind: 'id' },
  { bt: 'BT-20', path: 'paymentTerms', compare: 'text', kind: 'wrapped' },
  { bt: 'BT-25', path: 'precedingInvoiceReference[0].precedingInvoiceReference', compare: 'id', kind: 'id' },
  { bt: 'BT-26', path: 'precedingInvoiceReference[0].precedingInvoiceIssueDate', compare: 'date', kind: 'date' },
  { bt: 'BT-72', path: 'deliveryInformation.actualDeliveryDate', compare: 'date', kind: 'date' },
  { bt: 'BT-73', path: 'invoicingPeriod.invoicingPeriodStartDate', compare: 'date', kind: 'date' },
  { bt: 'BT-74', path: 'invoicingPeriod.invoicingPeriodEndDate', compare: 'date', kind: 'date' },
  { bt: 'BT-84', path: 'paymentInstructions.creditTransfer[0].paymentAccountIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-86', path: 'paymentInstructions.creditTransfer[0].paymentServiceProviderIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-89', path: 'paymentInstructions.directDebit.mandateReferenceIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-90', path: 'paymentInstructions.directDebit.bankAssignedCreditorIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-91', path: 'paymentInstructions.directDebit.debitedAccountIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-27', path: 'seller.sellerName', compare: 'text', kind: 'text' },
  { bt: 'BT-29', path: 'seller.sellerIdentifier[0]', compare: 'id', kind: 'id' },
  { bt: 'BT-30', path: 'seller.sellerLegalRegistrationIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-31', path: 'seller.sellerVatIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-32', path: 'seller.sellerTaxRegistrationIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-35', path: 'seller.sellerPostalAddress.sellerAddressLine1', compare: 'text', kind: 'text' },
  { bt: 'BT-36', path: 'seller.sellerPostalAddress.sellerAddressLine2', compare: 'text', kind: 'text' },
  { bt: 'BT-162', path: 'seller.sellerPostalAddress.sellerAddressLine3', compare: 'text', kind: 'text' },
  { bt: 'BT-37', path: 'seller.sellerPostalAddress.sellerCity', compare: 'text', kind: 'text' },
  { bt: 'BT-38', path: 'seller.sellerPostalAddress.sellerPostCode', compare: 'id', kind: 'id' },
  { bt: 'BT-40', path: 'seller.sellerPostalAddress.sellerCountryCode', compare: 'id', kind: 'country' },
  { bt: 'BT-42', path: 'seller.sellerContact.sellerContactTelephoneNumber', compare: 'id', kind: 'id' },
  { bt: 'BT-43', path: 'seller.sellerContact.sellerContactEmailAddress', compare: 'id', kind: 'id' },
  { bt: 'BT-44', path: 'buyer.buyerName', compare: 'text', kind: 'text' },
  { bt: 'BT-46', path: 'buyer.buyerIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-48', path: 'buyer.buyerVatIdentifier', compare: 'id', kind: 'id' },
  { bt: 'BT-50', path: 'buyer.buyerPostalAddress.buyerAddressLine1', compare: 'text', kind: 'text' },
  { bt: 'BT-51', path: 'buyer.buyerPostalAddress.buyerAddressLine2', compare: 'text', kind: 'text' },
  { bt: 'BT-163', path: 'buyer.buyerPostalAddress.buyerAddressLine3', compare: 'text', kind: 'text' },
  { bt: 'BT-52', path: 'buyer.buyerPostalAddress.buyerCity', compare: 'text', kind: 'text' },
  { bt: 'BT-53', path: 'buyer.buyerPostalAddress.buyerPostCode', compare: 'id', kind: 'id' },
  { bt: 'BT-55', path: 'buyer.buyerPostalAddress.buyerCountryCode', compare: 'id', kind: 'country' },
  { bt: 'BT-109', path: 'documentTotals.invoiceTotalAmountWithoutVat', compare: 'amount', kind: 'amount' },
  { bt: 'BT-110', path: 'documentTotals.invoiceTotalVatAmount', compare: 'amount', kind: 'amount' },
  { bt: 'BT-112', path: 'documentTotals.invoiceTotalAmountWithVat', compare: 'amount', kind: 'amount' },
  { bt: 'BT-113', path: 'documentTotals.paidAmount', compare: 'amount', kind: 'amount' },
  { bt: 'BT-114', path: 'documentTotals.roundingAmount', compare: 'amount', kind: 'amount' },
  { bt: 'BT-115', path: 'documentTotals.amountDueForPayment', compare: 'amount', kind: 'amount' },
];
const LINES = 'lines';

const collapsed = (text: string) => text.replace(/\s+/g, ' ').trim();
const printedAsIs = (text: string, v: Visible) => v.printed.includes(collapsed(text));
const sameButCase = (want: string, got: string) => collapsed(want).toLowerCase() === collapsed(got).toLowerCase();

/** Equal as a user would accept it unchanged: only spacing of text, spacing and case of ids, amounts to the cent. */
function same(compare: Compare, want: string, got: string, creditNote: boolean): boolean {
  switch (compare) {
    case 'text': {
      // Strictly as printed: whitespace runs collapsed, nothing else removed, case kept.
      const norm = (s: string) => s.replace(/\s+/g, ' ').trim();
      return norm(want) === norm(got);
    }
    case 'id': {
      // Digit groups ("DE89 3704 …") are how identifiers are printed, not part of them; case is.
      const norm = (s: string) => s.replace(/\s+/g, '');
      return norm(want) === norm(got);
    }
    case 'date':
      return want === got;
    case 'amount':
    case 'number': {
      // A credit note may state as positive what its XML counts as negative, and the other way round.
      // Amounts are to the cent; quantities and prices exact ("1.0000" is 1).
      const places = compare === 'amount' ? 2 : 20;
      const [w, g] = [want, got].map((s) => new Decimal(s).toDecimalPlaces(places)) as [Decimal, Decimal];
      return creditNote ? w.abs().eq(g.abs()) : w.eq(g);
    }
  }
}

const LEGAL_FORMS = new RegExp(LEGAL_FORM.source, 'giu');
/** Both name the same company, one with and one without its legal form. */
function sameButLegalForm(want: string, got: string): boolean {
  const strip = (s: string) => s.replace(LEGAL_FORMS, ' ').replace(/\s+/g, ' ').trim().toLowerCase();
  return strip(want) !== '' && strip(want) === strip(got);
}

const sum = (values: Array<string | undefined>) => values.reduce((a, v) => a.plus(v ?? 0), new Decimal(0));

/** The EN 16931 rule the truth's own value breaks, if it does (some sample XMLs do). */
function brokenByTruth(bt: string, truth: Invoice, printable: Invoice['invoiceLine']): string | undefined {
  const t = truth.documentTotals;
  if (bt === 'BT-115' && t?.amountDueForPayment !== undefined && t.invoiceTotalAmountWithVat !== undefined) {
    const due = sum([t.invoiceTotalAmountWithVat, t.roundingAmount]).minus(sum([t.paidAmount]));
    if (!due.eq(t.amountDueForPayment)) return 'BR-CO-16';
  }
  if (bt === LINES && printable?.length && printable.every((l) => l.invoiceLineNetAmount !== undefined)) {
    const lines = sum(printable.map((l) => l.invoiceLineNetAmount));
    // Golden JSON has no BT-106: its lines add up to the net total, or to the gross total where prices include VAT.
    const targets =
      t?.sumOfInvoiceLineNetAmount !== undefined
        ? [t.sumOfInvoiceLineNetAmount]
        : [t?.invoiceTotalAmountWithoutVat, t?.invoiceTotalAmountWithVat];
    if (targets.every((v) => v !== undefined) && !targets.some((v) => lines.eq(v!))) return 'BR-CO-10';
  }
  return undefined;
}

async function judge(c: Case, pdf: Uint8Array): Promise<Verdict[]> {
  const xml = (await embeddedFiles(pdf)).find((e) => /\.xml$/i.test(e.name));
  if (!xml) throw new Error('no XML embedded in the returned PDF');
  const got = truthOf(xml.data);
  if (!got) throw new Error(`the returned ${xml.name} is no invoice the model can read`);
  return judgeInvoice(c, got);
}

/** `value` is `exact` rounded to the places `value` has. */
const roundedTo = (exact: string, value: string) =>
  new Decimal(exact).decimalPlaces() > new Decimal(value).decimalPlaces() &&
  new Decimal(exact).toDecimalPlaces(new Decimal(value).decimalPlaces()).eq(value);

/** The converted invoice against the truth, on the values a user checks before accepting it. */
function judgeInvoice(c: Case, got: Invoice): Verdict[] {
  const truth = c.truth!;
  const creditNote = truth.invoiceTypeCode === '381' || got.invoiceTypeCode === '381';
  const verdicts: Verdict[] = [];
  // A line with neither name nor amount is no line a page can print (the ZUGFeRD 1.0 migration leaves such empty ones).
  const printable = (i: Invoice) =>
    (i.invoiceLine ?? []).filter((l) => l.invoiceLineNetAmount !== undefined || l.itemInformation?.itemName !== undefined);
  const add = (bt: string, want: string | undefined, value: string | undefined, right: () => boolean, kind?: Kind, path = '') => {
    if (want === undefined) {
      if (value !== undefined) verdicts.push({ bt, got: value, verdict: 'unjudged' });
      return;
    }
    const rule = brokenByTruth(bt, truth, printable(truth));
    if (value === undefined) verdicts.push({ bt, want, verdict: 'absent' });
    else if (right()) verdicts.push({ bt, want, got: value, verdict: 'right' });
    else if (rule) verdicts.push({ bt, want, got: value, verdict: 'truth-breaks', rule });
    else if (kind === 'unit' && PIECES.has(want) && PIECES.has(value) && c.visible && !isVisible(kind, want, c.visible))
      verdicts.push({ bt, want, got: value, verdict: 'piece-code' });
    // A glyph the PDF names by no letter (a ligature's private-use code) is in the text layer, not on the page a person reads.
    else if (PRIVATE_USE_CODE.test(value)) verdicts.push({ bt, want, got: value, verdict: 'wrong' });
    else if (kind && c.visible && !isVisible(kind, want, c.visible) && isVisible(kind, value, c.visible))
      verdicts.push({ bt, want, got: value, verdict: 'page-differs' });
    // A text the page prints in the output's case and not the XML's ("16X6X28" where the XML writes "16x6x28").
    else if (sameButCase(want, value) && c.visible && printedAsIs(value, c.visible) && !printedAsIs(want, c.visible))
      verdicts.push({ bt, want, got: value, verdict: 'page-differs' });
    // A price the XML states to more places than the page prints it ("3.3333" printed "3,33").
    else if (kind === 'amount' && c.visible && roundedTo(want, value) && isVisible(kind, value, c.visible))
      verdicts.push({ bt, want, got: value, verdict: 'page-differs' });
    else if (kind === 'text' && sameButLegalForm(want, value)) verdicts.push({ bt, want, got: value, verdict: 'legal-form' });
    else {
      const quirk = kind === 'text' || bt === 'BT-3' || bt === 'BT-153' ? truthQuirk(truth, path, want, value) : undefined;
      // Another party's name is excused only where the page prints the output's value.
      // (Held-out readings carry no page text, but what they write was read from the page.)
      const printed = () => !c.visible || isVisible(kind!, value, c.visible);
      verdicts.push({ bt, want, got: value, verdict: quirk && (quirk !== 'names-mixed' || printed()) ? quirk : 'wrong' });
    }
  };
  for (const f of COMPARED) {
    const want = getPath(truth, f.path);
    const value = getPath(got, f.path);
    // The golden issuer may be spelt as the company's full name.
    const alternative = f.bt === 'BT-27' ? c.golden?.partner_name : undefined;
    add(
      f.bt,
      want,
      value,
      () => same(f.compare, want!, value!, creditNote) || (alternative !== undefined && same(f.compare, alternative, value!, creditNote)),
      f.kind,
      f.path,
    );
  }
  verdicts.push(...judgePaymentMeans(truth, got, add));
  const count = (i: Invoice) => (printable(i).length ? String(printable(i).length) : undefined);
  add(LINES, count(truth), count(got), () => count(truth) === count(got));
  // Line by line where the count agrees (a line missed or split already counts above).
  if (count(truth) === count(got))
    printable(truth).forEach((line, i) => {
      const other = printable(got)[i]!;
      for (const f of LINE_COMPARED) {
        const [want, value] = [getPath(line, f.path), getPath(other, f.path)];
        add(f.bt, want, value, () => same(f.compare, want!, value!, creditNote), f.kind, f.path);
      }
      for (const { list, key, bts } of LINE_ADJUSTMENTS) {
        const rows = Math.max(line[list]?.length ?? 0, other[list]?.length ?? 0);
        for (let k = 0; k < rows; k++)
          LINE_ADJUSTMENT_COMPARED.forEach(({ field, compare, kind }, n) => {
            const path = `${list}[${k}].${key}${field}`;
            const [want, value] = [getPath(line, path), getPath(other, path)];
            add(bts[n]!, want, value, () => same(compare, want!, value!, true), kind, path);
          });
      }
    });
  for (const { list, key, bts } of ADJUSTMENTS)
    (truth[list] ?? []).forEach((row, i) =>
      ADJUSTMENT_COMPARED.forEach(({ field, compare, kind }, k) => {
        const [want, value] = [getPath(row, `${key}${field}`), getPath(got[list]?.[i], `${key}${field}`)];
        if (field === 'Reason' && want !== undefined && value !== undefined && DEFAULT_REASON_WORDS.has(value) && value !== want)
          return verdicts.push({ bt: bts[k]!, want, got: value, verdict: 'standard-text' });
        // Whether it lowers or raises the total is the list it is in; ZUGFeRD 1.0 also signs the amount.
        add(bts[k]!, want, value, () => same(compare, want!, value!, true), kind, `${list}[${i}].${key}${field}`);
      }),
    );
  // The VAT breakdown row by row, matched by category (where the XML gives one; ZUGFeRD 1.0 BASIC does not) and rate:
  // a row missing or added is a wrong breakdown written.
  type Row = NonNullable<Invoice['vatBreakdown']>[number];
  const rate = (r: Row) => new Decimal(r.vatCategoryRate ?? 0).toString();
  const named = (r: Row) => `${r.vatCategoryCode ?? ''} ${rate(r)} %`.trim();
  const matches = (t: Row, g: Row) => rate(t) === rate(g) && (t.vatCategoryCode === undefined || t.vatCategoryCode === g.vatCategoryCode);
  const rows = got.vatBreakdown ?? [];
  for (const row of truth.vatBreakdown ?? []) {
    const other = rows.find((g) => matches(row, g));
    const empty = [row.vatCategoryTaxableAmount, row.vatCategoryTaxAmount].every((v) => v === undefined || new Decimal(v).isZero());
    if (!other && empty) verdicts.push({ bt: 'BT-118', want: named(row), got: 'no such row', verdict: 'empty-row' });
    else add('BT-118', named(row), other ? named(row) : 'no such row', () => other !== undefined);
    if (!other) continue;
    for (const [bt, field] of [
      ['BT-116', 'vatCategoryTaxableAmount'],
      ['BT-117', 'vatCategoryTaxAmount'],
    ] as const)
      add(bt, row[field], other[field], () => same('amount', row[field]!, other[field]!, creditNote), 'amount');
    judgeReason(row, other, add, (v) => verdicts.push(v));
  }
  for (const extra of truth.vatBreakdown?.length ? rows.filter((g) => !truth.vatBreakdown!.some((t) => matches(t, g))) : [])
    add('BT-118', 'no such row', named(extra), () => false);
  return verdicts;
}

/**
 * BT-81 by the act it asks for: a direct debit written as a transfer is wrong, 58 for the XML's 42
 * is listed. An account to pay to (BT-84) where the XML has only the buyer's debited account
 * (BT-91) is wrong too: the buyer would be told to pay into its own account.
 */
function judgePaymentMeans(
  truth: Invoice,
  got: Invoice,
  add: (bt: string, want: string | undefined, value: string | undefined, right: () => boolean) => void,
): Verdict[] {
  const [want, value] = [truth.paymentInstructions?.paymentMeansTypeCode, got.paymentInstructions?.paymentMeansTypeCode];
  const payee = got.paymentInstructions?.creditTransfer?.[0]?.paymentAccountIdentifier;
  const debited = truth.paymentInstructions?.directDebit?.debitedAccountIdentifier;
  if (
    payee !== undefined &&
    truth.paymentInstructions?.creditTransfer?.[0]?.paymentAccountIdentifier === undefined &&
    debited !== undefined
  )
    add('BT-84', 'no account to pay to (BT-91 is the debited account)', payee, () => false);
  if (want !== undefined && value !== undefined && samePaymentAct(want, value))
    return [{ bt: 'BT-81', want, got: value, verdict: 'same-payment-act' }];
  add('BT-81', want, value, () => want === value);
  return [];
}

/** The category an exemption reason code stands for (VATEX): a reason text written for a row must name it. */
const REASON_CATEGORY: Readonly<Record<string, string>> = { 'VATEX-EU-IC': 'K', 'VATEX-EU-AE': 'AE', 'VATEX-EU-G': 'G', 'VATEX-EU-O': 'O' };

/**
 * BT-120: as printed where the XML gives the text; where it gives only a code (BT-121), the text
 * written must name the code's category ("reverse charge" under an intra-community row is wrong).
 */
function judgeReason(
  row: NonNullable<Invoice['vatBreakdown']>[number],
  other: NonNullable<Invoice['vatBreakdown']>[number],
  add: (bt: string, want: string | undefined, value: string | undefined, right: () => boolean, kind?: Kind) => void,
  standard: (v: Verdict) => void,
): void {
  const [want, value] = [row.vatExemptionReasonText, other.vatExemptionReasonText];
  if (want !== undefined && value !== undefined && other.vatExemptionReasonCode !== undefined && !same('text', want, value, false))
    return standard({ bt: 'BT-120', want, got: value, verdict: 'standard-text' });
  // A reason wraps in its breakdown cell: a value that is only part of it is wrong, not "printed otherwise".
  if (want !== undefined) return add('BT-120', want, value, () => same('text', want, value!, false), 'wrapped');
  const category = REASON_CATEGORY[row.vatExemptionReasonCode ?? ''];
  if (category && value !== undefined)
    add('BT-120', `a reason of category ${category}`, value, () => vatCategoryOf(undefined, value) === category);
}

/** Per line, the values a user checks: what, how many, at what price, for how much. */
const LINE_COMPARED: Array<{ bt: string; path: string; compare: Compare; kind: Kind }> = [
  { bt: 'BT-153', path: 'itemInformation.itemName', compare: 'text', kind: 'wrapped' },
  { bt: 'BT-129', path: 'invoicedQuantity', compare: 'number', kind: 'amount' },
  { bt: 'BT-130', path: 'invoicedQuantityUnitOfMeasureCode', compare: 'id', kind: 'unit' },
  { bt: 'BT-146', path: 'priceDetails.itemNetPrice', compare: 'number', kind: 'amount' },
  { bt: 'BT-131', path: 'invoiceLineNetAmount', compare: 'amount', kind: 'amount' },
  { bt: 'BT-151', path: 'lineVatInformation[0].invoicedItemVatCategoryCode', compare: 'id', kind: 'code' },
  { bt: 'BT-154', path: 'itemInformation.itemDescription', compare: 'text', kind: 'text' },
  { bt: 'BT-155', path: 'itemInformation.itemSellersIdentifier', compare: 'id', kind: 'id' },
];

/** Rec. 20 codes for one piece of something: which of them an issuer's software writes, a printed "Stk" does not tell. */
const PIECES = new Set(['C62', 'H87', 'XPP', 'NAR', 'EA']);

/** Document-level allowances (BG-20) and charges (BG-21), in page order: how much, at which rate and category. */
const ADJUSTMENTS = [
  { list: 'documentLevelAllowances', key: 'documentLevelAllowance', bts: ['BT-92', 'BT-96', 'BT-95', 'BT-97'] },
  { list: 'documentLevelCharges', key: 'documentLevelCharge', bts: ['BT-99', 'BT-103', 'BT-102', 'BT-104'] },
] as const;
const ADJUSTMENT_COMPARED = [
  { field: 'Amount', compare: 'amount', kind: 'amount' },
  { field: 'VatRate', compare: 'number', kind: 'amount' },
  { field: 'VatCategoryCode', compare: 'id', kind: 'code' },
  { field: 'Reason', compare: 'text', kind: 'text' },
] as const;
/** An item's allowances (BG-27) and charges (BG-28), in page order: how much, and why. */
const LINE_ADJUSTMENTS = [
  { list: 'invoiceLineAllowances', key: 'invoiceLineAllowance', bts: ['BT-136', 'BT-139'] },
  { list: 'invoiceLineCharges', key: 'invoiceLineCharge', bts: ['BT-141', 'BT-144'] },
] as const;
const LINE_ADJUSTMENT_COMPARED = ADJUSTMENT_COMPARED.filter((f) => f.field === 'Amount' || f.field === 'Reason');
/** The reasons the analysis gives an allowance or charge whose own the page does not print beside it. */
const DEFAULT_REASON_WORDS = new Set(Object.values(DEFAULT_REASONS).flatMap((r) => Object.values(r!)));

// ---------------------------------------------------------------- run and report

function histogram(values: string[]): string {
  const counts = new Map<string, number>();
  for (const v of values) counts.set(v, (counts.get(v) ?? 0) + 1);
  return (
    [...counts]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([v, n]) => `${v} ${n}`)
      .join(', ') || '—'
  );
}

function printResult(r: Result): void {
  const detail = [...(r.fields ?? []), ...(r.ruleCodes ?? [])].join(' ');
  console.log(`${r.code.padEnd(20)} ${r.seconds.toFixed(2).padStart(7)}  ${r.file}${detail ? `  [${detail}]` : ''}`);
  if (args.verbose && r.code !== 'ok') console.log(JSON.stringify(r.error, null, 2));
}

function report(results: Result[], mode = args.mode): void {
  const converted = (rs: Result[]) => `${rs.filter((r) => r.code === 'ok').length} / ${rs.length}`;
  const zugferd = results.filter((r) => (ZUGFERD_GROUPS as readonly string[]).includes(r.group));
  // The plain PDFs of real companies: those with golden JSON and those without.
  const plain = results.filter((r) => r.group === 'plain-pdf' || r.group === 'plain-pdf-golden');
  const fixtures = results.filter((r) => r.group === 'fixtures');
  const failed = results.filter((r) => r.code !== 'ok');
  console.log(`\nSummary (${mode})`);
  const sets = fixtures.length
    ? `fixtures rendered by the built-in templates ${converted(fixtures)}`
    : `corpus ZUGFeRD/Factur-X ${converted(zugferd)}, plain PDFs ${converted(plain)}, all ${converted(results)}`;
  console.log(`  converted: ${sets}`);
  console.log(`  failure codes: ${histogram(failed.map((r) => r.code))}`);
  console.log(`  FIELDS_MISSING fields: ${histogram(failed.filter((r) => r.code === 'FIELDS_MISSING').flatMap((r) => r.fields ?? []))}`);
  console.log(
    `  ZUGFERD_INVALID rules: ${histogram(failed.filter((r) => r.code === 'ZUGFERD_INVALID').flatMap((r) => r.ruleCodes ?? []))}`,
  );
  const seconds = results.filter((r) => r.status !== 0).map((r) => r.seconds);
  console.log(
    `  seconds per request: median ${quantile(seconds, 0.5).toFixed(2)}, p95 ${quantile(seconds, 0.95).toFixed(2)}, max ${Math.max(...seconds).toFixed(2)} over ${seconds.length} requests (concurrency ${concurrency})`,
  );
  const verdicts = results.flatMap((r) => (r.verdicts ?? []).map((v) => ({ ...v, file: r.file })));
  const compared = verdicts.filter((v) => v.verdict !== 'absent' && v.verdict !== 'unjudged');
  const differing = compared.filter((v) => v.verdict !== 'right');
  console.log(`\nConverted values that differ from the truth`);
  for (const v of differing)
    console.log(
      `  ${v.verdict.padEnd(12)} ${v.file}  ${v.bt}  want ${JSON.stringify(v.want)}  got ${JSON.stringify(v.got)}${v.rule ? `  (the XML breaks ${v.rule})` : ''}`,
    );
  const n = (verdict: Verdict['verdict']) => compared.filter((v) => v.verdict === verdict).length;
  console.log(
    `  ${n('wrong')} wrong of ${compared.length} compared values (1 in ${n('wrong') ? Math.round(compared.length / n('wrong')) : '∞'})`,
  );
  console.log(
    `  not counted wrong, listed above: ${n('page-differs')} where the page prints the output's value and not the XML's, ${n('truth-breaks')} where the XML's value breaks an EN 16931 rule, ${n('legal-form')} names differing only by a legal form, ${n('name-with-ids')} names the XML writes among identifier lines (GLN, article numbers, packing notes), ${n('street-in-line-2')} streets the XML puts in address line 2 under a person, ${n('names-mixed')} values the XML gives as another party name (its buyer named as its seller), ${n('kind-beyond-code-list')} kinds of document ZUGFeRD 1.0's code list lacks (coded 380, named in the XML), ${n('reason-with-figures')} allowance or charge reasons the XML writes with their figures, ${n('piece-code')} item units the XML codes as another code for a piece than the output, with no word for its code printed, ${n('empty-row')} breakdown rows of nothing the XML has and the output not, ${n('standard-text')} exemption reasons given as their category's standard text and VATEX code, and allowance or charge reasons given as the default word, where the XML words them its own way, ${n('same-payment-act')} payment means coded as another code for the same act (a transfer, a direct debit)`,
  );
  console.log(
    `  all ${differing.length} differences counted as wrong: 1 in ${differing.length ? Math.round(compared.length / differing.length) : '∞'}`,
  );
  console.log(
    `  absent (truth has, output lacks): ${histogram(verdicts.filter((v) => v.verdict === 'absent').map((v) => v.bt))}; unjudged (output has, truth lacks): ${verdicts.filter((v) => v.verdict === 'unjudged').length}`,
  );
}

// ---------------------------------------------------------------- held out, in process

interface HeldOut {
  file: string;
  group: string;
  agrees: boolean;
  scanned: boolean;
  truth: Invoice;
  /** The truth's document name where its XML is ZUGFeRD 1.0 (see zugferd1DocumentName). */
  zugferd1Name?: string;
  invoice: Invoice;
  sources: Record<string, FieldSource>;
  candidates: Record<string, string[]>;
  unread?: string[];
  confidence: Record<string, number>;
}

/** Thresholds of the trade-off curve: a value printed on the page is written only when read with at least this confidence. */
const THRESHOLDS = [0, 0.5, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9, 0.95];

/** What the page of a held-out document prints, read from its PDF where the corpus is here: a value the page prints instead of the XML's is no misreading. */
async function visibleOfHeldOut(file: string): Promise<Visible | undefined> {
  const pdf = path.join(path.dirname(corpus), file);
  return existsSync(pdf) ? visibleOf(await extractTextLayer(readFileSync(pdf))) : undefined;
}

/**
 * The document converted as the product converts it at this certainty: a printed value read
 * below it is refused for (FIELDS_UNCERTAIN), or, where it is optional, left out.
 */
function convertHeldOut(d: HeldOut, visible: Visible | undefined, certainty: number): Result {
  const base = { file: d.file, group: d.group, status: 0, seconds: 0 };
  try {
    const { invoice } = prepareForZugferd(d.invoice, {
      sources: d.sources,
      confidence: d.confidence,
      candidates: d.candidates,
      ...(d.unread ? { unread: d.unread } : {}),
      scanned: d.scanned,
      certainty,
    });
    const c: Case = { group: d.group, file: d.file, truth: withZugferd1Name(d.truth, d.zugferd1Name), ...(visible ? { visible } : {}) };
    return { ...base, status: 200, code: 'ok', verdicts: judgeInvoice(c, invoice) };
  } catch (e) {
    if (!(e instanceof ConversionRefusal)) throw e;
    return {
      ...base,
      code: e.code,
      fields: e.fields.map((f) => f.bt ?? f.field),
      error: { message: e.message, fields: e.fields },
    };
  }
}

async function runAnalysed(file: string): Promise<void> {
  const { mode, documents } = JSON.parse(readFileSync(file, 'utf8')) as { mode: string; documents: HeldOut[] };
  // As for the service: a page whose XML describes another invoice cannot judge what was read from it.
  const kept = documents.filter((d) => d.agrees);
  console.log(`Held-out readings from ${file} (${mode}): ${kept.length} of ${documents.length} documents agree with their truth`);
  const visible: Array<Visible | undefined> = [];
  for (const d of kept) visible.push(await visibleOfHeldOut(d.file));
  const converted = new Map<number, Result[]>();
  const at = (certainty: number) => {
    if (!converted.has(certainty))
      converted.set(
        certainty,
        kept.map((d, i) => convertHeldOut(d, visible[i], certainty)),
      );
    return converted.get(certainty)!;
  };
  const product = args.threshold !== undefined ? Number(args.threshold) : certaintyOf({ scanned: kept.some((d) => d.scanned) });
  console.log(
    `Each document as ${args.threshold !== undefined ? 'converted at --threshold' : 'the product converts it'}: the printed values it writes need a confidence of ${product}.`,
  );
  const atProduct = at(product);
  for (const r of atProduct) printResult(r);
  report(atProduct, mode);
  console.log('\nPer fold (the ranker and calibration fitted without it), at the product threshold');
  for (const group of [...new Set(atProduct.map((r) => r.group))]) {
    const own = atProduct.filter((r) => r.group === group);
    const ok = own.filter((r) => r.code === 'ok');
    const wrong = ok.flatMap((r) => r.verdicts ?? []).filter((v) => v.verdict === 'wrong').length;
    console.log(`  ${group.padEnd(22)} converted ${ok.length} / ${own.length}, wrong values ${wrong}`);
  }
  tradeOff(at, product);
}

/** Converted share against wrong values, per threshold: each document converted again at each certainty. */
function tradeOff(at: (certainty: number) => Result[], product: number): void {
  console.log(`\nTrade-off (product threshold ${product})`);
  console.log(
    `${'threshold'.padEnd(11)}${'converted'.padStart(14)}${'compared'.padStart(10)}${'wrong'.padStart(7)}   wrong rate   every difference counted`,
  );
  // The product's own threshold is a row of the curve, wherever it falls between the fixed ones.
  for (const t of [...new Set([...THRESHOLDS, product])].sort((a, b) => a - b)) {
    const results = at(t);
    const ok = results.filter((r) => r.code === 'ok');
    const verdicts = ok.flatMap((r) => r.verdicts ?? []).filter((v) => v.verdict !== 'absent' && v.verdict !== 'unjudged');
    const wrong = verdicts.filter((v) => v.verdict === 'wrong').length;
    const differing = verdicts.filter((v) => v.verdict !== 'right').length;
    const share = `${ok.length}/${results.length} ${((100 * ok.length) / Math.max(1, results.length)).toFixed(0)}%`;
    console.log(
      `${t.toFixed(2).padEnd(11)}${share.padStart(14)}${String(verdicts.length).padStart(10)}${String(wrong).padStart(7)}   ${(wrong ? `1 in ${Math.round(verdicts.length / wrong)}` : '0').padEnd(13)}${differing}`,
    );
  }
  // Which fields the wrong values are in with no threshold at all: the parties' names and ids are the kinds a buyer's system trusts most.
  const wrongAtZero = at(0)
    .filter((r) => r.code === 'ok')
    .flatMap((r) => (r.verdicts ?? []).filter((v) => v.verdict === 'wrong'));
  const byField = new Map<string, number>();
  for (const v of wrongAtZero) byField.set(v.bt, (byField.get(v.bt) ?? 0) + 1);
  const fields = [...byField].sort(([a], [b]) => a.localeCompare(b, 'en', { numeric: true }));
  console.log(`  wrong values at 0.00 by field: ${fields.length ? fields.map(([bt, n]) => `${bt} ×${n}`).join(', ') : 'none'}`);
}

async function run(): Promise<void> {
  if (args.analysed) return runAnalysed(args.analysed);
  if (args.set !== 'corpus' && args.set !== 'fixtures') throw new Error(`Unknown --set ${args.set}; known: corpus, fixtures`);
  const rendered = args.set === 'fixtures' ? mkdtempSync(path.join(tmpdir(), 'bench-convert-fixtures-')) : undefined;
  if (!rendered && !existsSync(corpus)) {
    console.log(`No corpus at ${corpus}: nothing to measure (pass --corpus DIR, or --set fixtures).`);
    return;
  }
  console.log(`${rendered ? 'Set: fixtures' : `Corpus: ${corpus}`}   mode: ${args.mode}   concurrency: ${concurrency}`);
  const cases = rendered ? await fixtureCases(rendered) : await listCases();
  if (cases.length === 0) return;
  const service = await spawnService({ name: 'bench-convert' });
  try {
    // Warm-up: the first conversion starts workers and compiles code; it is not what a file costs.
    await convert(service, cases[0]!);
    const results: Result[] = new Array(cases.length);
    let next = 0;
    const worker = async () => {
      for (let i = next++; i < cases.length; i = next++) {
        results[i] = await convert(service, cases[i]!);
        printResult(results[i]!);
      }
    };
    await Promise.all(Array.from({ length: concurrency }, worker));
    report(results);
    if (args.json) writeFileSync(args.json, JSON.stringify({ mode: args.mode, corpus, results }, null, 2));
  } finally {
    await service.stop();
    if (rendered) rmSync(rendered, { recursive: true, force: true });
  }
}

await run();
