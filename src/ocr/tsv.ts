import type { Word } from '../analysis/page-text.js';

/** Tesseract's TSV columns; level 5 rows are words. */
const COLUMNS = ['level', 'page_num', 'block_num', 'par_num', 'line_num', 'word_num', 'left', 'top', 'width', 'height', 'conf', 'text'] as const;
const WORD_LEVEL = '5';

/**
 * Words with their boxes from tesseract's TSV output: the lightest of its
 * outputs that carries positions (the JSON block tree is several times larger).
 */
export function wordsFromTsv(tsv: string): Word[] {
  const words: Word[] = [];
  for (const line of tsv.split('\n')) {
    const cells = line.split('\t');
    if (cells.length < COLUMNS.length || cells[0] !== WORD_LEVEL) continue;
    const text = cells.slice(COLUMNS.length - 1).join('\t').trim();
    const conf = Number(cells[10]);
    if (!text || !(conf >= 0)) continue;
    words.push({
      text,
      x: Number(cells[6]),
      y: Number(cells[7]),
      width: Number(cells[8]),
      height: Number(cells[9]),
      confidence: Math.min(1, conf / 100),
    });
  }
  return words;
}
