import type { Element, Node } from '@xmldom/xmldom';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { PDFArray, PDFDict, PDFDocument, PDFName, PDFRawStream, decodePDFRawStream, type PDFHexString, type PDFString } from 'pdf-lib';
import type { PageText } from '../../src/reading/page-text.js';
import { countryOfLine, currenciesIn, unitCode } from '../../src/analysis/codes.js';
import { compactDate, scanDates } from '../../src/analysis/dates.js';
import { scanNumbers } from '../../src/analysis/numbers.js';
import { textKey } from '../../src/analysis/text.js';
import { Decimal } from '../../src/invoice/decimal.js';
import { invoiceSchema, type Invoice } from '../../src/invoice/model.js';
import { migrateZugferd1 } from '../../src/pdf/zugferd1.js';
import { ciiDocument } from '../../src/xml/cii.js';
import { parseUntrustedXml } from '../../src/xml/dom.js';
import { describesRoot, parseXml } from '../../src/xml/engine.js';
import { ublCreditNoteDocument, ublInvoiceDocument } from '../../src/xml/ubl.js';

/**
 * The ground truth of the benchmark corpus (../shared/corpus), shared by the
 * benchmarks that judge what the service reads from a page: the invoice a
 * ZUGFeRD / Factur-X PDF carries as XML, the golden JSON of the plain PDFs, and
 * what a page visibly shows, since a value the page never prints cannot be
 * read from it.
 */

/** The groups whose PDFs carry their invoice as embedded XML. */
export const ZUGFERD_GROUPS = ['zugferd-1.0', 'zugferd-2.1', 'factur-x-fr', 'zugferd-other'] as const;

export interface CorpusItem {
  group: string;
  file: string;
  truth: () => Promise<Invoice | undefined>;
  golden?: Golden;
}

/** The PDFs of these groups, then the plain PDFs that have golden JSON, each with its truth. */
export function corpusItems(corpus: string, groups: readonly string[]): CorpusItem[] {
  const items: CorpusItem[] = [];
  for (const group of groups) {
    const dir = path.join(corpus, group);
    if (!existsSync(dir)) continue;
    for (const f of readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith('.pdf'))
      .sort()) {
      const file = path.join(dir, f);
      items.push({
        group,
        file,
        truth: async () => {
          const xml = (await embeddedFiles(readFileSync(file))).find((e) => /\.xml$/i.test(e.name));
          // Broken XML (the invalid/ folder has some) is no ground truth.
          return xml ? catching(() => truthOf(xml.data)) : undefined;
        },
      });
    }
  }
  const goldenDir = path.join(corpus, 'plain-pdf-golden');
  if (existsSync(goldenDir)) {
    for (const f of readdirSync(goldenDir)
      .filter((n) => n.endsWith('.pdf'))
      .sort()) {
      const jsonPath = path.join(goldenDir, f.replace(/\.pdf$/, '.json'));
      if (!existsSync(jsonPath)) continue;
      const golden = (JSON.parse(readFileSync(jsonPath, 'utf8')) as Golden[])[0]!;
      items.push({ group: 'plain-pdf-golden', file: path.join(goldenDir, f), truth: async () => goldenInvoice(golden), golden });
    }
  }
  return items;
}

