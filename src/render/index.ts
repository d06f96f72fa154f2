import { PDFDocument, type PDFImage } from 'pdf-lib';
import type { Invoice } from '../invoice/model.js';
import { BLOCK_RENDERERS, drawContinuationHeader, layoutFooter } from './blocks.js';
import { documentTitle, stylesFor, type RenderContext } from './context.js';
import { embedFonts } from './fonts.js';
import { createFormatter } from './format.js';
import { Flow, geometry, Typesetter } from './layout.js';
import { declarePdfA3b } from './pdfa.js';
import { TemplateInvalidError, type LoadedTemplate } from './registry.js';

export { listTemplates, loadTemplate, loadTemplateFrom, templateRoots, TemplateInvalidError, TemplateNotFoundError } from './registry.js';
export type { LoadedTemplate, TemplateListing, TemplateRoots, TemplateSource } from './registry.js';

export interface RenderOptions {
  created: Date;
  /** 32 hex digits: the PDF file identifier. */
  fileId: string;
}

export interface RenderedPdf {
  pdf: Uint8Array;
  pages: number;
  /** Document type and number, e.g. "Rechnung RE-1": the PDF's title. */
  title: string;
}

/**
 * Renders the invoice through the template into a PDF/A-3b document: embedded DejaVu subsets,
 * DeviceRGB colours under an sRGB OutputIntent, no annotations, actions or blend modes (a logo's
 * alpha channel becomes a soft mask, which PDF/A-2 and -3 allow), and the PDF/A declaration.
 * The XML is attached afterwards by src/pdf.
 */
export async function renderInvoicePdf(invoice: Invoice, loaded: LoadedTemplate, opts: RenderOptions): Promise<RenderedPdf> {
  const { template } = loaded;
  const doc = await PDFDocument.create({ updateMetadata: false });
  const fonts = await embedFonts(doc, template.font.family);
  const base: Omit<RenderContext, 'flow'> = {
    invoice,
    template,
    labels: template.labels,
    fmt: createFormatter(template.locale, invoice.invoiceCurrencyCode ?? 'EUR', template.dateStyle),
    logo: await embedLogo(doc, loaded),
    styles: stylesFor(template.font.size),
  };
  const page = geometry(template, 0);
  const footer = layoutFooter(base, new Typesetter(fonts, template.font.size), page.right - page.left);
  const flow = new Flow(doc, geometry(template, footer.height), fonts, template.font.size, template.colors, (f) =>
    drawContinuationHeader(base, f),
  );
  const ctx: RenderContext = { ...base, flow };
  flow.addPage();
  for (const block of template.blocks) BLOCK_RENDERERS[block](ctx);
  flow.pages.forEach((_, i) => footer.draw(flow, i));

  const title = [documentTitle(base), invoice.invoiceNumber].filter(Boolean).join(' ');
  await declarePdfA3b(doc, {
    title,
    author: invoice.seller?.sellerName ?? title,
    creator: `einvoice-service, template ${template.id}`,
    language: template.locale,
    created: opts.created,
    fileId: opts.fileId,
  });
  return { title, pdf: await doc.save(), pages: flow.pages.length };
}

async function embedLogo(doc: PDFDocument, loaded: LoadedTemplate): Promise<PDFImage | undefined> {
  if (!loaded.logo) return undefined;
  try {
    return loaded.logo.type === 'png' ? await doc.embedPng(loaded.logo.bytes) : await doc.embedJpg(loaded.logo.bytes);
  } catch (err) {
    throw new TemplateInvalidError(loaded.template.id, [`logo ${loaded.template.logo?.file}: ${(err as Error).message}`]);
  }
}
