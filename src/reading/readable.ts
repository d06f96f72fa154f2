import type { Word } from './page-text.js';

/**
 * Whether a page's words are text a reader could use. A scanned page often
 * carries a stray text object (a stamp, a scanner footer), and PDFs whose fonts
 * lack a Unicode map yield control or private-use characters: both are pages to
 * OCR, not to read. A blank or noisy image gives OCR crumbs of the same kind.
 */
const MIN_WORDS = 3;
/** Share of characters that are letters, digits or ordinary punctuation. */
const MIN_PLAIN_SHARE = 0.7;
/** Below this tesseract is guessing; such words do not make a page readable. */
const MIN_OCR_CONFIDENCE = 0.5;

const PLAIN = /[\p{L}\p{N}\p{Sc}.,:;!?%&@#()/+\-*'"°§€$£=_<>[\]]/u;
const ALPHANUMERIC = /[\p{L}\p{N}]/gu;

export function isReadable(words: readonly Word[]): boolean {
  const real = words.filter((w) => (w.confidence ?? 1) >= MIN_OCR_CONFIDENCE && (w.text.match(ALPHANUMERIC)?.length ?? 0) >= 2);
  if (real.length < MIN_WORDS) return false;
  const chars = [...words.map((w) => w.text).join('')];
  return chars.filter((c) => PLAIN.test(c)).length / chars.length >= MIN_PLAIN_SHARE;
}
