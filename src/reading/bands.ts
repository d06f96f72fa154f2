import { grayHistogram, INK, type GrayBitmap } from './bitmap.js';

/**
 * A page cut into horizontal bands that tesseract reads side by side, one process a core, when
 * cores are idle: one process reads a page on one core, so a lone scan left the others unused
 * and took the whole page's time. Cuts go only through white space between text lines (rows
 * without ink across the whole width), where no word can be split, and are placed so that each
 * band holds about as much ink (text), which is what tesseract's time follows. A page without
 * such a gap near where a cut belongs, or whose bands tesseract would binarise unlike the page, stays whole.
 */

export interface Band {
  /** Where the band's first row lies on the page (above the page's first row where the band has a margin). */
  top: number;
  bitmap: GrayBitmap;
}

/** Rows with at most this many ink pixels per 1000 of width are white: a speck or two the despeckle left. */
const SPECKS_PER_MILLE = 1;
/** Narrowest gap to cut in (px at 300 dpi): wider than the space between the lines of a paragraph or a table (about half a line), so that a cut falls between sections, where tesseract reads each side as it would on the whole page. */
const MIN_GAP = 60;
/** Largest difference of a band's Otsu threshold from the page's (gray levels) for the band to be read like the page. */
const OTSU_TOLERANCE = 8;
/** White rows put above and below a band (px at 300 dpi: 5 mm). */
const MARGIN = 60;
/** How far from its ideal place (share of the page's ink) a cut may move to find a gap. */
const REACH = 0.25;

/** The page in at most `parts` bands of about equal ink, cut in white gaps; the whole page where no gap fits. */
export function splitIntoBands(page: GrayBitmap, parts: number): Band[] {
  const edges = [0, ...cutRows(inkPerRow(page), page.width, parts), page.height];
  const bands = edges.slice(0, -1).map((top, i) => rows(page, top, edges[i + 1]!));
  const threshold = otsuThreshold(page);
  const alike = bands.every((b) => Math.abs(otsuThreshold(b.bitmap) - threshold) <= OTSU_TOLERANCE);
  return bands.length > 1 && alike ? bands : [{ top: 0, bitmap: page }];
}

/**
 * Otsu's threshold of the gray levels: where tesseract splits ink from paper, once per image. A
 * band of mostly shaded table rows gets a threshold that makes the shading ink, and the text on
 * it is lost; such a page is read whole.
 */
export function otsuThreshold(page: GrayBitmap): number {
  const histogram = grayHistogram(page);
  const total = page.data.length;
  const sum = histogram.reduce((s, n, v) => s + n * v, 0);
  let below = 0;
  let sumBelow = 0;
  let best = { between: -1, at: 128 };
  for (let t = 0; t < 256; t++) {
    below += histogram[t]!;
    sumBelow += t * histogram[t]!;
    const above = total - below;
    if (below === 0 || above === 0) continue;
    const between = below * above * (sumBelow / below - (sum - sumBelow) / above) ** 2;
    if (between > best.between) best = { between, at: t };
  }
  return best.at;
}

export function inkPerRow(page: GrayBitmap): Uint32Array {
  const ink = new Uint32Array(page.height);
  for (let y = 0, i = 0; y < page.height; y++) {
    let n = 0;
    for (const end = i + page.width; i < end; i++) if (page.data[i]! < INK) n++;
    ink[y] = n;
  }
  return ink;
}

/** Rows to cut at, ascending: for each of the `parts - 1` cuts, the middle of the widest white gap within reach of its share of ink. */
export function cutRows(ink: Uint32Array, width: number, parts: number): number[] {
  const total = ink.reduce((s, n) => s + n, 0);
  if (parts < 2 || total === 0) return [];
  const before = new Float64Array(ink.length + 1);
  for (let y = 0; y < ink.length; y++) before[y + 1] = before[y]! + ink[y]!;
  const white = (y: number) => ink[y]! * 1000 <= SPECKS_PER_MILLE * width;
  const cuts: number[] = [];
  for (let k = 1; k < parts; k++) {
    const share = (y: number) => before[y]! / total;
    let best: { from: number; to: number } | undefined;
    for (let y = 0; y < ink.length; y++) {
      if (!white(y) || Math.abs(share(y) - k / parts) > REACH) continue;
      let to = y;
      while (to + 1 < ink.length && white(to + 1)) to++;
      if (to - y + 1 >= MIN_GAP && (!best || to - y > best.to - best.from)) best = { from: y, to };
      y = to;
    }
    const cut = best && Math.round((best.from + best.to) / 2);
    if (cut !== undefined && cut > (cuts.at(-1) ?? 0)) cuts.push(cut);
  }
  return cuts;
}

/**
 * Rows [top, bottom) of the page on white paper `MARGIN` rows deep above and below: tesseract
 * misreads or drops lines that touch the edge of its image, and a cut leaves the lines next to
 * it only half a gap from the edge.
 */
function rows(page: GrayBitmap, top: number, bottom: number): Band {
  const { width } = page;
  const data = new Uint8Array((bottom - top + 2 * MARGIN) * width).fill(255);
  data.set(page.data.subarray(top * width, bottom * width), MARGIN * width);
  return { top: top - MARGIN, bitmap: { width, height: bottom - top + 2 * MARGIN, data } };
}
