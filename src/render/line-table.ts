import { Decimal } from '../invoice/decimal.js';
import type { InvoiceLine } from '../invoice/model.js';
import type { RenderContext } from './context.js';
import { negate } from './format.js';
import type { Align, TextLine } from './layout.js';
import { fill, type LineColumn, type Template } from './template.js';

/**
 * The invoice lines as a table that runs over as many pages as it needs. Every page repeats
 * the column header; a page that the table leaves ends with its page total and the amount
 * carried forward, and the next page starts with the amount brought forward, so each page
 * can be checked on its own. A row taller than a page is split between pages.
 */

const PAD_X = 2;
const PAD_Y = 2;
const NUMERIC: ReadonlySet<LineColumn> = new Set(['quantity', 'unitPrice', 'vatRate', 'netAmount']);

export interface Column {
  field: LineColumn;
  x: number;
  width: number;
  align: Align;
}

export interface Row {
  cells: TextLine[][];
  /** Net amount of the line (BT-131), counted in the page total of the page the row starts on. */
  amount?: string;
}

/** Relative widths → points across the content width. */
export function layoutColumns(columns: Template['lineColumns'], width: number): Column[] {
  const total = columns.reduce((s, c) => s + c.width, 0);
  let x = 0;
  return columns.map((c) => {
    const column: Column = { field: c.field, x, width: (c.width / total) * width, align: NUMERIC.has(c.field) ? 'right' : 'left' };
    x += column.width;
    return column;
  });
}

/** Splits a row so that its first part is at most `height` tall; undefined head when not even one line fits. */
export function splitRow(row: Row, height: number, lineHeights: (lines: readonly TextLine[]) => number): { head?: Row; tail?: Row } {
  const room = height - 2 * PAD_Y;
  const counts = row.cells.map((cell) => {
    let n = 0;
    while (n < cell.length && lineHeights(cell.slice(0, n + 1)) <= room) n++;
    return n;
  });
  const hasHead = counts.some((n) => n > 0);
  const hasTail = row.cells.some((cell, i) => cell.length > counts[i]!);
  return {
    ...(hasHead
      ? {
          head: {
            cells: row.cells.map((cell, i) => cell.slice(0, counts[i])),
            ...(row.amount !== undefined ? { amount: row.amount } : {}),
          },
        }
      : {}),
    ...(hasTail ? { tail: { cells: row.cells.map((cell, i) => cell.slice(counts[i])) } } : {}),
  };
}

export function drawLineTable(ctx: RenderContext): void {
  const { flow, invoice, labels, styles } = ctx;
  const lines = invoice.invoiceLine ?? [];
  if (lines.length === 0) return;
  const columns = layoutColumns(ctx.template.lineColumns, flow.width);
  const amountColumn = columns.find((c) => c.field === 'netAmount');
  const header = columns.map((c) => flow.wrap(labels[c.field], styles.tableHeader, c.width - 2 * PAD_X));
  const rows = lines.map((line, i) => buildRow(ctx, columns, line, i));
  const rowHeight = (row: Row) => Math.max(...row.cells.map((c) => flow.heightOf(c))) + 2 * PAD_Y;
  const headerHeight = rowHeight({ cells: header });
  const sumRowHeight = flow.lineHeight(styles.body) + 2 * PAD_Y;
  // Page totals need the amount column; without it a page break just repeats the header.
  const endReserve = amountColumn ? 2 * sumRowHeight : 0;

  let pageTotal = new Decimal(0);
  let carried = new Decimal(0);
  let rowsOnPage = 0;

  const drawRow = (row: Row, background?: 'tableHeaderBackground') => {
    const height = rowHeight(row);
    if (background) flow.fillRect(flow.geo.left, flow.y, flow.width, height, background);
    row.cells.forEach((cell, i) => {
      const c = columns[i]!;
      flow.drawLines(cell, flow.geo.left + c.x + PAD_X, flow.y + PAD_Y, c.width - 2 * PAD_X, c.align);
    });
    flow.gap(height);
    flow.rule(flow.geo.left, flow.geo.right, flow.y, 'rule', 0.4);
  };
  const drawSum = (label: string, amount: Decimal) => {
    if (!amountColumn) return;
    const style = styles.bold;
    flow.drawLines([{ text: label, style }], flow.geo.left + PAD_X, flow.y + PAD_Y, amountColumn.x - 2 * PAD_X, 'right');
    flow.drawLines(
      [{ text: ctx.fmt.money(amount.toString()), style }],
      flow.geo.left + amountColumn.x + PAD_X,
      flow.y + PAD_Y,
      amountColumn.width - 2 * PAD_X,
      'right',
    );
    flow.gap(sumRowHeight);
  };
  const drawLine = (row: Row) => {
    drawRow(row);
    rowsOnPage++;
    if (row.amount !== undefined) {
      pageTotal = pageTotal.plus(row.amount);
      carried = carried.plus(row.amount);
    }
  };
  const pageBreak = () => {
    const page = flow.pages.length;
    drawSum(fill(labels.pageSubtotal, { page }), pageTotal);
    drawSum(labels.carriedForward, carried);
    flow.addPage();
    drawRow({ cells: header }, 'tableHeaderBackground');
    drawSum(fill(labels.broughtForward, { page }), carried);
    pageTotal = new Decimal(0);
    rowsOnPage = 0;
  };

  // The header never stands alone at the bottom of a page: it keeps (part of) the first row with it.
  flow.keep(headerHeight + Math.min(rowHeight(rows[0]!), 4 * flow.lineHeight(styles.body)) + endReserve);
  drawRow({ cells: header }, 'tableHeaderBackground');
  rows.forEach((first, i) => {
    const last = i === rows.length - 1;
    let row: Row | undefined = first;
    while (row) {
      if (rowHeight(row) <= flow.room - (last ? 0 : endReserve)) {
        drawLine(row);
        return;
      }
      if (rowsOnPage > 0) {
        pageBreak();
        continue;
      }
      const { head, tail } = splitRow(row, flow.room - endReserve, (l) => flow.heightOf(l));
      if (!head) throw new Error('The template leaves no room for a single table line on a page');
      drawLine(head);
      pageBreak();
      row = tail;
    }
  });
  flow.gap(6);
}

