import type { Word } from './page-text.js';

/** Tesseract's TSV columns; level 5 rows are words. */
const COLUMNS = [
  'level',
  'page_num',
  'block_num',
  'par_num',
  'line_num',
  'word_num',
  'left',
  'top',
  'width',
  'height',
  'conf',
  'text',
] as const;
const WORD_LEVEL = '5';
/** A word of vertical bars only: ink of a drawn box, not text. */
const BORDER = /^[|¦]+$/;

/** A word and the text line tesseract put it on. */
interface LinedWord extends Word {
  line: string;
}

/**
 * Words with their boxes from tesseract's TSV output (the lightest of its
 * outputs that carries positions): "ß" repaired where scans lose it, turned
 * upright (deskew), colons back with their labels, and sized like the words of
 * a text layer (emBox). Low-confidence words are kept: dropping them, even big
 * ones in logos, measurably loses more than it saves. Bars alone are dropped: they are
 * the edges of a boxed heading or cell ("| Informationen zum Käufer |"), which rule
 * removal leaves because they are no taller than the letters, and they would make the
 * heading a value of its own.
 */
export function wordsFromTsv(tsv: string, page: { width: number; height: number }): Word[] {
  const words: LinedWord[] = [];
  for (const row of tsv.split('\n')) {
    const cells = row.split('\t');
    if (cells.length < COLUMNS.length || cells[0] !== WORD_LEVEL) continue;
    const text = cells
      .slice(COLUMNS.length - 1)
      .join('\t')
      .trim();
    const conf = Number(cells[10]);
    if (!text || !(conf >= 0) || BORDER.test(text)) continue;
    words.push({
      text,
      x: Number(cells[6]),
      y: Number(cells[7]),
      width: Number(cells[8]),
      height: Number(cells[9]),
      confidence: Math.min(1, conf / 100),
      line: `${cells[2]}/${cells[3]}/${cells[4]}`,
    });
  }
  const repaired = words.map((w, i) => ({
    ...w,
    text: repairText(w.text, words[i + 1]?.line === w.line ? words[i + 1]!.text : undefined),
  }));
  return joinSplitNumbers(attachColons(deskew(repaired, page))).map(({ line: _line, ...word }) => emBox(word));
}

/** Narrower than a space between words, in heights of the word: ink of one word. */
const SPLIT_GAP = 0.35;

/**
 * "470,1" "5€": tesseract may cut an amount's last digits off as a word of their own, a hair's
 * breadth from the rest, and the amount then reads as 5,00. A number cut after its first decimal
 * digit and followed, closer than a space, by digits on its line is one word again.
 */
export function joinSplitNumbers<W extends LinedWord>(words: W[]): W[] {
  const out: W[] = [];
  for (const w of words) {
    const before = out.at(-1);
    const split =
      before &&
      before.line === w.line &&
      /\d[.,]\d$/.test(before.text) &&
      /^\d/.test(w.text) &&
      w.x - (before.x + before.width) < SPLIT_GAP * before.height;
    if (split) out[out.length - 1] = joined(before, w);
    else out.push(w);
  }
  return out;
}

/** Two words of a line as one, without a space: the box spans both, the surer of them no surer than the other. */
function joined<W extends LinedWord>(before: W, w: W): W {
  return {
    ...before,
    text: `${before.text}${w.text}`,
    width: w.x + w.width - before.x,
    confidence: Math.min(before.confidence ?? 1, w.confidence ?? 1),
  };
}

/**
 * The TSV of a band of the page (bands.ts) as if read from the whole page: rows moved down by
 * the band's top, and its blocks numbered apart from other bands' so that their lines stay apart.
 */
export function shiftTsv(tsv: string, top: number, band: number): string {
  return tsv
    .split('\n')
    .map((row) => {
      const cells = row.split('\t');
      if (cells.length < COLUMNS.length || !/^\d+$/.test(cells[0]!)) return row;
      cells[2] = String(band * BLOCKS_PER_BAND + Number(cells[2]));
      cells[7] = String(Number(cells[7]) + top);
      return cells.join('\t');
    })
    .join('\n');
}

/** More blocks than tesseract finds on any page, so that band numbers keep blocks apart. */
const BLOCKS_PER_BAND = 100_000;

/**
 * OCR boxes hug the ink: "ocean" is as tall as its x-height, "Köln" reaches from
 * the cap height to the baseline, "Zahlung" down to the descender. A text layer
 * gives every word its font size instead, the box one em high with the baseline
 * 0.8 em below its top, and the analysis measures its distances in that unit.
 * The font size follows from the box and the letters in it (Latin fonts: caps
 * and ascenders 0.72 em, x-height 0.52 em, descenders 0.21 em), and the word
 * gets the box a text layer would have given it.
 */
export function emBox<W extends Word>(word: W): W {
  const top = ASCENDING.test(word.text) ? CAP_HEIGHT : X_HEIGHT;
  const bottom = DESCENDING.test(word.text) ? DESCENDER : 0;
  const size = word.height / (top + bottom);
  const baseline = word.y + word.height - bottom * size;
  return { ...word, y: baseline - ASCENT * size, height: size };
}

