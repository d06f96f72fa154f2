import { fold } from './text.js';

/**
 * Dates as invoices print them: 05.03.2018, 5.3.18, 2018-03-05, 03/05/2018 (either order),
 * "5. März 2018", "5 mars 2018", "March 5, 2018", "19 april 2014". Out come ISO strings.
 */

/** Order of day and month in numeric dates with slashes or dots. */
export type DayMonthOrder = 'DMY' | 'MDY';

export interface DateMatch {
  start: number;
  end: number;
  iso: string;
}

const MONTHS: ReadonlyArray<[number, string[]]> = [
  [1, ['januar', 'jan', 'january', 'janvier', 'janv', 'januari', 'jänner', 'janner', 'gennaio', 'gen']],
  [2, ['februar', 'feb', 'february', 'fevrier', 'fevr', 'fev', 'februari', 'febbraio']],
  [3, ['marz', 'maerz', 'mar', 'march', 'mars', 'maart', 'mrt', 'marzo']],
  [4, ['april', 'apr', 'avril', 'avr', 'aprile']],
  [5, ['mai', 'may', 'mei', 'maggio', 'mag']],
  [6, ['juni', 'jun', 'june', 'juin', 'giugno', 'giu']],
  [7, ['juli', 'jul', 'july', 'juillet', 'juil', 'luglio', 'lug']],
  [8, ['august', 'aug', 'aout', 'augustus', 'agosto', 'ago']],
  [9, ['september', 'sep', 'sept', 'septembre', 'settembre', 'set']],
  [10, ['oktober', 'okt', 'october', 'oct', 'octobre', 'ottobre', 'ott']],
  [11, ['november', 'nov', 'novembre']],
  [12, ['dezember', 'dez', 'december', 'dec', 'decembre', 'dicembre', 'dic']],
];
const MONTH_OF = new Map(MONTHS.flatMap(([n, names]) => names.map((name) => [fold(name), n] as const)));
const MONTH_NAME = [...MONTH_OF.keys()].sort((a, b) => b.length - a.length).join('|');

const NUMERIC = /(?<![\d.\/-])(\d{1,2})([./-])(\d{1,2})\2(\d{4}|\d{2})(?![\d]|[./-]\d)/g;
const ISO = /(?<![\d.\/-])(\d{4})([-/.])(\d{2})\2(\d{2})(?![\d]|[./-]\d)/g;
// "5. März 2018", "5 march 2018", "05-Mar-2018".
const DAY_MONTH_NAME = new RegExp(
  `(?<![\\p{L}\\d])(\\d{1,2})(?:er|st|nd|rd|th)?\\.?(?:\\s*|-)(${MONTH_NAME})\\.?,?(?:\\s+|-)(\\d{4})(?!\\d)`,
  'gu',
);
const MONTH_NAME_DAY = new RegExp(`(?<![\\p{L}])(${MONTH_NAME})\\.?\\s+(\\d{1,2})(?:st|nd|rd|th)?\\s*,?\\s*(\\d{4})(?!\\d)`, 'gu');

