import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import fontkit from '@pdf-lib/fontkit';
import { PDFDocument, StandardFonts, type PDFFont } from 'pdf-lib';
import type { Invoice } from '../../src/invoice/model.js';

/**
 * Input PDFs for the tests, made here rather than copied from anywhere: an invoice printout
 * that shows the invoice's number, dates, totals and parties the way German invoices print
 * them (DD.MM.YYYY, 1.234,56), on as many pages as asked. None of them is PDF/A: the
 * standard-font variant does not even embed its font, which is what PDF/A forbids first.
 */

export interface SamplePdfOptions {
  pages?: number;
  /** standard: Helvetica, not embedded; embedded: DejaVu Sans subset. */
  font?: 'standard' | 'embedded';
  /** Leave these out of the printout (to test the visible-text comparison). */
  omit?: ReadonlyArray<'invoiceNumber' | 'totals' | 'buyer'>;
}

const require = createRequire(import.meta.url);
const DEJAVU = require.resolve('dejavu-fonts-ttf/ttf/DejaVuSans.ttf');

export function germanDate(iso: string): string {
  const [y, m, d] = iso.split('-');
  return `${d}.${m}.${y}`;
}

export function germanAmount(decimal: string): string {
  const [int, frac = ''] = decimal.replace('-', '').split('.');
  const grouped = int!.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return `${decimal.startsWith('-') ? '-' : ''}${grouped},${frac.padEnd(2, '0').slice(0, Math.max(2, frac.length))}`;
}

export async function samplePdf(invoice: Invoice, opts: SamplePdfOptions = {}): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  let font: PDFFont;
  if (opts.font === 'embedded') {
    doc.registerFontkit(fontkit);
    font = await doc.embedFont(readFileSync(DEJAVU), { subset: true });
  } else {
    font = await doc.embedFont(StandardFonts.Helvetica);
  }
  const omit = new Set(opts.omit ?? []);
  const t = invoice.documentTotals ?? {};
  const currency = invoice.invoiceCurrencyCode ?? '';
  const seller = invoice.seller ?? {};
  const address = seller.sellerPostalAddress ?? {};
  const header = [
    seller.sellerName ?? '',
    `${address.sellerAddressLine1 ?? ''}, ${address.sellerPostCode ?? ''} ${address.sellerCity ?? ''}`,
    '',
    omit.has('buyer') ? '' : (invoice.buyer?.buyerName ?? ''),
    '',
    omit.has('invoiceNumber') ? 'Rechnung' : `Rechnung Nr. ${invoice.invoiceNumber ?? ''}`,
    `Rechnungsdatum: ${germanDate(invoice.invoiceIssueDate ?? '')}`,
    ...(invoice.paymentDueDate ? [`Fällig am: ${germanDate(invoice.paymentDueDate)}`] : []),
  ];
  const lines = (invoice.invoiceLine ?? []).map(
    (l) =>
      `${l.invoiceLineIdentifier ?? ''}  ${l.itemInformation?.itemName ?? ''}  ${germanAmount(l.invoicedQuantity ?? '0')} x  ${germanAmount(l.invoiceLineNetAmount ?? '0')} ${currency}`,
  );
  const totals = omit.has('totals')
    ? []
    : [
        `Summe netto: ${germanAmount(t.invoiceTotalAmountWithoutVat ?? '0')} ${currency}`,
        `Umsatzsteuer: ${germanAmount(t.invoiceTotalVatAmount ?? '0')} ${currency}`,
        `Gesamtbetrag: ${germanAmount(t.invoiceTotalAmountWithVat ?? '0')} ${currency}`,
        `Zahlbetrag: ${germanAmount(t.amountDueForPayment ?? '0')} ${currency}`,
      ];
  const pages = opts.pages ?? 1;
  for (let n = 1; n <= pages; n++) {
    const page = doc.addPage([595.28, 841.89]);
    const text =
      n === 1
        ? [...header, '', ...lines]
        : [
            `Fortsetzung Seite ${n} von ${pages}`,
            ...Array.from({ length: 40 }, (_, i) => `Anlage zeile ${i + 1}: Leistungsnachweis ${invoice.invoiceNumber ?? ''}`),
          ];
    if (n === pages) text.push('', ...totals);
    text.forEach((line, i) => page.drawText(line, { x: 50, y: 790 - i * 16, size: 11, font }));
  }
  return doc.save();
}
