import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { invoiceSchema, type Invoice } from '../../src/invoice/model.js';
import { invoiceWithLines } from '../../scripts/lib/sample-invoices.js';
import { vatIdChecked } from '../../src/analysis/identifiers.js';
import {
  FAMILIES,
  HELD_OUT,
  generateInvoicePdf,
  layoutSpec,
  readSeedList,
  renderInvoice,
  withoutPlaceholders,
  type Family,
} from '../../scripts/lib/synthetic-invoices.js';

const fixture = (name: string) => JSON.parse(readFileSync(path.resolve(import.meta.dirname, `../fixtures/invoices/${name}.json`), 'utf8'));
const invoiceOf = (name: string): Invoice => invoiceSchema.parse(fixture(name));

async function pageText(pdf: Uint8Array): Promise<string[]> {
  return (await extractTextLayer(pdf)).map((p) =>
    [...p.words]
      .sort((a, b) => a.y - b.y || a.x - b.x)
      .map((w) => w.text)
      .join(' '),
  );
}

/** An amount as any of the generated number formats writes it: 2155.32 → 2.155,32 / 2,155.32 / 2 155,32 / 2155,32. */
const amountPattern = (amount: string) => {
  const [int, frac] = amount.split('.') as [string, string];
  return new RegExp(`(?<![\\d])${int.replace(/\B(?=(\d{3})+(?!\d))/g, "[.,' ]?")}[.,]${frac}(?!\\d)`);
};