function catching<T>(f: () => T): T | undefined {
  try {
    return f();
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- embedded XML

/** The embedded files of a PDF (EmbeddedFiles name tree), by name. */
export async function embeddedFiles(bytes: Uint8Array): Promise<Array<{ name: string; data: string }>> {
  const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
  const names = doc.catalog.lookupMaybe(PDFName.of('Names'), PDFDict);
  const tree = names?.lookupMaybe(PDFName.of('EmbeddedFiles'), PDFDict);
  const out: Array<{ name: string; data: string }> = [];
  const walk = (node: PDFDict) => {
    const arr = node.lookupMaybe(PDFName.of('Names'), PDFArray);
    for (let i = 0; arr && i + 1 < arr.size(); i += 2) {
      const name = (arr.lookup(i) as PDFString | PDFHexString).decodeText();
      const ef = arr.lookup(i + 1, PDFDict).lookupMaybe(PDFName.of('EF'), PDFDict);
      const stream = ef?.lookup(PDFName.of('F'));
      if (stream instanceof PDFRawStream) out.push({ name, data: Buffer.from(decodePDFRawStream(stream).decode()).toString('utf8') });
    }
    const kids = node.lookupMaybe(PDFName.of('Kids'), PDFArray);
    for (let i = 0; kids && i < kids.size(); i++) walk(kids.lookup(i, PDFDict));
  };
  if (tree) walk(tree);
  return out;
}

/**
 * ZUGFeRD 1.0's code list has only 84, 380 and 389 for the kind of document: it codes a
 * correction 380 and says what the document is in its name ("RECHNUNGS-KORREKTUR"). The names of
 * the truths read from such XMLs, for the judges to tell the code list's limit from a wrong reading.
 */
const ZUGFERD1_NAMES = new WeakMap<Invoice, string>();

/** The document name of a truth read from a ZUGFeRD 1.0 XML; undefined for other syntaxes. */
export function zugferd1DocumentName(truth: Invoice): string | undefined {
  return ZUGFERD1_NAMES.get(truth);
}

/** A truth read back from JSON (held-out readings), with the ZUGFeRD 1.0 name written beside it. */
export function withZugferd1Name(truth: Invoice, name: string | undefined): Invoice {
  if (name) ZUGFERD1_NAMES.set(truth, name);
  return truth;
}

/** The invoice of an XML, dropping single values the model refuses (sample files have impossible dates such as 2013-91-02). */
export function truthOf(xml: string): Invoice | undefined {
  const text = xml.replace(/^\uFEFF/, '');
  const zugferd1 = text.includes('urn:ferd:CrossIndustryDocument');
  const root = parseUntrustedXml(zugferd1 ? migrateZugferd1(text) : text);
  const doc = [ciiDocument, ublInvoiceDocument, ublCreditNoteDocument].find((d) => describesRoot(d, root));
  if (!doc) return undefined;
  const truth = validModel(parseXml(doc, root));
  return truth && withZugferd1Name(truth, zugferd1 ? documentNameOf(root) : undefined);
}

function documentNameOf(root: Element): string | undefined {
  const child = (el: Element | undefined, name: string) =>
    el && Array.from(el.childNodes as ArrayLike<Node>).find((n): n is Element => n.nodeType === 1 && (n as Element).localName === name);
  return child(child(root, 'ExchangedDocument'), 'Name')?.textContent?.trim() || undefined;
}

function validModel(model: unknown): Invoice | undefined {
  for (let i = 0; i < 50; i++) {
    const r = invoiceSchema.safeParse(model);
    if (r.success) return r.data;
    for (const issue of r.error.issues) {
      let node = model as Record<string | number, unknown>;
      for (const k of issue.path.slice(0, -1)) node = node[k as string] as Record<string | number, unknown>;
      delete node[issue.path.at(-1) as string];
    }
  }
  return undefined;
}

/** Reads `a.b[0].c` from an object. */
export function getPath(target: unknown, path: string): string | undefined {
  let node = target as Record<string, unknown> | undefined;
  for (const part of path.split('.')) {
    const m = /^(\w+)\[(\d+)\]$/.exec(part);
    node = (m ? (node?.[m[1]!] as unknown[] | undefined)?.[Number(m[2])] : node?.[part]) as Record<string, unknown> | undefined;
  }
  return typeof node === 'string' ? node : undefined;
}

// ---------------------------------------------------------------- golden JSON

export interface Golden {
  invoice_number?: string;
  date?: string;
  date_due?: string;
  amount?: number;
  amount_untaxed?: number;
  amount_tax?: number;
  currency?: string;
  vat?: string;
  iban?: string;
  bic?: string;
  issuer?: string;
  partner_name?: string;
  lines?: Array<{
    name?: string;
    desc?: string;
    qty?: number;
    price_unit?: number | string;
    price?: number;
    price_subtotal?: number;
    line_tax_percent?: number;
  }>;
}

/** The golden JSON as an Invoice, so the same comparison applies. */
export function goldenInvoice(g: Golden): Invoice {
  const amount = (n: number | string | undefined) => (n === undefined ? undefined : new Decimal(n).toFixed(2));
  return {
    ...(g.invoice_number ? { invoiceNumber: g.invoice_number } : {}),
    ...(g.date ? { invoiceIssueDate: g.date } : {}),
    ...(g.date_due ? { paymentDueDate: g.date_due } : {}),
    ...(g.currency ? { invoiceCurrencyCode: g.currency } : {}),
    ...(g.issuer || g.vat
      ? { seller: { ...(g.issuer ? { sellerName: g.issuer } : {}), ...(g.vat ? { sellerVatIdentifier: g.vat.replace(/\s+/g, '') } : {}) } }
      : {}),
    ...(g.iban && /^[A-Z]{2}\d{2}/.test(g.iban)
      ? {
          paymentInstructions: {
            creditTransfer: [
              {
                paymentAccountIdentifier: g.iban,
                ...(g.bic && /^[A-Z]{6}/.test(g.bic) ? { paymentServiceProviderIdentifier: g.bic } : {}),
              },
            ],
          },
        }
      : {}),
    documentTotals: {
      ...(g.amount !== undefined ? { invoiceTotalAmountWithVat: amount(g.amount)! } : {}),
      ...(g.amount_untaxed !== undefined ? { invoiceTotalAmountWithoutVat: amount(g.amount_untaxed)! } : {}),
      ...(g.amount_tax !== undefined ? { invoiceTotalVatAmount: amount(g.amount_tax)! } : {}),
    },
    invoiceLine: (g.lines ?? [])
      .filter((l) => l.name !== undefined || l.desc !== undefined)
      .map((l) => ({
        itemInformation: { itemName: (l.name ?? l.desc ?? '').split('\n')[0]! },
        ...(l.qty !== undefined ? { invoicedQuantity: String(l.qty) } : {}),
        ...(l.price_unit !== undefined || l.price !== undefined
          ? { priceDetails: { itemNetPrice: amount(l.price_unit ?? l.price)! } }
          : {}),
        ...(l.price_subtotal !== undefined ? { invoiceLineNetAmount: amount(l.price_subtotal)! } : {}),
        ...(l.line_tax_percent !== undefined ? { lineVatInformation: [{ invoicedItemVatRate: String(l.line_tax_percent) }] } : {}),
      })),
  };
}

// ---------------------------------------------------------------- what the page shows

/** `wrapped`: text a narrow column may break over several lines (an item's name). */
export type Kind = 'text' | 'wrapped' | 'id' | 'date' | 'amount' | 'code' | 'country' | 'currency' | 'unit';

/** What the page shows, prepared for "is this value visible at all" questions. */
export interface Visible {
  key: string;
  /** The page's text as printed, spacing collapsed, case kept. */
  printed: string;
  /** The text keys of the page's words, for text broken over lines. */
  words: Set<string>;
  compact: string;
  amounts: Set<string>;
  dates: Set<string>;
  currencies: Set<string>;
  countries: Set<string>;
  /** Unit codes some printed word stands for ("Stk" → C62). */
  units: Set<string>;
}

export function visibleOf(pages: PageText[]): Visible {
  const lines = pages.flatMap((p) => groupLines(p));
  const all = lines.join('\n');
  const amounts = new Set<string>();
  for (const l of lines)
    for (const mark of [',', '.'] as const)
      for (const n of scanNumbers(l, mark)) amounts.add(new Decimal(n.value).abs().toDecimalPlaces(2).toFixed(2));
  const dates = new Set<string>();
  for (const l of lines) for (const order of ['DMY', 'MDY'] as const) for (const d of scanDates(l, order)) dates.add(d.iso);
  // Eight digits are a date only where a label announces it, which this check does not look for: any that the calendar accepts.
  for (const w of pages.flatMap((p) => p.words)) {
    const compact = compactDate(w.text);
    if (compact) dates.add(compact);
  }
  const countries = new Set<string>();
  for (const l of lines) {
    for (const part of l.split(/\s{2,}|,|\s[-–·•●|]\s/)) {
      const c = countryOfLine(part);
      if (c) countries.add(c);
    }
    for (const m of l.matchAll(/(?<![A-Za-z])([A-Z]{1,2})[- ]\d{4,5}\b/g))
      countries.add(
        m[1]!.length === 1 ? (({ D: 'DE', A: 'AT', F: 'FR', B: 'BE', L: 'LU' } as Record<string, string>)[m[1]!] ?? '') : m[1]!,
      );
  }
  const units = new Set<string>();
  for (const w of pages.flatMap((p) => p.words)) {
    const u = unitCode(w.text);
    if (u) units.add(u);
  }
  return {
    key: textKey(all),
    printed: all.replace(/\s+/g, ' '),
    words: new Set(all.split(/\s+/).map(textKey)),
    compact: all.replace(/\s+/g, '').toUpperCase(),
    amounts,
    dates,
    currencies: new Set(currenciesIn(all)),
    countries,
    units,
  };
}

/** Words of a page as rough lines (for the visibility check only; the analysis has its own layout). */
function groupLines(p: PageText): string[] {
  const words = [...p.words].sort((a, b) => a.y - b.y || a.x - b.x);
  const out: string[][] = [];
  let y = -Infinity;
  for (const w of words) {
    if (Math.abs(w.y - y) > w.height * 0.5) {
      out.push([]);
      y = w.y;
    }
    out.at(-1)!.push(w.text);
  }
  return out.map((l) => l.join(' '));
}

export function isVisible(kind: Kind, truth: string, v: Visible): boolean {
  switch (kind) {
    case 'amount':
      return v.amounts.has(new Decimal(truth).abs().toDecimalPlaces(2).toFixed(2));
    case 'date':
      return v.dates.has(truth);
    case 'text':
      return v.key.includes(textKey(truth));
    case 'wrapped':
      return v.key.includes(textKey(truth)) || truth.split(/\s+/).every((w) => v.words.has(textKey(w)));
    case 'id':
      return v.compact.includes(truth.replace(/\s+/g, '').toUpperCase());
    case 'currency':
      return v.currencies.has(truth);
    case 'country':
      return v.countries.has(truth);
    case 'unit':
      return v.units.has(truth);
    case 'code':
      return true;
  }
}

/** A page whose number, date or gross total differs from its XML shows another invoice (or another version of it) than the truth describes. */
const PAGE_AGREES: Array<{ bt: string; path: string; kind: Kind }> = [
  { bt: 'BT-1', path: 'invoiceNumber', kind: 'id' },
  { bt: 'BT-2', path: 'invoiceIssueDate', kind: 'date' },
  { bt: 'BT-112', path: 'documentTotals.invoiceTotalAmountWithVat', kind: 'amount' },
];

/** The values of PAGE_AGREES that the truth lacks or the page does not show: empty when page and XML describe the same invoice. */
export function notOnPage(truth: Invoice, vis: Visible): string[] {
  return PAGE_AGREES.filter((f) => {
    const value = getPath(truth, f.path);
    return value === undefined || !isVisible(f.kind, value, vis);
  }).map((f) => `${f.bt} ${getPath(truth, f.path) === undefined ? 'not in the XML' : 'not on the page'}`);
}

// ---------------------------------------------------------------- corpus-wild

/**
 * The invoices of ../shared/corpus-wild: one folder per repository they come from, which is
 * the fold a leave-one-repository-out figure leaves out. A PDF's truth is the XML it carries,
 * or the invoice beside it as JSON (the UBL-as-JSON form of gflohr/e-invoice-eu).
 */
export function wildItems(wild: string): CorpusItem[] {
  if (!existsSync(wild)) return [];
  const items: CorpusItem[] = [];
  for (const repo of readdirSync(wild, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()) {
    const dir = path.join(wild, repo);
    for (const f of readdirSync(dir)
      .filter((n) => n.toLowerCase().endsWith('.pdf'))
      .sort()) {
      const file = path.join(dir, f);
      const beside = file.replace(/\.pdf$/i, '.json');
      items.push({
        group: `wild/${repo}`,
        file,
        truth: async () => {
          if (existsSync(beside)) return catching(() => truthOf(ublJsonToXml(JSON.parse(readFileSync(beside, 'utf8')) as JsonNode)));
          const xml = (await embeddedFiles(readFileSync(file))).find((e) => /\.xml$/i.test(e.name));
          return xml ? catching(() => truthOf(xml.data)) : undefined;
        },
      });
    }
  }
  return items;
}

/**
 * Invoices rendered by software we did not write (scripts/render-foreign.sh): one folder per
 * renderer, which is its fold; each PDF is judged by the XML beside it that it was rendered from.
 */
export function renderedItems(dir: string): CorpusItem[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name)
    .sort()
    .flatMap((renderer) =>
      readdirSync(path.join(dir, renderer))
        .filter((n) => n.endsWith('.pdf') && existsSync(path.join(dir, renderer, n.replace(/\.pdf$/, '.xml'))))
        .sort()
        .map((n) => {
          const file = path.join(dir, renderer, n);
          return {
            group: `rendered/${renderer}`,
            file,
            truth: async () => catching(() => truthOf(readFileSync(file.replace(/\.pdf$/, '.xml'), 'utf8'))),
          };
        }),
    );
}

type JsonNode = string | number | boolean | JsonNode[] | { [key: string]: JsonNode };

const UBL_NAMESPACES: Readonly<Record<string, string>> = {
  cac: 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
};

/** `{"ubl:Invoice": {"cbc:ID": "1", "cbc:ID@schemeID": "0088", "cac:X": [...]}}` as the UBL document it stands for. */
export function ublJsonToXml(json: JsonNode): string {
  const [rootKey, body] = Object.entries(json as Record<string, JsonNode>)[0]!;
  const local = rootKey.replace(/^ubl:/, '');
  const ns = `urn:oasis:names:specification:ubl:schema:xsd:${local}-2`;
  const decls = Object.entries(UBL_NAMESPACES)
    .map(([p, uri]) => ` xmlns:${p}="${uri}"`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?><${local} xmlns="${ns}"${decls}>${childrenXml(body)}</${local}>`;
}

const escapeXml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

function childrenXml(node: JsonNode): string {
  if (typeof node !== 'object' || Array.isArray(node)) return escapeXml(String(node));
  const entries = Object.entries(node);
  return entries
    .filter(([key]) => !key.includes('@'))
    .map(([key, value]) => {
      const attrs = entries
        .filter(([k]) => k.startsWith(`${key}@`))
        .map(([k, v]) => ` ${k.slice(key.length + 1)}="${escapeXml(String(v))}"`)
        .join('');
      return (Array.isArray(value) ? value : [value]).map((v) => `<${key}${attrs}>${childrenXml(v)}</${key}>`).join('');
    })
    .join('');
}
