import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { invoiceWithLines } from '../../scripts/lib/sample-invoices.js';
import { Decimal } from '../../src/invoice/decimal.js';
import { invoiceSchema, type Invoice } from '../../src/invoice/model.js';
import { listTemplates, loadTemplate, renderInvoicePdf, templateRoots, type LoadedTemplate } from '../../src/render/index.js';
import { runVeraPdf, veraPdfAvailable } from '../support/java-validators.js';

const fixture = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/invoices/01-standard-19.json'), 'utf8'));
const roots = templateRoots(path.join(tmpdir(), 'no-operator-templates'));
const options = { created: new Date('2025-03-03T10:00:00Z'), fileId: '0123456789abcdef0123456789abcdef' };
const outDir = mkdtempSync(path.join(tmpdir(), 'render-'));
const rendered: string[] = [];
afterAll(() => rmSync(outDir, { recursive: true, force: true }));

async function render(
  invoice: Invoice,
  templateId: string,
  template?: LoadedTemplate,
): Promise<{ pdf: Uint8Array; pages: number; text: string[] }> {
  const result = await renderInvoicePdf(invoice, template ?? (await loadTemplate(roots, templateId)), options);
  const file = path.join(outDir, `${rendered.length}-${templateId}.pdf`);
  writeFileSync(file, result.pdf);
  rendered.push(file);
  return { ...result, text: await pageTexts(result.pdf) };
}

/** The text of each page, as pdf.js (what viewers use) extracts it. */
async function pageTexts(pdf: Uint8Array): Promise<string[]> {
  const { getDocument } = await import('pdfjs-dist/legacy/build/pdf.mjs');
  const task = getDocument({ data: new Uint8Array(pdf), verbosity: 0 });
  const doc = await task.promise;
  const pages: string[] = [];
  for (let n = 1; n <= doc.numPages; n++) {
    const content = await (await doc.getPage(n)).getTextContent();
    pages.push(
      content.items
        .map((item) => ('str' in item ? item.str : ''))
        .join(' ')
        .replace(/\s+/g, ' '),
    );
  }
  await task.destroy();
  return pages;
}

const parse = (json: unknown) => invoiceSchema.parse(json);

describe('built-in templates', () => {
  it('are valid and listed', async () => {
    const listed = await listTemplates(roots);
    expect(listed.filter((t) => t.source === 'builtin').map((t) => [t.id, t.valid])).toEqual([
      ['de-standard', true],
      ['en-standard', true],
    ]);
  });

  it('de-standard writes German wording, amounts and dates', async () => {
    const { pages, text } = await render(parse(fixture), 'de-standard');
    expect(pages).toBe(1);
    const page = text[0]!;
    for (const expected of [
      'Rechnung RE-2025-00101',
      'Rechnungsdatum 03.03.2025',
      'Fällig am 02.04.2025',
      'Gesamtbetrag brutto',
      '562,75 €',
      '4,79 €',
      '19 %',
      'DE10 3705 0299 0123 4567 89',
      'Seite 1 von 1',
      'USt-IdNr.: DE298765432',
    ]) {
      expect(page).toContain(expected);
    }
  });

  it('en-standard writes English wording, amounts and dates', async () => {
    const { text } = await render(parse(fixture), 'en-standard');
    const page = text[0]!;
    for (const expected of [
      'Invoice RE-2025-00101',
      'Invoice date 3 March 2025',
      'Total incl. VAT',
      '€562.75',
      '€4.79',
      'Page 1 of 1',
      'VAT no.: DE298765432',
    ]) {
      expect(page).toContain(expected);
    }
  });
});

describe('multi-page line table', () => {
  const lines = 60;
  const invoice = parse(invoiceWithLines(fixture, lines));
  const net = (n: number) => invoice.invoiceLine![n - 1]!.invoiceLineNetAmount!;
  /** Line numbers printed on a page: rows start with their position in the first column. */
  const positionsOn = (page: string) =>
    [...page.matchAll(/(?:^| )(\d{1,3}) (?:Kopierpapier|Ordner|Tonerkartusche)/g)].map((m) => Number(m[1]));
  const euro = (d: Decimal) =>
    `${d
      .toFixed(2)
      .replace('.', ',')
      .replace(/\B(?=(\d{3})+(?!\d))/g, '.')} €`;

  it('repeats the header, and carries page totals forward exactly', async () => {
    const { pages, text } = await render(invoice, 'de-standard');
    expect(pages).toBeGreaterThan(2);
    let carried = new Decimal(0);
    const seen: number[] = [];
    text.forEach((page, i) => {
      expect(page, `page ${i + 1} header`).toContain('Pos. Bezeichnung Menge Einheit Einzelpreis USt. Betrag netto');
      const positions = positionsOn(page);
      seen.push(...positions);
      const pageTotal = positions.reduce((s, n) => s.plus(net(n)), new Decimal(0));
      if (i > 0) expect(page).toContain(`Übertrag von Seite ${i} ${euro(carried)}`);
      carried = carried.plus(pageTotal);
      if (i < pages - 1 && positions.length) {
        expect(page).toContain(`Summe Seite ${i + 1} ${euro(pageTotal)}`);
        expect(page).toContain(`Übertrag ${euro(carried)}`);
      }
      expect(page).toContain(`Seite ${i + 1} von ${pages}`);
    });
    expect(seen).toEqual(Array.from({ length: lines }, (_, i) => i + 1));
    expect(carried.toFixed(2)).toBe(invoice.documentTotals!.sumOfInvoiceLineNetAmount);
    expect(text.at(-1)).toContain(`Zahlbetrag ${euro(new Decimal(invoice.documentTotals!.amountDueForPayment!))}`);
  });

  it('splits a row taller than a page across pages', async () => {
    const long = structuredClone(fixture);
    const words = Array.from({ length: 1500 }, (_, i) => `Wort${i}`).join(' ');
    long.invoiceLine[1].itemInformation.itemDescription = `${words} ENDE`;
    const { pages, text } = await render(parse(long), 'de-standard');
    expect(pages).toBeGreaterThan(2);
    expect(text.join(' ')).toContain('Wort1499 ENDE');
    expect(text.join(' ')).toContain('Tonerkartusche');
  });
});

describe('text the fonts cannot show', () => {
  it('prints ? instead of a missing glyph, and keeps everything DejaVu covers', async () => {
    const odd = structuredClone(fixture);
    odd.buyer.buyerName = 'Ωmega Σ Łódź Привет 株式会社 🚀';
    const { text } = await render(parse(odd), 'en-standard');
    expect(text[0]).toContain('Ωmega Σ Łódź Привет ???? ?');
  });
});

describe.skipIf(!veraPdfAvailable())('veraPDF', () => {
  it('judges every PDF rendered above PDF/A-3b', async () => {
    expect(rendered.length).toBeGreaterThanOrEqual(5);
    for (const v of await runVeraPdf(rendered)) expect(v.compliant, `${v.file}: ${JSON.stringify(v.failedRules)}`).toBe(true);
  }, 300_000);
});
