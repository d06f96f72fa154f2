import {
  PDFDocument,
  PDFOperator,
  PDFOperatorNames,
  StandardFonts,
  beginText,
  endText,
  moveText,
  setFontAndSize,
  type PDFFont,
} from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { extractTextLayer } from '../../src/reading/text-layer.js';

/**
 * Word spaces of the text layer against kerning. pdfjs writes a space wherever the next glyph
 * starts 0.1–0.6 em after the previous one ends; invoice generators that kern after some
 * letters (0.11 em after "r", drawn as a TJ offset, with 0.056 em tracking between letters)
 * then read as "Liefer ant GmbH". Such a gap between two letters is one word; a gap of about
 * a space, a space glyph, or any gap next to a figure still separates.
 */

const SIZE = 10;
const BASELINE = 700;

interface Canvas {
  font: PDFFont;
  widthOf(text: string): number;
  /** Plain text (pdf-lib's Tj), with its own text object. */
  text(x: number, s: string): void;
  /** One TJ array: strings and offsets in thousandths of an em (negative moves right). */
  tj(x: number, parts: Array<string | number>): void;
}

async function wordsOf(draw: (c: Canvas) => void) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  const page = doc.addPage([595.28, 841.89]);
  const key = page.node.newFontDictionary('F', font.ref);
  draw({
    font,
    // Glyph by glyph: pdf-lib's width of a whole string applies the font's kerning pairs, which Tj does not.
    widthOf: (s) => [...s].reduce((w, ch) => w + font.widthOfTextAtSize(ch, SIZE), 0),
    text: (x, s) => page.drawText(s, { x, y: BASELINE, size: SIZE, font }),
    tj: (x, parts) =>
      page.pushOperators(
        beginText(),
        setFontAndSize(key, SIZE),
        moveText(x, BASELINE),
        PDFOperator.of(PDFOperatorNames.ShowTextAdjusted, [
          doc.context.obj(parts.map((p) => (typeof p === 'string' ? font.encodeText(p) : p))),
        ]),
        endText(),
      ),
  });
  const [first] = await extractTextLayer(await doc.save());
  return first!.words;
}

const texts = (words: Array<{ text: string }>) => words.map((w) => w.text);

/** Letters with the corpus generator's tracking of 0.056 em between them. */
const tracked = (word: string): Array<string | number> => [...word].flatMap((ch, i) => (i === 0 ? [ch] : [-56, ch]));

describe('text layer: kerning is not a word space', () => {
  it('joins a word kerned by a TJ offset of 0.11 em after "r"', async () => {
    const words = await wordsOf((c) => c.tj(50, ['Liefer', -110, 'ant GmbH']));
    expect(texts(words)).toEqual(['Lieferant', 'GmbH']);
  });

  it('joins kerned words in tracked text, and keeps the spaces between the words', async () => {
    const words = await wordsOf((c) =>
      c.tj(50, [
        ...tracked('ELEKTRON'),
        ' ',
        ...tracked('Industr'),
        -110,
        ...tracked('ieser'),
        -110,
        ...tracked('vice'),
        ' ',
        ...tracked('GmbH'),
      ]),
    );
    expect(texts(words)).toEqual(['ELEKTRON', 'Industrieservice', 'GmbH']);
  });

  it('joins two separately placed pieces of a word 0.11 em apart, spanning both', async () => {
    let end = 0;
    const words = await wordsOf((c) => {
      const x = 50 + c.widthOf('Liefer') + 0.11 * SIZE;
      c.text(50, 'Liefer');
      c.text(x, 'ant GmbH');
      end = x + c.widthOf('ant');
    });
    expect(texts(words)).toEqual(['Lieferant', 'GmbH']);
    expect(words[0]!.x).toBeCloseTo(50, 1);
    expect(words[0]!.x + words[0]!.width).toBeCloseTo(end, 1);
  });

  it('keeps a space glyph as a word space', async () => {
    expect(texts(await wordsOf((c) => c.text(50, 'Lieferant GmbH')))).toEqual(['Lieferant', 'GmbH']);
    expect(texts(await wordsOf((c) => c.tj(50, ['Lieferant', -20, ' GmbH'])))).toEqual(['Lieferant', 'GmbH']);
  });

  it('keeps words placed a space apart, or a narrow 0.2 em apart, without a space glyph', async () => {
    for (const gap of [0.278, 0.2]) {
      const words = await wordsOf((c) => {
        c.text(50, 'Lieferant');
        c.text(50 + c.widthOf('Lieferant') + gap * SIZE, 'GmbH');
      });
      expect(texts(words), `gap ${gap} em`).toEqual(['Lieferant', 'GmbH']);
    }
  });

  it('does not glue figures of adjacent table columns, however close', async () => {
    const words = await wordsOf((c) => {
      let x = 300;
      for (const cell of ['3', 'Std', '19,00', '7,00', '129,60']) {
        c.text(x, cell);
        x += c.widthOf(cell) + 0.11 * SIZE;
      }
    });
    expect(texts(words)).toEqual(['3', 'Std', '19,00', '7,00', '129,60']);
  });

  it('does not glue words of adjacent columns a third of an em apart', async () => {
    const words = await wordsOf((c) => {
      c.text(300, 'Menge');
      c.text(300 + c.widthOf('Menge') + 0.33 * SIZE, 'Einheit');
    });
    expect(texts(words)).toEqual(['Menge', 'Einheit']);
  });
});
