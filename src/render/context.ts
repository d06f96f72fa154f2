import type { PDFImage } from 'pdf-lib';
import type { Invoice } from '../invoice/model.js';
import type { Formatter } from './format.js';
import type { Flow, TextStyle } from './layout.js';
import type { Labels, Template } from './template.js';

/** What every block sees while rendering one invoice. */
export interface RenderContext {
  flow: Flow;
  invoice: Invoice;
  template: Template;
  labels: Labels;
  fmt: Formatter;
  logo: PDFImage | undefined;
  styles: Styles;
}

export interface Styles {
  body: TextStyle;
  bold: TextStyle;
  small: TextStyle;
  muted: TextStyle;
  heading: TextStyle;
  title: TextStyle;
  tableHeader: TextStyle;
}

/** Sizes derive from the template's body size, so one number scales the whole design. */
export function stylesFor(bodySize: number): Styles {
  const small = Math.round(bodySize * 0.82 * 10) / 10;
  return {
    body: {},
    bold: { bold: true },
    small: { size: small },
    muted: { size: small, color: 'muted' },
    heading: { bold: true, size: bodySize * 1.15, color: 'accent' },
    title: { bold: true, size: bodySize * 1.8, color: 'accent' },
    tableHeader: { bold: true, size: small, color: 'tableHeaderText' },
  };
}

/** The title of the document type (Rechnung, Gutschrift, …). */
export function documentTitle(ctx: Pick<RenderContext, 'invoice' | 'labels'>): string {
  const types = ctx.labels.documentTypes;
  return types[ctx.invoice.invoiceTypeCode ?? ''] ?? types.default!;
}