/** Every leaf of `printed` is the invoice's own value at the same path: the truth is what was printed, nothing else. */
function leaves(value: unknown, at = ''): Array<[string, unknown]> {
  if (Array.isArray(value)) return value.flatMap((v, i) => leaves(v, `${at}[${i}]`));
  if (value && typeof value === 'object') return Object.entries(value).flatMap(([k, v]) => leaves(v, at ? `${at}.${k}` : k));
  return [[at, value]];
}
const valueAt = (target: unknown, p: string) =>
  p
    .split(/\.|(?=\[)/)
    .reduce<unknown>((node, part) => (node as Record<string, unknown> | undefined)?.[part.replace(/^\[(\d+)\]$/, '$1')], target);

describe('synthetic invoices', () => {
  it('renders every family, and the page shows the invoice number and the gross total', async () => {
    const invoice = invoiceOf('02-mixed-19-7');
    for (const [i, family] of FAMILIES.entries()) {
      const g = await generateInvoicePdf(invoice, family, 7 + i);
      const text = (await pageText(g.pdf)).join('\n');
      expect(text.replace(/\s+/g, ''), family).toContain(invoice.invoiceNumber);
      expect(text, family).toMatch(amountPattern(invoice.documentTotals!.invoiceTotalAmountWithVat!));
      expect(g.printed.invoiceNumber, family).toBe(invoice.invoiceNumber);
      expect(g.printed.documentTotals?.invoiceTotalAmountWithVat, family).toBe(invoice.documentTotals!.invoiceTotalAmountWithVat);
      for (const [p, v] of leaves(g.printed)) expect(valueAt(invoice, p), `${family} ${p}`).toBe(v);
    }
  });

  it('is deterministic: the same seed gives the same page, other seeds other layouts', async () => {
    const invoice = invoiceOf('08-allowances-charges-mixed-vat');
    // A seed whose spec uses a standard PDF font gives the same bytes (embedded TrueType subsets get random names).
    const standard = Array.from({ length: 50 }, (_, s) => s).find((s) =>
      ['Helvetica', 'Times', 'Courier'].includes(layoutSpec('din5008', s).font),
    )!;
    const [a, b] = await Promise.all([generateInvoicePdf(invoice, 'din5008', standard), generateInvoicePdf(invoice, 'din5008', standard)]);
    expect(Buffer.from(a.pdf).equals(Buffer.from(b.pdf))).toBe(true);
    const dejavu = Array.from({ length: 50 }, (_, s) => s).find((s) => layoutSpec('fr-facture', s).font.startsWith('DejaVu'))!;
    const [c, d] = await Promise.all([
      generateInvoicePdf(invoice, 'fr-facture', dejavu),
      generateInvoicePdf(invoice, 'fr-facture', dejavu),
    ]);
    expect(await pageText(c.pdf)).toEqual(await pageText(d.pdf));
    expect(c.printed).toEqual(d.printed);
    const specs = new Set(Array.from({ length: 8 }, (_, s) => JSON.stringify(layoutSpec('modern-summary', s))));
    expect(specs.size).toBe(8);
  });

  it('breaks a long line table across pages and repeats its header', async () => {
    const invoice = invoiceSchema.parse(invoiceWithLines(fixture('01-standard-19'), 70));
    const spec = { ...layoutSpec('en-billto', 3), rowsPerPage: undefined };
    const g = await renderInvoice(invoice, spec);
    expect(g.pages).toBeGreaterThan(1);
    const pages = await pageText(g.pdf);
    for (const page of pages.slice(0, -1)) expect(page).toContain(spec.labels.desc);
    expect(g.printed.invoiceLine).toHaveLength(70);
    expect(g.printed.invoiceLine!.every((l) => l.invoiceLineNetAmount !== undefined)).toBe(true);
  });

  it('a credit note is titled as one, in the page language', async () => {
    const invoice = invoiceOf('03-credit-note-381');
    const g = await generateInvoicePdf(invoice, 'din5008', 1);
    expect((await pageText(g.pdf)).join(' ')).toMatch(/GUTSCHRIFT|Gutschrift/);
    expect(g.printed.invoiceTypeCode).toBe('381');
  });

  it('the seed list names known families and marks the held-out ones', () => {
    const list = readSeedList(path.resolve(import.meta.dirname, '../../scripts/synthetic-seeds.json'));
    expect(list.items.length).toBeGreaterThanOrEqual(150);
    expect(new Set(list.items.map((i) => i.family))).toEqual(new Set(FAMILIES));
    expect(new Set(list.heldOut)).toEqual(new Set<Family>(HELD_OUT));
    expect(new Set(list.items.map((i) => `${i.family}:${i.seed}`)).size).toBe(list.items.length);
  });

  it("replaces the testsuite's placeholders (and labels given as values) by values of their kind, the same placeholder by the same value, and nothing else", () => {
    const invoice = invoiceOf('01-standard-19');
    invoice.seller!.sellerName = '[Seller name]';
    invoice.seller!.sellerPostalAddress = {
      ...invoice.seller!.sellerPostalAddress!,
      sellerCity: '[Seller city]',
      sellerAddressLine1: '[Seller address line 1]',
    };
    invoice.payee = { payeeName: '[Seller name]' };
    invoice.buyer!.buyerVatIdentifier = 'DE136695976';
    invoice.invoiceNumber = 'Rechnungsnummer';
    const real = withoutPlaceholders(invoice, 7);
    const name = real.seller!.sellerName!;
    expect(name).toMatch(/^\p{Lu}\p{L}+ \p{L}+ (?:GmbH|GmbH & Co\. KG|AG|KG|e\.K\.|OHG|UG \(haftungsbeschränkt\))$/u);
    expect(real.payee?.payeeName).toBe(name);
    expect(real.seller!.sellerPostalAddress?.sellerAddressLine1).toMatch(/^\p{L}[\p{L} ]+ \d+$/u);
    expect(real.seller!.sellerPostalAddress?.sellerCity).not.toMatch(/[[\]]/);
    expect(real.invoiceNumber).toMatch(/^[A-Z-]*\d{4}-\d+$/);
    expect(real.buyer).toEqual(invoice.buyer);
    expect(real.invoiceLine).toEqual(invoice.invoiceLine);
    expect(withoutPlaceholders(invoice, 7)).toEqual(real);
  });

  it('gives a made-up VAT id that fails its check digits a well-formed one of the same country, and keeps a real one', () => {
    const invoice = invoiceOf('01-standard-19');
    invoice.seller!.sellerVatIdentifier = 'ATU123456789';
    invoice.buyer!.buyerVatIdentifier = 'DE136695976';
    const real = withoutPlaceholders(invoice, 7);
    const id = real.seller!.sellerVatIdentifier!;
    expect(id).toMatch(/^ATU\d{8}$/);
    expect(vatIdChecked(id)).toBe(true);
    expect(real.buyer!.buyerVatIdentifier).toBe('DE136695976');
    expect(withoutPlaceholders(invoice, 7).seller!.sellerVatIdentifier).toBe(id);
    expect({ ...real, seller: { ...real.seller, sellerVatIdentifier: 'ATU123456789' } }).toEqual(invoice);
  });
});
