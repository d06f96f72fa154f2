import { buildDoc, type Doc, type Found } from './document.js';
import { findHeaderFields } from './header-fields.js';
import type { TotalField } from './lexicon.js';
import type { PageText } from './page-text.js';
import { solveTotals } from './solver.js';
import { findLineItems } from './table.js';
import { findTotals } from './totals.js';

/**
 * Where a scanned page's reading is in doubt, so that the OCR may read that
 * part again in another way. The doubt is what the invoice itself says is
 * wrong: the EN 16931 sums of the totals do not hold (net + VAT = gross, the
 * breakdown adds up), or a total or the invoice number was not read at all.
 * `severity` counts what is wrong, so that a second reading is kept only when
 * it leaves less of it.
 */
export interface Doubt {
  reason: 'totals' | 'invoice-number';
  /** The band of a page to read again, in the page's unit; none when nothing on a scanned page belongs to the doubt. */
  band?: { page: number; top: number; bottom: number };
  severity: number;
}

/** The three totals a reader checks first; each read and consistent with the others is one doubt fewer. */
const CHECKED: readonly TotalField[] = ['netTotal', 'vatTotal', 'grossTotal'];
/** Totals whose printed position marks where the totals block is. */
const PLACED: readonly TotalField[] = ['lineTotal', 'netTotal', 'vatTotal', 'grossTotal', 'due'];
/** Lines of margin above and below the candidates: labels print on the line above an amount in some layouts. */
const MARGIN_LINES = 2.5;
/** Where no invoice number was found at all: it is printed in the upper part of the first page. */
const UPPER_PART = 0.45;

/**
 * How much of the line-item table a reading gives: the quantity, price and
 * amount cells of its rows, and each row whose quantity × price = amount
 * holds. A second reading of a band that reaches into the table must not
 * give less of it, whatever it does for the totals.
 */
export function itemCells(pages: PageText[]): number {
  return findLineItems(buildDoc(pages)).rows.reduce(
    (n, row) => n + [row.quantity, row.unitPrice, row.amount].filter((c) => c !== undefined).length + (row.arithmetic === true ? 1 : 0),
    0,
  );
}

/** Doubts about the pages read by OCR (a text layer is never in doubt: reading it again gives the same). */
export function readingDoubts(pages: PageText[]): Doubt[] {
  const scanned = new Set(pages.filter((p) => p.source === 'ocr').map((p) => p.page));
  if (scanned.size === 0) return [];
  const doc = buildDoc(pages);
  return [totalsDoubt(doc, scanned), numberDoubt(doc, scanned)].filter((d): d is Doubt => d !== undefined);
}

function totalsDoubt(doc: Doc, scanned: ReadonlySet<number>): Doubt | undefined {
  const table = findLineItems(doc);
  const totals = findTotals(doc, table.lines);
  const rowsComplete = totals.openRates.every((o) => totals.vatRows.some((r) => r.rate === o.rate));
  const solved = solveTotals(totals.fields, totals.vatRows, table.lineSum, rowsComplete);
  const severity = CHECKED.filter((f) => solved.support[f] !== 'label').length;
  if (severity === 0) return undefined;
  // Without any total printed on a scanned page there is no band to read again (a continuation page, or no invoice), but the doubt stays.
  const placed = PLACED.flatMap((f) => totals.fields.get(f) ?? []).filter((f) => scanned.has(f.page));
  const band = bandOf(doc, placed);
  return { reason: 'totals', ...(band ? { band } : {}), severity };
}

function numberDoubt(doc: Doc, scanned: ReadonlySet<number>): Doubt | undefined {
  if (findHeaderFields(doc).get('invoiceNumber')?.length) return undefined;
  const first = doc.pages[0]!;
  if (!scanned.has(first.page)) return undefined;
  return { reason: 'invoice-number', band: { page: first.page, top: 0, bottom: UPPER_PART * first.height }, severity: 1 };
}

/** The band around the candidates on the page that holds most of them (the later page on a tie). */
function bandOf(doc: Doc, found: Found[]): Doubt['band'] {
  if (found.length === 0) return undefined;
  const counts = new Map<number, number>();
  for (const f of found) counts.set(f.page, (counts.get(f.page) ?? 0) + 1);
  const page = [...counts.entries()].sort((a, b) => b[1] - a[1] || b[0] - a[0])[0]![0];
  const layout = doc.pages.find((p) => p.page === page)!;
  const ys = found.filter((f) => f.page === page).map((f) => f.y);
  const margin = MARGIN_LINES * lineHeight(doc, page);
  return { page, top: Math.max(0, Math.min(...ys) - margin), bottom: Math.min(layout.height, Math.max(...ys) + margin) };
}

/** The page's median line height: the unit of its spacing. */
function lineHeight(doc: Doc, page: number): number {
  const heights = doc.pages.find((p) => p.page === page)!.lines.map((l) => l.height).sort((a, b) => a - b);
  return heights[Math.floor(heights.length / 2)] ?? 0;
}
