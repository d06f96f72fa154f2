import type { Invoice } from '../invoice/model.js';
import type { PageText } from '../reading/page-text.js';
import type { PartyModels } from './party-choice.js';
import type { FieldSource } from './sources.js';
import type { Place } from './where-read.js';

/** What the analysis takes besides the pages (src/reading) and what it gives back. */

export interface AnalyseOptions {
  /** Also read the line-item table (BG-25); header fields only when false. */
  withLineItems: boolean;
  /** The ranker weights for party names; the committed ones by default (the benchmark passes a fold's own). */
  partyModels?: PartyModels;
}

/** What the analysis read, with how much it trusts it. */
export interface AnalysisResult {
  /** Only the fields found; money as decimal strings, dates YYYY-MM-DD, codes normalised. */
  invoice: Invoice;
  /**
   * 0..1, calibrated on the corpus: among documents scored ≥ 0.9, about 90 % of the
   * returned fields are right.
   */
  extractionConfidence: number;
  /**
   * Per returned field, 0..1: the measured share of right values among fields read the same way.
   * Keyed by the field's path in `invoice`, with array indices (`documentTotals.invoiceTotalAmountWithVat`,
   * `invoiceLine[2].invoicedQuantity`, `vatBreakdown[0].vatCategoryRate`).
   */
  fieldConfidence: Record<string, number>;
  /** Per returned field: printed on the page, inferred from what is printed, or a default (src/analysis/sources.ts). */
  fieldSource: Record<string, FieldSource>;
  /** Per printed field found on the page unambiguously: its page and box (src/analysis/where-read.ts). */
  fieldPlace: Record<string, Place>;
  /**
   * Per field whose value a person may have to confirm (party names, item names, a type code), the other readings found,
   * likeliest first; also for a name left out because no reading was likely enough.
   */
  candidates?: Record<string, string[]>;
  /** The language most of the page is written in (de, en, fr, it, nl, es), when one clearly leads. */
  language?: string;
  /** Parts the page prints but the analysis could not read, by their EN 16931 id (BG-25: an item table whose rows were not read; BT-72: a delivery date labelled but not read). */
  unread?: string[];
}

/**
 * Implemented by `analyseInvoice` in `src/analysis/index.ts`; throws AnalysisError PDF_NO_TEXT
 * when no page has a word. Pure and synchronous: CPU only, no I/O.
 */
export type AnalyseInvoice = (pages: PageText[], opts: AnalyseOptions) => AnalysisResult;

/**
 * The one failure the analysis reports: nothing readable on any page (a scan without OCR,
 * or OCR that found nothing). The API maps `code` to its error envelope.
 */
export class AnalysisError extends Error {
  constructor(
    readonly code: 'PDF_NO_TEXT',
    message: string,
  ) {
    super(message);
    this.name = 'AnalysisError';
  }
}