function buildRow(ctx: RenderContext, columns: Column[], line: InvoiceLine, index: number): Row {
  const shown = new Set(columns.map((c) => c.field));
  return {
    cells: columns.map((c) => cellLines(ctx, c, line, index, shown)),
    ...(line.invoiceLineNetAmount !== undefined ? { amount: line.invoiceLineNetAmount } : {}),
  };
}

function cellLines(ctx: RenderContext, column: Column, line: InvoiceLine, index: number, shown: ReadonlySet<LineColumn>): TextLine[] {
  const { flow, fmt, labels, styles } = ctx;
  const width = column.width - 2 * PAD_X;
  const text = (value: string | undefined, style = styles.body) => (value ? flow.wrap(value, style, width) : []);
  const price = line.priceDetails;
  const vat = line.lineVatInformation?.[0];
  const unitName = (code: string | undefined) => (code ? (labels.units[code] ?? code) : undefined);
  switch (column.field) {
    case 'position':
      return text(line.invoiceLineIdentifier ?? String(index + 1));
    case 'item':
      return itemLines(ctx, line, width, shown);
    case 'sellerItemId':
      return text(line.itemInformation?.itemSellersIdentifier);
    case 'quantity':
      return text(line.invoicedQuantity && fmt.quantity(line.invoicedQuantity));
    case 'unit':
      return text(unitName(line.invoicedQuantityUnitOfMeasureCode));
    case 'unitPrice': {
      const base = price?.itemPriceBaseQuantity;
      const per =
        base && !new Decimal(base).eq(1)
          ? fill(labels.pricePer, {
              quantity: fmt.quantity(base),
              unit: unitName(price?.itemPriceBaseQuantityUnitOfMeasure ?? line.invoicedQuantityUnitOfMeasureCode) ?? '',
            }).trim()
          : undefined;
      return [...text(price?.itemNetPrice && fmt.price(price.itemNetPrice)), ...text(per, styles.muted)];
    }
    case 'vatRate': {
      const rate = vat?.invoicedItemVatRate === undefined ? undefined : fmt.percent(vat.invoicedItemVatRate);
      const category =
        vat?.invoicedItemVatCategoryCode && vat.invoicedItemVatCategoryCode !== 'S' ? vat.invoicedItemVatCategoryCode : undefined;
      return text([rate, category].filter(Boolean).join(' '));
    }
    case 'netAmount':
      return text(line.invoiceLineNetAmount && fmt.money(line.invoiceLineNetAmount));
  }
}

/** Name, description, then the details that qualify the line (identifier, period, note, allowances and charges). */
function itemLines(ctx: RenderContext, line: InvoiceLine, width: number, shown: ReadonlySet<LineColumn>): TextLine[] {
  const { flow, fmt, labels, styles } = ctx;
  const item = line.itemInformation;
  const period = line.invoiceLinePeriod;
  const percent = (p: string | undefined) => (p === undefined ? '' : ` ${fmt.percent(p)}`);
  const details = [
    !shown.has('sellerItemId') && item?.itemSellersIdentifier ? `${labels.sellerItemId}: ${item.itemSellersIdentifier}` : undefined,
    period
      ? `${labels.linePeriod}: ${[period.invoiceLinePeriodStartDate, period.invoiceLinePeriodEndDate]
          .filter(Boolean)
          .map((d) => fmt.date(d!))
          .join(' – ')}`
      : undefined,
    line.invoiceLineNote,
    ...(line.invoiceLineAllowances ?? []).map((a) =>
      a.invoiceLineAllowanceAmount === undefined
        ? undefined
        : `${labels.lineAllowance}${a.invoiceLineAllowanceReason ? ` ${a.invoiceLineAllowanceReason}` : ''}${percent(a.invoiceLineAllowancePercentage)}: ${fmt.money(negate(a.invoiceLineAllowanceAmount))}`,
    ),
    ...(line.invoiceLineCharges ?? []).map((c) =>
      c.invoiceLineChargeAmount === undefined
        ? undefined
        : `${labels.lineCharge}${c.invoiceLineChargeReason ? ` ${c.invoiceLineChargeReason}` : ''}${percent(c.invoiceLineChargePercentage)}: ${fmt.money(c.invoiceLineChargeAmount)}`,
    ),
  ];
  return [
    ...(item?.itemName ? flow.wrap(item.itemName, styles.bold, width) : []),
    ...(item?.itemDescription ? flow.wrap(item.itemDescription, styles.small, width) : []),
    ...details.flatMap((d) => (d ? flow.wrap(d, styles.muted, width) : [])),
  ];
}
