import type { Invoice } from '../invoice/model.js';
import type { FieldSource } from '../analysis/sources.js';

/**
 * What reading a document gives: its pages as positioned words. The text-layer reader
 * (pdfjs-dist) and the OCR path both produce this shape, and the analysis only ever sees it.
 *
 * Coordinates: origin top-left, y grows downwards, in the page's own unit — PDF points
 * (1/72 in) for the text layer, pixels of the rendered image for OCR. `width` / `height`
 * of the page are in the same unit; the analysis measures everything relative to the
 * page size and to word heights, so either unit works.
 */
export interface Word {
  text: string;
  /** Left edge. */
  x: number;
  /** Top edge. */
  y: number;
  width: number;
  height: number;
  /** 0..1, OCR only */
  confidence?: number;
}

export interface PageText {
  /** 1-based page number. */
  page: number;
  width: number;
  height: number;
  /** Words in any order; the analysis sorts them into lines itself. */
  words: Word[];
  source: 'text-layer' | 'ocr';
}

/** Implemented by `extractTextLayer` in `src/reading/text-layer.ts` (pdfjs-dist): the PDF's own text, split into words. */
export type ExtractTextLayer = (pdfBytes: Uint8Array) => Promise<PageText[]>;
