import { INK, type GrayBitmap } from './bitmap.js';

/**
 * Table rules (the ruled lines of boxed tables and totals) removed before OCR.
 * Tesseract's layout analysis takes a vertical rule beside a word for a letter
 * ("|Luftballon", "119%") and a row boxed on all sides for a picture, whose text
 * it then reads as noise; invoices print their line items in exactly such
 * boxes. Whatever runs dark and unbroken for longer than any letter does, along
 * a row or a column, is paper again afterwards.
 *
 * A scan is slightly skewed, so a rule wanders across rows: runs are measured
 * over a band of three rows (or columns), which follows a rule slanted by up to
 * about 1.5° over the minimum length.
 */

/** A rule is thinner than this (px); ink this far on both sides of a run makes it part of a filled area (a logo, a shaded bar), where text on one side does not. */
const MAX_THICKNESS = 7;

/** A scanned rule is a dark core in a grey fringe: this far (px) beside a found rule, anything not paper goes too. */
const FRINGE = 3;
const PAPER = 215;

/** Shortest rule, as a share of the page's width (horizontal) or height (vertical): about 9 mm on A4. */
const MIN_RULE_SHARE = 0.04;

export function removeRules(bitmap: GrayBitmap): GrayBitmap {
  const { width: w, height: h } = bitmap;
  const data = new Uint8Array(bitmap.data);
  const ink = new Uint8Array(w * h);
  for (let i = 0; i < ink.length; i++) ink[i] = bitmap.data[i]! < INK ? 1 : 0;
  // Both directions are found on the original ink, then erased together: a crossing stays found both ways.
  const erase = new Uint8Array(w * h);
  markRuns(bitmap.data, ink, erase, w, h, Math.max(40, Math.round(w * MIN_RULE_SHARE)), 1, w);
  markRuns(bitmap.data, ink, erase, h, w, Math.max(40, Math.round(h * MIN_RULE_SHARE)), w, 1);
  for (let i = 0; i < data.length; i++) if (erase[i]) data[i] = 255;
  return { width: w, height: h, data };
}

/**
 * Marks ink that belongs to long runs along one direction. `along` is the
 * stride between neighbours on a run, `across` between neighbouring runs;
 * `length` and `lines` are their counts.
 */
function markRuns(
  gray: Uint8Array,
  ink: Uint8Array,
  erase: Uint8Array,
  length: number,
  lines: number,
  minRun: number,
  along: number,
  across: number,
): void {
  for (let l = 0; l < lines; l++) {
    const base = l * across;
    const prev = l > 0 ? base - across : base;
    const next = l < lines - 1 ? base + across : base;
    let start = -1;
    for (let k = 0; k <= length; k++) {
      const o = k * along;
      const banded = k < length && (ink[base + o]! | ink[prev + o]! | ink[next + o]!) === 1;
      if (banded && start < 0) start = k;
      if (!banded && start >= 0) {
        if (k - start >= minRun && !solid(ink, l, start, k, lines, along, across)) {
          for (let j = start; j < k; j++) {
            if (!ink[base + j * along]) continue;
            for (let d = -FRINGE; d <= FRINGE; d++) {
              const m = l + d;
              if (m >= 0 && m < lines && gray[m * across + j * along]! < PAPER) erase[m * across + j * along] = 1;
            }
          }
        }
        start = -1;
      }
    }
  }
}

/** Whether the run from `from` to `to` on line `l` lies inside a filled area rather than being a thin rule. */
function solid(ink: Uint8Array, l: number, from: number, to: number, lines: number, along: number, across: number): boolean {
  const samples = 16;
  let filled = 0;
  for (let i = 0; i < samples; i++) {
    const k = from + Math.floor(((i + 0.5) * (to - from)) / samples);
    const above = l - MAX_THICKNESS;
    const below = l + MAX_THICKNESS;
    if (above >= 0 && ink[above * across + k * along] && below < lines && ink[below * across + k * along]) filled++;
  }
  return filled > samples / 2;
}
