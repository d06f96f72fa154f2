import { Decimal } from 'decimal.js';

/**
 * Long invoices for the template tests and the benchmark: the lines of a fixture repeated (with
 * some longer texts, so rows differ in height) up to `lineCount`, and every total and the VAT
 * breakdown recomputed, so that the result still passes the EN 16931 rules.
 */

type Json = Record<string, any>;

const DETAILS = [
  'Lieferung frei Haus, inklusive Verpackung und Entsorgung des Altmaterials gemäß Rahmenvertrag.',
  'Wartung und Prüfung nach Herstellervorgaben; Prüfprotokoll liegt der Lieferung bei.',
  '',
];

export function invoiceWithLines(fixture: Json, lineCount: number): Json {
  if (fixture.documentLevelAllowances?.length || fixture.documentLevelCharges?.length || fixture.documentTotals?.paidAmount) {
    throw new Error('invoiceWithLines recomputes totals only for invoices without document-level allowances, charges or prepayments');
  }
  const base = fixture.invoiceLine as Json[];
  const lines = Array.from({ length: lineCount }, (_, i) => {
    const line = structuredClone(base[i % base.length]!);
    line.invoiceLineIdentifier = String(i + 1);
    const detail = DETAILS[i % DETAILS.length];
    if (detail) line.itemInformation = { ...line.itemInformation, itemDescription: detail, itemSellersIdentifier: `ART-${1000 + i}` };
    return line;
  });
  const groups = new Map<string, { code: string; rate: string; taxable: Decimal }>();
  for (const line of lines) {
    const vat = line.lineVatInformation[0];
    const key = `${vat.invoicedItemVatCategoryCode}/${vat.invoicedItemVatRate}`;
    const group = groups.get(key) ?? { code: vat.invoicedItemVatCategoryCode, rate: vat.invoicedItemVatRate, taxable: new Decimal(0) };
    group.taxable = group.taxable.plus(line.invoiceLineNetAmount);
    groups.set(key, group);
  }
  const vatBreakdown = [...groups.values()].map((g) => ({
    vatCategoryTaxableAmount: g.taxable.toFixed(2),
    vatCategoryTaxAmount: g.taxable.times(g.rate).dividedBy(100).toDecimalPlaces(2, Decimal.ROUND_HALF_UP).toFixed(2),
    vatCategoryCode: g.code,
    vatCategoryRate: g.rate,
  }));
  const net = lines.reduce((s, l) => s.plus(l.invoiceLineNetAmount), new Decimal(0));
  const vat = vatBreakdown.reduce((s, v) => s.plus(v.vatCategoryTaxAmount), new Decimal(0));
  return {
    ...fixture,
    invoiceLine: lines,
    vatBreakdown,
    documentTotals: {
      sumOfInvoiceLineNetAmount: net.toFixed(2),
      invoiceTotalAmountWithoutVat: net.toFixed(2),
      invoiceTotalVatAmount: vat.toFixed(2),
      invoiceTotalAmountWithVat: net.plus(vat).toFixed(2),
      amountDueForPayment: net.plus(vat).toFixed(2),
    },
  };
}
