import { catalog } from '../invoice/catalog.js';
import type { Invoice } from '../invoice/model.js';
import { termName } from '../invoice/term-names.js';
import { createFormatter, type Formatter } from '../render/format.js';
import { isCreditNoteType } from '../xml/codes.js';
import { esc, factsList, htmlDocument } from './html.js';
import { LOCALE, type Language } from './language.js';
import { TEXT } from './text.js';

/**
 * An e-invoice as people read it: parties, lines, VAT and totals in tables, and every other
 * business term the document carries listed with its BT number, so nothing in the XML is hidden.
 * Dates and amounts in the reader's locale, amounts exactly as written (no floating point).
 */

const FIELDS = new Map(catalog.map((f) => [f.path, f]));

type Row = readonly [string, string];

/** Every leaf under `value`, as "Name of the term (BT-n)" in the reader's language and its formatted value. */
function termRows(value: unknown, path: string, fmt: Formatter, lang: Language, rows: Row[] = []): Row[] {
  if (value === undefined || value === null) return rows;
  if (Array.isArray(value)) {
    const field = FIELDS.get(path);
    if (field?.list) rows.push([labelOf(path, lang), value.map(String).join(', ')]);
    else for (const item of value) termRows(item, `${path}[]`, fmt, lang, rows);
    return rows;
  }
  if (typeof value === 'object') {
    for (const [key, child] of Object.entries(value)) termRows(child, path ? `${path}.${key}` : key, fmt, lang, rows);
    return rows;
  }
  const field = FIELDS.get(path);
  const text = String(value);
  rows.push([labelOf(path, lang), field?.kind === 'date' ? fmt.date(text) : field?.kind === 'decimal' ? fmt.quantity(text) : text]);
  return rows;
}

function labelOf(path: string, lang: Language): string {
  const bt = FIELDS.get(path)?.bt;
  return bt ? `${termName(bt, lang)} (${bt})` : path;
}

const section = (title: string, body: string) => (body ? `<section><h2>${esc(title)}</h2>${body}</section>` : '');
const facts = (rows: Row[]) => (rows.length ? factsList(rows) : '');

function table(caption: string, head: Array<[string, boolean]>, rows: string[][]): string {
  if (!rows.length) return '';
  return `<table><caption class="sr-only">${esc(caption)}</caption><thead><tr>${head.map(([h, num]) => `<th scope="col"${num ? ' class="num"' : ''}>${esc(h)}</th>`).join('')}</tr></thead><tbody>${rows
    .map((r) => `<tr>${r.map((cell, i) => `<td${head[i]?.[1] ? ' class="num"' : ''}>${cell}</td>`).join('')}</tr>`)
    .join('')}</tbody></table>`;
}

const HEADER_KEYS = new Set([
  'seller',
  'buyer',
  'payee',
  'sellerTaxRepresentativeParty',
  'deliveryInformation',
  'paymentInstructions',
  'documentLevelAllowances',
  'documentLevelCharges',
  'documentTotals',
  'vatBreakdown',
  'invoiceLine',
  'additionalSupportingDocuments',
]);

/** What every part of the view formats with: the reader's words, locale and the invoice's currency. */
interface View {
  t: (typeof TEXT)[Language]['invoice'];
  fmt: Formatter;
  money: (v: string | undefined) => string;
  terms: (value: unknown, path: string) => Row[];
}

export function invoiceFragment(invoice: Invoice, lang: Language): string {
  const fmt = createFormatter(LOCALE[lang], invoice.invoiceCurrencyCode ?? 'EUR', 'medium');
  const view: View = {
    t: TEXT[lang].invoice,
    fmt,
    money: (v) => (v === undefined ? '' : esc(fmt.money(v))),
    terms: (value, path) => termRows(value, path, fmt, lang),
  };
  const { t, terms } = view;
  const header = Object.fromEntries(Object.entries(invoice).filter(([k]) => !HEADER_KEYS.has(k)));
  const title = `${isCreditNoteType(invoice.invoiceTypeCode) ? t.creditNote : t.title} ${invoice.invoiceNumber ?? ''}`.trim();
  const totals = Object.entries(invoice.documentTotals ?? {}).map(([k, v]): Row => [
    labelOf(`documentTotals.${k}`, lang),
    fmt.money(String(v)),
  ]);

  return `<h1>${esc(title)}</h1>
${facts(terms(header, ''))}
<div class="parties">${section(t.seller, facts(terms(invoice.seller, 'seller')))}${section(t.buyer, facts(terms(invoice.buyer, 'buyer')))}</div>
${section(t.payee, facts(terms(invoice.payee, 'payee')))}
${section(t.taxRepresentative, facts(terms(invoice.sellerTaxRepresentativeParty, 'sellerTaxRepresentativeParty')))}
${section(t.delivery, facts(terms(invoice.deliveryInformation, 'deliveryInformation')))}
${linesSection(invoice, view)}
${section(t.allowancesCharges, facts([...terms(invoice.documentLevelAllowances, 'documentLevelAllowances'), ...terms(invoice.documentLevelCharges, 'documentLevelCharges')]))}
${vatSection(invoice, view)}
${section(t.totals, facts(totals))}
${section(t.payment, facts(terms(invoice.paymentInstructions, 'paymentInstructions')))}
${section(t.other, facts(terms(supportingDocuments(invoice), 'additionalSupportingDocuments')))}`;
}

