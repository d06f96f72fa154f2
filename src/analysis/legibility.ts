import type { Doc } from './document.js';
import type { Word } from '../reading/page-text.js';
import { stringAt } from '../invoice/paths.js';
import { DIACRITIC_STEMS, DIACRITIC_WORDS } from './lexicon.js';
import { fold } from './text.js';

/**
 * How well the recogniser could read a value: the mean OCR confidence of the words in the
 * value's box that spell it. Letters guessed at low confidence are the usual source of a
 * wrong name or city on a scan ("Malaucene", "QualitvHastinn AG", a logo read as "nn ee"), so
 * such readings are calibrated apart (evidence `…:blurred`) and get the share of right values
 * that readings as blurred had on the held-out scans.
 */

/** The evidence suffix of a blurred reading. */
export const BLURRED = ':blurred';

/**
 * The evidence suffix of a text read from a scan without its diacritics: "Untertanigster
 * Leistungsempfanger" for "Untertänigster Leistungsempfänger", read at a word confidence of 0.92
 * all the same.
 */
export const PLAIN_LETTERS = ':plain-letters';

/**
 * The evidence suffix of a text read from a scan with a sign inside a word that words do not
 * carry ("LINE-GD@anic Tea Leaves" for "Organic Tea Leaves", "MUSTER~KUNDE GMBH"), or ending in
 * a comma, where no name or address ends ("Acme Ltd," for "Acme Ltd."): the recogniser made
 * signs up there, whatever its confidence in the other words.
 */
export const GARBLED = ':garbled';
/**
 * The evidence suffix of a text holding a glyph the PDF names by no letter: a private-use code in
 * the text layer, as fonts give their "ft" ligature ("Privatha\uE000pflicht" for "Privathaftpflicht",
 * "Bau Au\uE000raggeber"). Which letters the page shows there, only the page tells.
 */
export const UNNAMED_GLYPH = ':unnamed-glyph';
const PRIVATE_USE = /[\uE000-\uF8FF]/u;
const GARBLING_SIGN = /[\p{L}\d][@|{}<>\\~^©¢][\p{L}\d]|[@|{}<>\\~^©¢]\p{L}{2}/u;
const ADDRESS = /^\S+@\S+\.\S+$|^(?:https?:\/\/|www\.)/i;
/**
 * A reason citing a law whose section sign the scan misread: "nach $4 Nr. 14 UStG", "nach 819
 * UStG" for "§4 …" and "§19 UStG". A German law is cited by its "§", and a reason carries no
 * dollar amount.
 */
const REASONED = /(?:Reason|Text)$/;
const MISREAD_SECTION = (text: string) => /\$\s?\d/.test(text) || (/\bUStG\b/.test(text) && !text.includes('§'));

/** Below this mean word confidence, a reading counts as blurred. */
const LEGIBLE = 0.8;

const meanConfidence = (words: readonly Word[]) => words.reduce((sum, w) => sum + (w.confidence ?? 1), 0) / words.length;

export interface Box {
  page: number;
  top: number;
  bottom: number;
  x0: number;
  x1: number;
}

/**
 * Mean confidence of the OCR words in the box whose text is one of the value's words; where the
 * box holds none (a name completed from elsewhere on the page), of the words of the lines that
 * print the value. Undefined on text layers or where the value is not found.
 */
export function legibilityOf(doc: Doc, box: Box, value: string): number | undefined {
  const words = legibleWords(doc, box, value);
  return words.length ? meanConfidence(words) : undefined;
}

/** The OCR words legibilityOf weighs; none on a text layer. */
export function legibleWords(doc: Doc, box: Box, value: string): Word[] {
  if (doc.source !== 'ocr') return [];
  const page = doc.pages.find((p) => p.page === box.page);
  if (!page) return [];
  const spelling = spells(value);
  const inBox = page.lines
    .filter((l) => l.bottom >= box.top - l.height / 2 && l.top <= box.bottom + l.height / 2)
    .flatMap((l) =>
      l.segments.flatMap((s) => s.words.filter((w) => w.x + w.width >= box.x0 - l.height / 2 && w.x <= box.x1 + l.height / 2)),
    )
    .filter(spelling);
  const printing = value
    .split('\n')
    .map(fold)
    .flatMap((text) => doc.pages.flatMap((p) => p.lines.flatMap((l) => l.segments.filter((s) => fold(s.text).includes(text)))))
    .flatMap((s) => s.words.filter(spelling));
  return inBox.length ? inBox : printing;
}

/** Whether a word is one of the value's words. */
function spells(value: string): (w: Word) => boolean {
  const tokens = new Set(value.split(/\s+/).map(fold).filter(Boolean));
  return (w) => tokens.has(fold(w.text));
}

/** The words of a segment that spell the value (a part of the segment, or all of it). */
export function wordsSpelling(words: readonly Word[], value: string): Word[] {
  return words.filter(spells(value));
}

/** Mean OCR confidence below which short letter clusters are a logo, a stamp or a shaded box read as letters ("ES", "nn ee"). */
const ILLEGIBLE = 0.5;
/** At or below a third of certainty, words of any length are such noise ("rs Later tas"). */
const UNREADABLE = 0.35;

