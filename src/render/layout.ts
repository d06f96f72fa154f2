import { rgb, type Color, type PDFDocument, type PDFPage } from 'pdf-lib';
import type { FontSet } from './fonts.js';
import { PAGE_SIZES, type Template } from './template.js';

/**
 * The layout primitives every block uses: styled lines, word wrapping, and a flow that
 * moves down the page and starts a new page when the next piece does not fit.
 * Positions are points measured from the top-left corner (pdf-lib's origin is bottom-left).
 */

export const MM = 72 / 25.4;
const LEADING = 1.3;

export type ColorName = keyof Template['colors'];

export interface TextStyle {
  bold?: boolean;
  /** Points; the template's body size when absent. */
  size?: number;
  color?: ColorName;
}

/** One printed line: text that already fits its width. */
export interface TextLine {
  text: string;
  style: TextStyle;
}

export type Align = 'left' | 'right' | 'center';

export interface Geometry {
  pageWidth: number;
  pageHeight: number;
  left: number;
  right: number;
  top: number;
  /** Where the flow's content ends: the bottom margin plus the footer. */
  bottom: number;
}

export function geometry(template: Template, footerHeight: number): Geometry {
  const [w, h] = PAGE_SIZES[template.page.size];
  const m = template.page.margins;
  return {
    pageWidth: w * MM,
    pageHeight: h * MM,
    left: m.left * MM,
    right: (w - m.right) * MM,
    top: m.top * MM,
    bottom: (h - m.bottom) * MM - footerHeight,
  };
}

/** The smallest share of its size a word too wide for its column is set in before it is broken. */
const MIN_SQUEEZE = 0.7;

/** Measuring and line breaking: needs only the fonts, so the footer can be laid out before the page geometry exists. */
export class Typesetter {
  constructor(
    readonly fonts: FontSet,
    readonly bodySize: number,
  ) {}

  size(style: TextStyle): number {
    return style.size ?? this.bodySize;
  }

  lineHeight(style: TextStyle): number {
    return this.size(style) * LEADING;
  }

  heightOf(lines: readonly TextLine[]): number {
    return lines.reduce((h, l) => h + this.lineHeight(l.style), 0);
  }

  /** Shaping text (fontkit) is the renderer's main cost, and invoices repeat their words: widths are remembered. */
  private readonly widths = new Map<string, number>();

  measure(text: string, style: TextStyle): number {
    const size = this.size(style);
    const key = `${style.bold ? 'b' : 'r'}${size}|${text}`;
    let width = this.widths.get(key);
    if (width === undefined) {
      width = (style.bold ? this.fonts.bold : this.fonts.regular).widthOfTextAtSize(text, size);
      this.widths.set(key, width);
    }
    return width;
  }

  /**
   * Paragraph → lines no wider than `width`: breaks at spaces. A word alone too wide (an e-mail
   * address, a URL) is set a little smaller on a line of its own, whole, so that people and readers
   * can still copy it; only a word too wide even then is broken inside.
   */
  wrap(text: string, style: TextStyle, width: number): TextLine[] {
    const lines: TextLine[] = [];
    for (const paragraph of text.split(/\r?\n/)) {
      let current = '';
      let currentWidth = 0;
      // A paragraph that ends with a word set on a line of its own leaves no empty line after it.
      let endsSqueezed = false;
      // Line width = sum of word widths and spaces (kerning across a space is negligible).
      const space = this.measure(' ', style);
      for (const word of this.fonts.printable(paragraph).split(/ +/).filter(Boolean)) {
        const wordWidth = this.measure(word, style);
        const candidateWidth = current ? currentWidth + space + wordWidth : wordWidth;
        endsSqueezed = false;
        if (candidateWidth <= width) {
          current = current ? `${current} ${word}` : word;
          currentWidth = candidateWidth;
          continue;
        }
        if (current) lines.push({ text: current, style });
        current = '';
        const squeezed = wordWidth > width ? this.squeezed(word, style, width) : undefined;
        if (squeezed) {
          lines.push({ text: word, style: squeezed });
          [currentWidth, endsSqueezed] = [0, true];
          continue;
        }
        for (const piece of this.breakWord(word, style, width)) {
          if (current) lines.push({ text: current, style });
          current = piece;
        }
        currentWidth = this.measure(current, style);
      }
      if (!endsSqueezed) lines.push({ text: current, style });
    }
    return lines.filter((l, i) => l.text !== '' || (i > 0 && i < lines.length - 1));
  }

  /** The style that sets `word` within `width` at no less than MIN_SQUEEZE of its size, if one does. */
  private squeezed(word: string, style: TextStyle, width: number): TextStyle | undefined {
    const size = Math.floor(((this.size(style) * width) / this.measure(word, style)) * 10) / 10;
    return size >= this.size(style) * MIN_SQUEEZE ? { ...style, size } : undefined;
  }