const CAP_HEIGHT = 0.72;
const X_HEIGHT = 0.52;
const DESCENDER = 0.21;
/** Where text-layer.ts puts the top of a word's box: 0.8 em above the baseline. */
const ASCENT = 0.8;
/** Letters and signs that reach above the x-height (capitals, digits, ascenders, umlaut dots, brackets). */
const ASCENDING = /[\p{Lu}\p{N}bdfhklißäöüÄÖÜ€$£%&@#()[\]{}\/|!?'"]/u;
/** Letters and signs that reach below the baseline. */
const DESCENDING = /[gjpqyµ()[\]{},;]/u;

/**
 * The misreadings worth repairing by rule. At scan resolutions tesseract's
 * German model reads the "ß" of "straße", in nearly every German address, as
 * "lR", "ll", "R", "B", "fB", "fi", "fl", "l", "f" or nothing. No word contains "stralRe", "stralle", "strale" or "straRe";
 * "…strafe" is a word (a penalty) and is repaired only before a house number.
 */
export function repairText(text: string, next?: string): string {
  const repaired = text
    .replace(/([Ss])tra(?:lR|lB|ll|R|B|8|fS|fB|fi|fl|l|)e(?=$|[\s\d.,])/g, '$1traße')
    // "ü" read as "ii": "Miinchen", "Gebiihr". German and English words hardly ever hold "ii".
    .replace(/(\p{L})ii(?=\p{Ll})/gu, '$1ü');
  // Before a house number: "…strafe" is the street, and "Musterstr," the abbreviation whose period read as a comma.
  return next !== undefined && /^\d/.test(next) ? repaired.replace(/([Ss])trafe$/, '$1traße').replace(/([Ss]tr),$/, '$1.') : repaired;
}

/** How far (in heights of the label) a colon may stand from the label it ends. */
const COLON_REACH = 2;

/**
 * "Steuernummer   :  201/113/40209": a label with a spaced-out colon. A text
 * layer keeps the colon with its label (the gap is a run of spaces inside one
 * text item); tesseract makes the colon a word of its own, whose ink stands
 * apart from both, and the label and its value fall into separate runs. The
 * colon is given back to the word before it on the same line.
 */
export function attachColons<W extends LinedWord>(words: W[]): W[] {
  const out: W[] = [];
  for (const w of words) {
    const before = out.at(-1);
    if (before && /^[:：]$/.test(w.text) && before.line === w.line && w.x - (before.x + before.width) < COLON_REACH * before.height) {
      out[out.length - 1] = joined(before, w);
    } else out.push(w);
  }
  return out;
}

/** Lines shorter than this (in words) say little about the page's slant. */
const MIN_WORDS_PER_LINE = 3;
/** A scanner feeds pages a few degrees askew at most; steeper "lines" are something else. */
const MAX_SKEW_RADIANS = (5 * Math.PI) / 180;

/**
 * Tesseract reads a page fed askew correctly, but reports boxes in the skewed
 * image: across an A4 page at 300 dpi, 1° moves the right end of a line 40 px,
 * a whole text line, and a table row falls apart into two. The slant is
 * measured on the lines tesseract found (the median slope of word bottoms) and
 * every box is turned back about the page centre. Cheaper and more reliable
 * than rotating the image before recognition.
 */
export function deskew<W extends LinedWord>(words: W[], page: { width: number; height: number }): W[] {
  const angle = skewAngle(words);
  if (angle === 0) return words;
  const cos = Math.cos(-angle);
  const sin = Math.sin(-angle);
  const cx = page.width / 2;
  const cy = page.height / 2;
  return words.map((w) => {
    const mx = w.x + w.width / 2 - cx;
    const my = w.y + w.height / 2 - cy;
    const x = cx + mx * cos - my * sin - w.width / 2;
    const y = cy + mx * sin + my * cos - w.height / 2;
    // Clamped, so that boxes stay on the page the analysis measures against.
    return { ...w, x: clamp(x, 0, page.width - w.width), y: clamp(y, 0, page.height - w.height) };
  });
}

/** Median slope (radians, positive: falling to the right) over the lines with enough words. */
export function skewAngle(words: readonly LinedWord[]): number {
  const lines = new Map<string, LinedWord[]>();
  for (const w of words) lines.set(w.line, [...(lines.get(w.line) ?? []), w]);
  const slopes: number[] = [];
  for (const line of lines.values()) {
    if (line.length < MIN_WORDS_PER_LINE) continue;
    const points = line.map((w) => ({ x: w.x + w.width / 2, y: w.y + w.height }));
    const mx = points.reduce((s, p) => s + p.x, 0) / points.length;
    const my = points.reduce((s, p) => s + p.y, 0) / points.length;
    const sxx = points.reduce((s, p) => s + (p.x - mx) ** 2, 0);
    if (sxx === 0) continue;
    const slope = points.reduce((s, p) => s + (p.x - mx) * (p.y - my), 0) / sxx;
    if (Math.abs(Math.atan(slope)) <= MAX_SKEW_RADIANS) slopes.push(slope);
  }
  if (slopes.length === 0) return 0;
  slopes.sort((a, b) => a - b);
  return Math.atan(slopes[Math.floor(slopes.length / 2)]!);
}

function clamp(value: number, min: number, max: number): number {
  return Math.min(Math.max(value, min), Math.max(min, max));
}