/**
 * Low confidence alone does not make noise (a name in a display font reads badly too); short
 * letter clusters do, and words read at a third of certainty or less whatever their length.
 * Words of a text layer (no confidence) are never noise.
 */
export function isIllegible(words: readonly Word[]): boolean {
  if (words.length === 0) return false;
  const confidence = meanConfidence(words);
  return confidence < UNREADABLE || (confidence < ILLEGIBLE && words.every((w) => w.text.length <= 4));
}

/**
 * The evidence suffix of an amount due the analysis worked out as the gross total, less nothing
 * paid, where a page of the scan read as noise: a prepaid amount printed there ("Zahlbetrag
 * 521,91" under a gross of 1021,91) was never read.
 */
export const UNREAD_PAGE = ':page-unread';
/** A page this many segments long, at least half of them noise, was not read: a stamp or a logo is a few. */
const UNREAD_PAGE_SEGMENTS = 20;

export function hasUnreadPage(doc: Doc): boolean {
  return doc.pages.some((p) => {
    const segments = p.lines.flatMap((l) => l.segments);
    return segments.length >= UNREAD_PAGE_SEGMENTS && 2 * segments.filter((s) => isIllegible(s.words)).length >= segments.length;
  });
}

/**
 * How surely a scan read a text's words: `garbled` where one of them is read at under half
 * certainty (the recogniser made it up: "Se" for "Processing" at 0.12, "a" for "Applied:"),
 * `blurred` where their mean is below legible; nothing for a text layer's.
 */
export function legibilityMark(words: readonly Word[]): typeof GARBLED | typeof BLURRED | undefined {
  if (!words.some((w) => w.confidence !== undefined)) return undefined;
  if (words.some((w) => (w.confidence ?? 1) < ILLEGIBLE)) return GARBLED;
  return meanConfidence(words) < LEGIBLE ? BLURRED : undefined;
}

/** The evidence of a value read from a box, marked where the recogniser was unsure of its letters. */
export function withLegibility(doc: Doc, box: Box, value: string | undefined, via: string): string {
  const legibility = value === undefined ? undefined : legibilityOf(doc, box, value);
  return legibility !== undefined && legibility < LEGIBLE ? `${via}${BLURRED}` : via;
}

/** Fields whose values are words as printed, whose letters a dropped diacritic changes (not codes, numbers or identifiers). */
const WORDED = /(?:Name|AddressLine\d|City|itemDescription|paymentTerms|Reason|Text)$/;

/** The words and stems as printed, each with its form without diacritics. */
const FOLDED_WORDS = DIACRITIC_WORDS.map((d) => [d, fold(d)] as const);
const FOLDED_STEMS = DIACRITIC_STEMS.map((d) => [d, fold(d)] as const);

/** Whether a word invoices print with diacritics was read with them; undefined for other words. */
function printedWithDiacritics(word: string): boolean | undefined {
  const plain = fold(word);
  const letters = plain.replace(/[^\p{L}]/gu, '');
  const found = FOLDED_WORDS.find(([, f]) => f === letters) ?? FOLDED_STEMS.find(([, f]) => plain.includes(f));
  return found === undefined ? undefined : word.includes(found[0]);
}

/**
 * A volume whose litre sign a scan may have read as a one ("12 x 1,01 PET", "20 x 0,51" for
 * "1,0l" and "0,5l"): a figure with a decimal comma that ends in a 1 after a digit reads alike
 * either way, and which it is the page does not settle.
 */
const LITRE_OR_ONE = /^\d+,\d{1,2}1$/;
const ITEM_TEXT = /item(?:Name|Description)$/;

/**
 * Marks the values that hold a glyph named by no letter, and the worded fields of a scan whose
 * letters the recogniser got wrong: a word invoices print with diacritics spelled without them
 * (dropped for that value, wherever else they were kept), a word with a sign no word carries, or
 * a figure whose last one may be a litre's l.
 */
export function markUnsureLetters(doc: Doc, invoice: Record<string, unknown>, evidence: Record<string, string>): void {
  for (const path of Object.keys(evidence)) {
    if (PRIVATE_USE.test(stringAt(invoice, path) ?? '')) evidence[path] = `${evidence[path]}${UNNAMED_GLYPH}`;
    else if (doc.source === 'ocr') markScanLetters(invoice, evidence, path);
  }
}

function markScanLetters(invoice: Record<string, unknown>, evidence: Record<string, string>, path: string): void {
  const words = WORDED.test(path) ? (stringAt(invoice, path)?.split(/\s+/) ?? []) : [];
  const garbled =
    words.some((w) => (GARBLING_SIGN.test(w) && !ADDRESS.test(w)) || (ITEM_TEXT.test(path) && LITRE_OR_ONE.test(w))) ||
    /[,;]$/.test(words.at(-1) ?? '') ||
    (REASONED.test(path) && MISREAD_SECTION(words.join(' ')));
  if (garbled) evidence[path] = `${evidence[path]}${GARBLED}`;
  else if (words.some((w) => printedWithDiacritics(w.toLowerCase()) === false)) evidence[path] = `${evidence[path]}${PLAIN_LETTERS}`;
}