  private breakWord(word: string, style: TextStyle, width: number): string[] {
    const pieces: string[] = [];
    let piece = '';
    for (const ch of word) {
      if (piece && this.measure(piece + ch, style) > width) {
        pieces.push(piece);
        piece = '';
      }
      piece += ch;
    }
    return [...pieces, piece];
  }
}

export class Flow extends Typesetter {
  readonly pages: PDFPage[] = [];
  /** Distance of the next free position from the top edge. */
  y = 0;
  private current = -1;
  private readonly palette: Record<ColorName, Color>;

  constructor(
    private readonly doc: PDFDocument,
    readonly geo: Geometry,
    fonts: FontSet,
    bodySize: number,
    colors: Template['colors'],
    /** Called on every new page after the first, e.g. for a running header. */
    private readonly onContinuationPage: (flow: Flow) => void,
  ) {
    super(fonts, bodySize);
    this.palette = Object.fromEntries(Object.entries(colors).map(([name, hex]) => [name, hexColor(hex)])) as Record<ColorName, Color>;
  }

  get width(): number {
    return this.geo.right - this.geo.left;
  }

  get page(): PDFPage {
    const page = this.pages[this.current];
    if (!page) throw new Error('no page yet: call addPage first');
    return page;
  }

  addPage(): void {
    this.pages.push(this.doc.addPage([this.geo.pageWidth, this.geo.pageHeight]));
    this.current = this.pages.length - 1;
    this.y = this.geo.top;
    if (this.pages.length > 1) this.onContinuationPage(this);
  }

  /** Draws on an earlier page, e.g. footers once the page count is known. */
  onPage(index: number, draw: () => void): void {
    const saved = this.current;
    this.current = index;
    try {
      draw();
    } finally {
      this.current = saved;
    }
  }

  /** Room left on this page below the current position. */
  get room(): number {
    return this.geo.bottom - this.y;
  }

  /** Starts a new page unless `height` still fits on this one. */
  keep(height: number): void {
    if (height > this.room) this.addPage();
  }

  /** Draws lines from `top` downwards inside [x, x + width]; returns the height used. */
  drawLines(lines: readonly TextLine[], x: number, top: number, width: number, align: Align = 'left'): number {
    let y = top;
    for (const line of lines) {
      const size = this.size(line.style);
      const font = line.style.bold ? this.fonts.bold : this.fonts.regular;
      const textWidth = align === 'left' ? 0 : this.measure(line.text, line.style);
      const dx = align === 'right' ? width - textWidth : align === 'center' ? (width - textWidth) / 2 : 0;
      // Baseline: the ascent of DejaVu is about 0.93 em; the rest of the leading goes below.
      if (line.text)
        this.page.drawText(line.text, {
          x: x + dx,
          y: this.geo.pageHeight - (y + size * 0.95),
          size,
          font,
          color: this.palette[line.style.color ?? 'text'],
        });
      y += this.lineHeight(line.style);
    }
    return y - top;
  }

  /** Draws lines at the current position and moves below them (no page break: callers keep what must stay together). */
  write(lines: readonly TextLine[], x = this.geo.left, width = this.width, align: Align = 'left'): void {
    this.y += this.drawLines(lines, x, this.y, width, align);
  }

  /** A paragraph that may run over pages, line by line. */
  paragraph(text: string, style: TextStyle, x = this.geo.left, width = this.width): void {
    for (const line of this.wrap(text, style, width)) {
      this.keep(this.lineHeight(style));
      this.write([line], x, width);
    }
  }

  fillRect(x: number, top: number, width: number, height: number, color: ColorName): void {
    this.page.drawRectangle({ x, y: this.geo.pageHeight - top - height, width, height, color: this.palette[color] });
  }

  rule(x1: number, x2: number, y: number, color: ColorName = 'rule', thickness = 0.6): void {
    this.page.drawLine({
      start: { x: x1, y: this.geo.pageHeight - y },
      end: { x: x2, y: this.geo.pageHeight - y },
      thickness,
      color: this.palette[color],
    });
  }

  gap(height: number): void {
    this.y += height;
  }

  /** Dark modules of a QR code as filled squares, `size` points wide, top-left at (x, top); runs merge into one rectangle. */
  drawMatrix(matrix: readonly (readonly boolean[])[], x: number, top: number, size: number): void {
    const module = size / matrix.length;
    matrix.forEach((row, r) => {
      let start = -1;
      row.forEach((dark, c) => {
        if (dark && start < 0) start = c;
        if ((!dark || c === row.length - 1) && start >= 0) {
          const end = dark ? c + 1 : c;
          this.page.drawRectangle({
            x: x + start * module,
            y: this.geo.pageHeight - top - (r + 1) * module,
            width: (end - start) * module,
            height: module,
            color: rgb(0, 0, 0),
          });
          start = -1;
        }
      });
    });
  }
}

function hexColor(hex: string): Color {
  const n = Number.parseInt(hex.slice(1), 16);
  return rgb(((n >> 16) & 255) / 255, ((n >> 8) & 255) / 255, (n & 255) / 255);
}