export function isoDate(y: number, m: number, d: number): string | undefined {
  const date = new Date(Date.UTC(y, m - 1, d));
  if (date.getUTCFullYear() !== y || date.getUTCMonth() !== m - 1 || date.getUTCDate() !== d) return undefined;
  return `${String(y).padStart(4, '0')}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

/** Two-digit years are this century: invoices from 1950 are not our users' problem. */
function fullYear(y: string): number {
  return y.length === 2 ? 2000 + Number(y) : Number(y);
}

/**
 * Every date in `text`. Folding keeps character positions for the Latin scripts we read
 * (it only drops combining marks after decomposing), except for ß → ss, which no date contains.
 */
export function scanDates(text: string, order: DayMonthOrder): DateMatch[] {
  const folded = fold(text);
  const out: DateMatch[] = [];
  const push = (start: number, end: number, iso: string | undefined) => {
    if (iso && !out.some((o) => o.start < end && start < o.end)) out.push({ start, end, iso });
  };
  for (const m of folded.matchAll(ISO)) push(m.index, m.index + m[0].length, isoDate(Number(m[1]), Number(m[3]), Number(m[4])));
  for (const m of folded.matchAll(NUMERIC)) {
    const a = Number(m[1]);
    const b = Number(m[3]);
    const y = fullYear(m[4]!);
    // Dots and dashes are day-first everywhere we serve; slashes depend on the document.
    const dayFirst = m[2] !== '/' || order === 'DMY';
    push(m.index, m.index + m[0].length, dayFirst ? isoDate(y, b, a) : isoDate(y, a, b));
  }
  for (const m of folded.matchAll(DAY_MONTH_NAME))
    push(m.index, m.index + m[0].length, isoDate(Number(m[3]), MONTH_OF.get(m[2]!)!, Number(m[1])));
  for (const m of folded.matchAll(MONTH_NAME_DAY))
    push(m.index, m.index + m[0].length, isoDate(Number(m[3]), MONTH_OF.get(m[1]!)!, Number(m[2])));
  return out.sort((a, b) => a.start - b.start);
}

/**
 * Slash dates are month-first only when one of them cannot be day-first (11/17/2017). The order
 * is settled when some slash date can be read one way only; else day-first is the default.
 */
export function dayMonthOrder(texts: Iterable<string>): { order: DayMonthOrder; settled: boolean } {
  let dmy = 0;
  let mdy = 0;
  for (const t of texts) {
    for (const m of t.matchAll(/(?<!\d)(\d{1,2})\/(\d{1,2})\/(\d{2,4})(?!\d)/g)) {
      if (Number(m[1]) > 12) dmy++;
      if (Number(m[2]) > 12) mdy++;
    }
  }
  return { order: mdy > dmy ? 'MDY' : 'DMY', settled: dmy + mdy > 0 };
}

/**
 * Whether `text` prints the ISO date `iso` as a slash date that reads as another date in the other
 * order (03/11/2017): on a page that never settles the order, such a date is day-first by default only.
 */
export function printedAmbiguously(text: string, iso: string): boolean {
  const [y, m, d] = iso.split('-').map(Number) as [number, number, number];
  if (d > 12 || m > 12 || d === m) return false;
  return new RegExp(`(?<!\\d)0?${d}/0?${m}/(?:${y}|${String(y % 100).padStart(2, '0')})(?!\\d)`).test(text);
}

/**
 * A numeric date one of whose separators a scan misread as a digit ("05703.2018", "05.0372018"),
 * perhaps with the colon before it ("2:05703.2018"): two digits, a sign, two digits, a sign, four
 * digits, at least one sign still a separator. Only for a value a date label announces; the
 * calendar must accept it.
 */
export function scannedDate(token: string, order: DayMonthOrder): string | undefined {
  const m = /^[:;.,]?\d?(\d{2})[\d.,:;'](\d{2})[\d.,:;'](\d{4})$/.exec(token.replace(/\s+/g, ''));
  // A run of ten digits could be anything; one separator still standing makes it a date.
  if (!m || !/\d{2}[.,:;']\d{2}|\d{2}[.,:;']\d{4}$/.test(token)) return undefined;
  const [a, b, year] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (year < 1990 || year > 2099) return undefined;
  return order === 'DMY' ? isoDate(year, b, a) : isoDate(year, a, b);
}

/**
 * A date in the ISO basic form, eight digits without separators ("20260815"), as renderings print
 * a CII date's format 102 as it stands. Only for a value a date label announces, opening it; the
 * calendar must accept it.
 */
export function compactDate(value: string): string | undefined {
  const m = /^[:\s]*(199\d|20\d{2})(\d{2})(\d{2})(?![\d.,/-])/.exec(value);
  return m ? isoDate(Number(m[1]), Number(m[2]), Number(m[3])) : undefined;
}
