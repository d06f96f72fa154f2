/**
 * Text folding for matching labels: lower case, no diacritics, ß as ss, typographic
 * punctuation as ASCII. Labels in the lexicon are written against this form, so
 * "Fälligkeit", "FAELLIGKEIT" and "Fälligkeit" all meet "fallig"/"faellig" patterns.
 */
export function fold(text: string): string {
  return text
    .replace(/ß/g, 'ss')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/[\u2010-\u2015\u2212]/g, '-')
    .replace(/[\u2018\u2019\u201a\u201b\u2032]/g, "'")
    .replace(/[\u201c\u201d\u201e\u201f\u00ab\u00bb]/g, '"')
    .replace(/[\u00a0\u2000-\u200b\u202f]/g, ' ')
    .toLowerCase();
}

/** Collapses whitespace runs and trims; how extracted strings are returned. */
export function clean(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}

/** A comparison key for free text: folded, punctuation and whitespace dropped. */
export function textKey(text: string): string {
  return fold(text).replace(/[^\p{L}\p{N}]+/gu, '');
}

/**
 * Lines of one text wrapped by its box, whole again: a line that ends in a hyphen after a letter
 * and goes on with a capital breaks a hyphenated compound ("SEPA-" / "Lastschriftmandat"), which
 * goes on without a space; every other break is a space.
 */
export function joinWrapped(lines: readonly string[]): string {
  return lines.reduce((out, next) => (/\p{L}-$/u.test(out) && /^\p{Lu}/u.test(next) ? `${out}${next}` : `${out} ${next}`), '').trim();
}

/** Levenshtein distance: how many letters a scan must have misread, dropped or added to turn `a` into `b`. */
export function editDistance(a: string, b: string): number {
  let row = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const next = [i];
    for (let j = 1; j <= b.length; j++) next[j] = Math.min(row[j]! + 1, next[j - 1]! + 1, row[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    row = next;
  }
  return row[b.length]!;
}

/**
 * A word a scan may have misread one letter of: `read` is tried on every spelling with one letter
 * (a–z) changed. The reading counts only when every spelling that gives one gives the same.
 */
export function oneLetterMisread<T>(word: string, read: (spelling: string) => T | undefined): { value: T; spelling: string } | undefined {
  return onlyReading(oneLetterChanged(word), read);
}

function* oneLetterChanged(word: string): Generator<string> {
  for (let i = 0; i < word.length; i++)
    for (const c of 'abcdefghijklmnopqrstuvwxyz') if (c !== word[i]) yield `${word.slice(0, i)}${c}${word.slice(i + 1)}`;
}

/** The most letters `descendersLost` tries: each doubles the spellings it reads. */
const MAX_LOST_DESCENDERS = 5;

/**
 * A word a degraded scan read with the descenders of its g cut off, each "g" an "a"
 * ("Zahlunasbedinaunaen" for "Zahlungsbedingungen"): `read` is tried on every spelling with some
 * of its a's (after the first letter) read as g. As for oneLetterMisread, the reading counts only
 * when every spelling that gives one gives the same.
 */
export function descendersLost<T>(word: string, read: (spelling: string) => T | undefined): { value: T; spelling: string } | undefined {
  const at = [...word].flatMap((c, i) => (i > 0 && c === 'a' ? [i] : []));
  return at.length > MAX_LOST_DESCENDERS ? undefined : onlyReading(withGs(word, at), read);
}

function* withGs(word: string, at: number[]): Generator<string> {
  for (let mask = 1; mask < 1 << at.length; mask++) {
    const letters = [...word];
    at.forEach((i, k) => {
      if (mask & (1 << k)) letters[i] = 'g';
    });
    yield letters.join('');
  }
}

/** The one reading the spellings give, with the first spelling that gives it; undefined when none or two differ. */
function onlyReading<T>(
  spellings: Iterable<string>,
  read: (spelling: string) => T | undefined,
): { value: T; spelling: string } | undefined {
  let found: { value: T; spelling: string } | undefined;
  for (const spelling of spellings) {
    const value = read(spelling);
    if (value === undefined) continue;
    if (found && found.value !== value) return undefined;
    found ??= { value, spelling };
  }
  return found;
}
