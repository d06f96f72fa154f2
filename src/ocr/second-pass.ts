import { itemCells, readingDoubts } from '../analysis/doubts.js';
import type { PageText, Word } from '../analysis/page-text.js';
import type { GrayBitmap } from './bitmap.js';
import type { Segmentation } from './tesseract-pool.js';

/**
 * A second reading of the parts of scanned pages where the invoice's own
 * arithmetic says the first one went wrong (src/analysis/doubts.ts): the band
 * of the page is read again with other page segmentations, and the new words
 * replace the old ones there only when less is then in doubt and no less of
 * the line-item table is read (a band around the totals often takes in the
 * table's last rows, which the first reading, as one column, reads whole; a
 * uniform block or sparse text may split them). A misread digit
 * in a total is found this way because net + VAT = gross holds for the right
 * reading and hardly ever for a wrong one.
 */

/** Tried in this order on a band in doubt: a uniform block (rows of a totals table stay whole), then sparse text. */
export const SECOND_READINGS: readonly Segmentation[] = ['block', 'sparse'];

export interface SecondPassOptions {
  /** The page's bitmap as the first pass read it. */
  render(page: number): Promise<GrayBitmap>;
  recognise(bitmap: GrayBitmap, segmentation: Segmentation): Promise<Word[]>;
}

export async function rereadDoubts(pages: PageText[], opts: SecondPassOptions): Promise<PageText[]> {
  let current = pages;
  let items: number | undefined;
  for (const doubt of readingDoubts(pages)) {
    if (!doubt.band) continue;
    const { page } = doubt.band;
    const bitmap = await opts.render(page);
    const top = Math.max(0, Math.floor(doubt.band.top));
    const bottom = Math.min(bitmap.height, Math.ceil(doubt.band.bottom));
    if (bottom - top < 2) continue;
    const band = rows(bitmap, top, bottom);
    for (const segmentation of SECOND_READINGS) {
      const words = (await opts.recognise(band, segmentation)).map((w) => ({ ...w, y: w.y + top }));
      const candidate = current.map((p) => (p.page === page ? replaceBand(p, words, top, bottom) : p));
      const left = readingDoubts(candidate).find((d) => d.reason === doubt.reason)?.severity ?? 0;
      items ??= itemCells(current);
      if (left < doubt.severity && itemCells(candidate) >= items) {
        current = candidate;
        items = undefined;
        break;
      }
    }
  }
  return current;
}

/** Rows `top` (inclusive) to `bottom` (exclusive) of the bitmap. */
export function rows(bitmap: GrayBitmap, top: number, bottom: number): GrayBitmap {
  return { width: bitmap.width, height: bottom - top, data: bitmap.data.slice(top * bitmap.width, bottom * bitmap.width) };
}

/**
 * The page with the words of the band [top, bottom) read anew. Near the band's
 * edges the new reading saw lines cut in half, so there the old words stay:
 * only words whose middle is at least a word's height inside are exchanged.
 */
export function replaceBand(page: PageText, words: Word[], top: number, bottom: number): PageText {
  const heights = words.map((w) => w.height).sort((a, b) => a - b);
  const edge = heights[Math.floor(heights.length / 2)] ?? 0;
  const inner = (w: Word) => {
    const middle = w.y + w.height / 2;
    return middle >= top + edge && middle < bottom - edge;
  };
  return { ...page, words: [...page.words.filter((w) => !inner(w)), ...words.filter(inner)] };
}