/** The line table, then under it what the table does not show of each line. */
function linesSection(invoice: Invoice, view: View): string {
  const { t } = view;
  const lines = invoice.invoiceLine ?? [];
  return section(
    t.lines,
    table(
      t.lines,
      [
        [t.position, false],
        [t.item, false],
        [t.quantity, true],
        [t.unitPrice, true],
        [t.vatRate, true],
        [t.netAmount, true],
      ],
      lines.map((l) => lineCells(l, view)),
    ) + lines.map((l) => lineDetails(l, view)).join(''),
  );
}

type Line = NonNullable<Invoice['invoiceLine']>[number];

function lineCells(l: Line, { fmt, money }: View): string[] {
  return [
    esc(l.invoiceLineIdentifier ?? ''),
    `${esc(l.itemInformation?.itemName ?? '')}${l.itemInformation?.itemDescription ? `<br><span class="note">${esc(l.itemInformation.itemDescription)}</span>` : ''}`,
    esc([l.invoicedQuantity && fmt.quantity(l.invoicedQuantity), l.invoicedQuantityUnitOfMeasureCode].filter(Boolean).join(' ')),
    l.priceDetails?.itemNetPrice ? esc(fmt.price(l.priceDetails.itemNetPrice)) : '',
    esc(
      (l.lineVatInformation ?? [])
        .map((v) => [v.invoicedItemVatCategoryCode, v.invoicedItemVatRate && fmt.percent(v.invoicedItemVatRate)].filter(Boolean).join(' '))
        .join(', '),
    ),
    money(l.invoiceLineNetAmount),
  ];
}

/** What the table does not show of a line (periods, allowances, identifiers, notes). */
function lineDetails(l: Line, { t, terms }: View): string {
  const { invoiceLineIdentifier: _id, invoicedQuantity: _q, invoicedQuantityUnitOfMeasureCode: _u, invoiceLineNetAmount: _n, ...rest } = l;
  const rows = terms(
    {
      ...rest,
      itemInformation: { ...rest.itemInformation, itemName: undefined, itemDescription: undefined },
      priceDetails: { ...rest.priceDetails, itemNetPrice: undefined },
      lineVatInformation: undefined,
    },
    'invoiceLine[]',
  );
  return rows.length ? `<h3>${esc(t.position)} ${esc(l.invoiceLineIdentifier ?? '')}</h3>${facts(rows)}` : '';
}

/** The VAT breakdown's table, then its exemption reasons. */
function vatSection(invoice: Invoice, { t, fmt, money, terms }: View): string {
  const breakdown = invoice.vatBreakdown ?? [];
  const rows = breakdown.map((v) => [
    esc(v.vatCategoryCode ?? ''),
    esc(v.vatCategoryRate ? fmt.percent(v.vatCategoryRate) : ''),
    money(v.vatCategoryTaxableAmount),
    money(v.vatCategoryTaxAmount),
  ]);
  const reasons = breakdown.map((v) => ({
    vatExemptionReasonText: v.vatExemptionReasonText,
    vatExemptionReasonCode: v.vatExemptionReasonCode,
  }));
  return section(
    t.vatBreakdown,
    table(
      t.vatBreakdown,
      [
        [t.category, false],
        [t.vatRate, true],
        [t.taxable, true],
        [t.tax, true],
      ],
      rows,
    ) + facts(terms(reasons, 'vatBreakdown')),
  );
}

/** Attached files are named by their size, not printed. */
function supportingDocuments(invoice: Invoice) {
  return invoice.additionalSupportingDocuments?.map((d) => ({
    ...d,
    attachedDocument: d.attachedDocument ? `(${Math.round((d.attachedDocument.length * 3) / 4 / 1024)} KiB)` : undefined,
  }));
}

export const invoiceHtml = (invoice: Invoice, lang: Language): string =>
  htmlDocument(lang, `${TEXT[lang].invoice.title} ${invoice.invoiceNumber ?? ''}`.trim(), invoiceFragment(invoice, lang));
