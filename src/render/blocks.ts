import type { Invoice } from '../invoice/model.js';
import { documentTitle, type RenderContext } from './context.js';
import { formatIban, negate } from './format.js';
import { epcPaymentOf, epcPayload, qrMatrix } from './girocode.js';
import { MM, type Flow, type TextLine, type TextStyle, type Typesetter } from './layout.js';
import { drawLineTable } from './line-table.js';
import { fill, type BlockId } from './template.js';

/** The blocks a template can order; each draws at the flow's position and leaves it below itself. */
export const BLOCK_RENDERERS: Record<BlockId, (ctx: RenderContext) => void> = {
  header: drawHeader,
  addresses: drawAddresses,
  title: drawTitle,
  notes: drawNotes,
  lines: drawLineTable,
  totals: drawTotals,
  vatBreakdown: drawVatBreakdown,
  payment: drawPayment,
};

const GAP = 4 * MM;
const present = <T>(v: T | undefined | null | '' | false): v is T => v !== undefined && v !== null && v !== '' && v !== false;

// ---------------------------------------------------------------- addresses

type AddressPrefix = 'seller' | 'buyer' | 'deliverTo' | 'taxRepresentative';

/** Address lines of any party: the model names the same fields per party (sellerCity, buyerCity, …). */
export function addressLines(address: object | undefined, prefix: AddressPrefix, locale: string, omitCountry?: string): string[] {
  if (!address) return [];
  const a = address as Record<string, string | undefined>;
  const field = (name: string) => a[`${prefix}${name}`];
  const country = field('CountryCode');
  return [
    field('AddressLine1'),
    field('AddressLine2'),
    field('AddressLine3'),
    [field('PostCode'), field('City')].filter(present).join(' '),
    field('CountrySubdivision'),
    country && country !== omitCountry ? countryName(country, locale) : undefined,
  ].filter(present);
}

function countryName(code: string, locale: string): string {
  try {
    return new Intl.DisplayNames([locale], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}

// ---------------------------------------------------------------- header, addresses, title

function drawHeader(ctx: RenderContext): void {
  const { flow, invoice, template, logo, styles } = ctx;
  const seller = invoice.seller;
  const half = flow.width / 2;
  const lines: TextLine[] = [
    ...(seller?.sellerName ? flow.wrap(seller.sellerName, styles.heading, half) : []),
    ...(seller?.sellerTradingName ? flow.wrap(seller.sellerTradingName, styles.muted, half) : []),
    ...addressLines(seller?.sellerPostalAddress, 'seller', template.locale, invoice.buyer?.buyerPostalAddress?.buyerCountryCode).flatMap(
      (l) => flow.wrap(l, styles.muted, half),
    ),
  ];
  const logoSize =
    logo && template.logo ? { width: template.logo.width * MM, height: (template.logo.width * MM * logo.height) / logo.width } : undefined;
  const height = Math.max(flow.heightOf(lines), logoSize?.height ?? 0);
  flow.keep(height);
  const logoLeft = template.logo?.align === 'left';
  if (logo && logoSize) {
    const x = logoLeft ? flow.geo.left : flow.geo.right - logoSize.width;
    flow.page.drawImage(logo, { x, y: flow.geo.pageHeight - flow.y - logoSize.height, ...logoSize });
  }
  flow.drawLines(lines, logoLeft ? flow.geo.right - half : flow.geo.left, flow.y, half, logoLeft ? 'right' : 'left');
  flow.gap(height + GAP * 2);
}

/** Buyer address (with the sender line of window envelopes) on the left, the invoice's key facts on the right. */
function drawAddresses(ctx: RenderContext): void {
  const { flow, invoice, template, styles, labels } = ctx;
  const leftWidth = flow.width * 0.5;
  const rightWidth = flow.width * 0.45;
  const seller = invoice.seller;
  const buyer = invoice.buyer;
  const sellerCountry = seller?.sellerPostalAddress?.sellerCountryCode;
  const sender = [
    seller?.sellerName,
    ...addressLines(seller?.sellerPostalAddress, 'seller', template.locale, buyer?.buyerPostalAddress?.buyerCountryCode),
  ]
    .filter(present)
    .join(' · ');
  const senderLines = sender ? flow.wrap(sender, { ...styles.muted, size: (styles.muted.size ?? flow.bodySize) * 0.9 }, leftWidth) : [];
  const recipient = [
    buyer?.buyerName,
    buyer?.buyerContact?.buyerContactPoint,
    ...addressLines(buyer?.buyerPostalAddress, 'buyer', template.locale, sellerCountry),
  ].filter(present);
  const delivery = invoice.deliveryInformation;
  const deliveryLines = delivery?.deliverToAddress
    ? [
        labels.deliverTo,
        ...[delivery.deliverToPartyName, ...addressLines(delivery.deliverToAddress, 'deliverTo', template.locale, sellerCountry)].filter(
          present,
        ),
      ]
    : [];
  const left: TextLine[] = [
    ...recipient.flatMap((l, i) => flow.wrap(l, i === 0 ? styles.bold : styles.body, leftWidth)),
    ...(deliveryLines.length
      ? [
          { text: '', style: styles.small },
          ...deliveryLines.flatMap((l, i) => flow.wrap(l, i === 0 ? { ...styles.muted, bold: true } : styles.small, leftWidth)),
        ]
      : []),
  ];
  const facts = keyFacts(ctx);
  const labelWidth = rightWidth * 0.48;
  const right = facts.map(([label, value]) => ({
    label: flow.wrap(label, styles.muted, labelWidth - 4),
    value: flow.wrap(value, styles.small, rightWidth - labelWidth),
  }));
  const senderHeight = flow.heightOf(senderLines) + (senderLines.length ? 2 : 0);
  const rightHeight = right.reduce((h, r) => h + Math.max(flow.heightOf(r.label), flow.heightOf(r.value)), 0);
  const height = Math.max(senderHeight + flow.heightOf(left), rightHeight);
  flow.keep(height);

  const top = flow.y;
  flow.drawLines(senderLines, flow.geo.left, top, leftWidth);
  if (senderLines.length) flow.rule(flow.geo.left, flow.geo.left + leftWidth, top + senderHeight - 1, 'rule', 0.4);
  flow.drawLines(left, flow.geo.left, top + senderHeight, leftWidth);
  let y = top;
  const x = flow.geo.right - rightWidth;
  for (const row of right) {
    flow.drawLines(row.label, x, y, labelWidth);
    flow.drawLines(row.value, x + labelWidth, y, rightWidth - labelWidth, 'right');
    y += Math.max(flow.heightOf(row.label), flow.heightOf(row.value));
  }
  flow.gap(height + GAP);
}

/** Label → value pairs of the invoice's identifying facts, in the order people look for them. */
function keyFacts({ invoice, labels, fmt }: RenderContext): Array<[string, string]> {
  const date = (d: string | undefined) => (d ? fmt.date(d) : undefined);
  const period = invoice.invoicingPeriod;
  const project = invoice.projectReference;
  const facts: Array<[string, string | undefined]> = [
    [labels.invoiceNumber, invoice.invoiceNumber],
    [labels.issueDate, date(invoice.invoiceIssueDate)],
    [labels.taxPointDate, date(invoice.valueAddedTaxPointDate)],
    [labels.deliveryDate, date(invoice.deliveryInformation?.actualDeliveryDate)],
    [
      labels.servicePeriod,
      period ? [date(period.invoicingPeriodStartDate), date(period.invoicingPeriodEndDate)].filter(present).join(' – ') : undefined,
    ],
    [labels.dueDate, date(invoice.paymentDueDate)],
    [labels.customerNumber, invoice.buyer?.buyerIdentifier],
    [labels.buyerReference, invoice.buyerReference],
    [labels.purchaseOrder, invoice.purchaseOrderReference],
    [labels.salesOrder, invoice.salesOrderReference],
    [labels.contract, invoice.contractReference],
    [labels.project, project ? [project.projectReferenceIdentifier, project.projectReferenceName].filter(present).join(' ') : undefined],
    [labels.buyerVatId, invoice.buyer?.buyerVatIdentifier],
    ...(invoice.precedingInvoiceReference ?? []).map((p): [string, string | undefined] => [
      fill(labels.precedingInvoice, { number: p.precedingInvoiceReference ?? '', date: date(p.precedingInvoiceIssueDate) ?? '' }).trim(),
      p.precedingInvoiceReference,
    ]),
  ];
  return facts.filter((f): f is [string, string] => present(f[1]));
}

function drawTitle(ctx: RenderContext): void {
  const { flow, invoice, styles } = ctx;
  const lines = flow.wrap([documentTitle(ctx), invoice.invoiceNumber].filter(present).join(' '), styles.title, flow.width);
  flow.keep(flow.heightOf(lines));
  flow.write(lines);
  flow.gap(GAP / 2);
}

// ---------------------------------------------------------------- notes

function drawNotes(ctx: RenderContext): void {
  const { flow, invoice, styles, labels } = ctx;
  const notes = (invoice.invoiceNote ?? []).map((n) => n.invoiceNote).filter(present);
  if (notes.length === 0) return;
  heading(flow, labels.notes, styles.heading);
  for (const note of notes) {
    flow.paragraph(note, styles.body);
    flow.gap(flow.lineHeight(styles.body) / 3);
  }
  flow.gap(GAP);
}

/** A heading never ends a page: it keeps at least two lines of what follows with it. */
function heading(flow: Flow, text: string, style: TextStyle): void {
  const lines = flow.wrap(text, style, flow.width);
  flow.keep(flow.heightOf(lines) + 2 * flow.lineHeight({}));
  flow.write(lines);
  flow.gap(2);
}

// ---------------------------------------------------------------- totals and VAT

interface AmountRow {
  label: string;
  amount: string;
  strong?: boolean;
}

function totalRows({ invoice, labels, fmt }: RenderContext): AmountRow[] {
  const t = invoice.documentTotals ?? {};
  const rate = (r: string | undefined, code: string | undefined) =>
    [code, r === undefined ? undefined : fmt.percent(r)].filter(present).join(' ');
  const reasons = (reason: string | undefined, r: string | undefined, code: string | undefined) =>
    [reason, rate(r, code)].filter(present).join(', ');
  const rows: Array<AmountRow | undefined> = [
    t.sumOfInvoiceLineNetAmount === undefined ? undefined : { label: labels.lineTotal, amount: t.sumOfInvoiceLineNetAmount },
    ...(invoice.documentLevelAllowances ?? []).map((a) =>
      a.documentLevelAllowanceAmount === undefined
        ? undefined
        : {
            label:
              `${labels.documentAllowance} ${reasons(a.documentLevelAllowanceReason, a.documentLevelAllowanceVatRate, a.documentLevelAllowanceVatCategoryCode)}`.trim(),
            amount: negate(a.documentLevelAllowanceAmount),
          },
    ),
    ...(invoice.documentLevelCharges ?? []).map((c) =>
      c.documentLevelChargeAmount === undefined
        ? undefined
        : {
            label:
              `${labels.documentCharge} ${reasons(c.documentLevelChargeReason, c.documentLevelChargeVatRate, c.documentLevelChargeVatCategoryCode)}`.trim(),
            amount: c.documentLevelChargeAmount,
          },
    ),
    // The sums only add information when there is more than one allowance or charge to add up.
    (invoice.documentLevelAllowances?.length ?? 0) > 1 && t.sumOfAllowancesOnDocumentLevel !== undefined
      ? { label: labels.allowanceTotal, amount: negate(t.sumOfAllowancesOnDocumentLevel) }
      : undefined,
    (invoice.documentLevelCharges?.length ?? 0) > 1 && t.sumOfChargesOnDocumentLevel !== undefined
      ? { label: labels.chargeTotal, amount: t.sumOfChargesOnDocumentLevel }
      : undefined,
    t.invoiceTotalAmountWithoutVat === undefined
      ? undefined
      : { label: labels.netTotal, amount: t.invoiceTotalAmountWithoutVat, strong: true },
    t.invoiceTotalVatAmount === undefined ? undefined : { label: labels.vatTotal, amount: t.invoiceTotalVatAmount },
    t.invoiceTotalAmountWithVat === undefined ? undefined : { label: labels.grossTotal, amount: t.invoiceTotalAmountWithVat, strong: true },
    t.paidAmount === undefined ? undefined : { label: labels.paid, amount: negate(t.paidAmount) },
    t.roundingAmount === undefined ? undefined : { label: labels.rounding, amount: t.roundingAmount },
    t.amountDueForPayment === undefined ? undefined : { label: labels.amountDue, amount: t.amountDueForPayment, strong: true },
  ];
  return rows.filter(present);
}

/** The totals as a right-aligned column, strong rows with a rule above: the amount due is what the eye finds. */
function drawTotals(ctx: RenderContext): void {
  const { flow, fmt, styles } = ctx;
  const rows = totalRows(ctx);
  if (rows.length === 0) return;
  const width = flow.width * 0.55;
  const x = flow.geo.right - width;
  const valueWidth = width * 0.35;
  const laid = rows.map((r) => ({ ...r, lines: flow.wrap(r.label, r.strong ? styles.bold : styles.body, width - valueWidth - 4) }));
  // Totals stay together: a reader must not hunt for the amount due on the next page.
  flow.keep(laid.reduce((h, r) => h + flow.heightOf(r.lines) + (r.strong ? 3 : 0), 0));
  for (const row of laid) {
    if (row.strong) {
      flow.rule(x, flow.geo.right, flow.y + 1);
      flow.gap(3);
    }
    // Label before amount, so that text extraction (and screen readers) read them in that order.
    const height = flow.drawLines(row.lines, x, flow.y, width - valueWidth - 4);
    flow.drawLines(
      [{ text: fmt.money(row.amount), style: row.strong ? styles.bold : styles.body }],
      flow.geo.right - valueWidth,
      flow.y,
      valueWidth,
      'right',
    );
    flow.gap(height);
  }
  flow.gap(GAP);
}

function drawVatBreakdown(ctx: RenderContext): void {
  const { flow, invoice, labels, fmt, styles } = ctx;
  const entries = invoice.vatBreakdown ?? [];
  if (entries.length === 0) return;
  heading(flow, labels.vatBreakdown, styles.heading);
  const w = flow.width;
  const cols = [
    { text: labels.vatCategory, x: 0, width: w * 0.43, align: 'left' as const },
    { text: labels.vatRate, x: w * 0.43, width: w * 0.12, align: 'right' as const },
    { text: labels.taxableAmount, x: w * 0.55, width: w * 0.225, align: 'right' as const },
    { text: labels.vatAmount, x: w * 0.775, width: w * 0.225, align: 'right' as const },
  ];
  const row = (cells: TextLine[][]) => {
    const height = Math.max(...cells.map((c) => flow.heightOf(c))) + 3;
    flow.keep(height);
    cells.forEach((lines, i) => flow.drawLines(lines, flow.geo.left + cols[i]!.x + 2, flow.y + 1.5, cols[i]!.width - 4, cols[i]!.align));
    flow.gap(height);
    flow.rule(flow.geo.left, flow.geo.right, flow.y);
  };
  const headerCells = cols.map((c) => flow.wrap(c.text, styles.tableHeader, c.width - 4));
  flow.keep(Math.max(...headerCells.map((c) => flow.heightOf(c))) + 3 + 2 * flow.lineHeight({}));
  flow.fillRect(flow.geo.left, flow.y, w, Math.max(...headerCells.map((c) => flow.heightOf(c))) + 3, 'tableHeaderBackground');
  row(headerCells);
  for (const v of entries) {
    const category = [
      v.vatCategoryCode && (labels.vatCategories[v.vatCategoryCode] ?? v.vatCategoryCode),
      v.vatExemptionReasonText ?? v.vatExemptionReasonCode,
    ].filter(present);
    row([
      category.flatMap((text, i) => flow.wrap(text, i === 0 ? styles.body : styles.muted, cols[0]!.width - 4)),
      [{ text: v.vatCategoryRate === undefined ? '' : fmt.percent(v.vatCategoryRate), style: styles.body }],
      [{ text: v.vatCategoryTaxableAmount === undefined ? '' : fmt.money(v.vatCategoryTaxableAmount), style: styles.body }],
      [{ text: v.vatCategoryTaxAmount === undefined ? '' : fmt.money(v.vatCategoryTaxAmount), style: styles.body }],
    ]);
  }
  flow.gap(GAP);
}

// ---------------------------------------------------------------- payment

function paymentFacts({ invoice, labels, fmt }: RenderContext): Array<[string, string]> {
  const pay = invoice.paymentInstructions;
  const means = pay?.paymentMeansTypeCode;
  const facts: Array<[string, string | undefined]> = [
    [labels.paymentTerms, invoice.paymentTerms],
    [labels.dueDate, invoice.paymentDueDate && fmt.date(invoice.paymentDueDate)],
    [labels.paymentMethod, pay?.paymentMeansText ?? (means && (labels.paymentMeans[means] ?? means))],
    ...(pay?.creditTransfer ?? []).flatMap((account): Array<[string, string | undefined]> => [
      [labels.accountHolder, account.paymentAccountName],
      [labels.iban, account.paymentAccountIdentifier && formatIban(account.paymentAccountIdentifier)],
      [labels.bic, account.paymentServiceProviderIdentifier],
    ]),
    [labels.mandateReference, pay?.directDebit?.mandateReferenceIdentifier],
    [labels.creditorId, pay?.directDebit?.bankAssignedCreditorIdentifier],
    [labels.debitedAccount, pay?.directDebit?.debitedAccountIdentifier && formatIban(pay.directDebit.debitedAccountIdentifier)],
    [
      labels.card,
      pay?.paymentCardInformation?.paymentCardPrimaryAccountNumber &&
        `•••• ${pay.paymentCardInformation.paymentCardPrimaryAccountNumber.slice(-4)}`,
    ],
    [labels.remittance, pay?.remittanceInformation],
  ];
  return facts.filter((f): f is [string, string] => present(f[1]));
}

const QR_SIZE = 32 * MM;

/** Payment details on the left; the GiroCode on the right when the invoice asks for a SEPA credit transfer. */
function drawPayment(ctx: RenderContext): void {
  const { flow, invoice, labels, styles } = ctx;
  const facts = paymentFacts(ctx);
  const epc = epcPaymentOf(invoice);
  if (facts.length === 0 && !epc) return;
  const textWidth = flow.width - (epc ? QR_SIZE + GAP : 0);
  const labelWidth = Math.min(textWidth * 0.35, 45 * MM);
  const rows = facts.map(([label, value]) => ({
    label: flow.wrap(label, styles.muted, labelWidth - 4),
    value: flow.wrap(value, styles.body, textWidth - labelWidth),
  }));
  const caption = epc ? flow.wrap(labels.qrCaption, styles.muted, QR_SIZE) : [];
  const textHeight = rows.reduce((h, r) => h + Math.max(flow.heightOf(r.label), flow.heightOf(r.value)), 0);
  const height = Math.max(textHeight, epc ? QR_SIZE + 2 + flow.heightOf(caption) : 0);
  heading(flow, labels.payment, styles.heading);
  flow.keep(height);
  const top = flow.y;
  let y = top;
  for (const row of rows) {
    flow.drawLines(row.label, flow.geo.left, y, labelWidth);
    flow.drawLines(row.value, flow.geo.left + labelWidth, y, textWidth - labelWidth);
    y += Math.max(flow.heightOf(row.label), flow.heightOf(row.value));
  }
  if (epc) {
    const x = flow.geo.right - QR_SIZE;
    flow.drawMatrix(qrMatrix(epcPayload(epc)), x, top, QR_SIZE);
    flow.drawLines(caption, x, top + QR_SIZE + 2, QR_SIZE, 'center');
  }
  flow.gap(height + GAP);
}

// ---------------------------------------------------------------- running header and footer

export function drawContinuationHeader(ctx: Omit<RenderContext, 'flow'>, flow: Flow): void {
  const text = fill(ctx.labels.continuation, {
    title: documentTitle(ctx),
    number: ctx.invoice.invoiceNumber ?? '',
    page: flow.pages.length,
  });
  flow.write(flow.wrap(text, ctx.styles.muted, flow.width));
  flow.rule(flow.geo.left, flow.geo.right, flow.y + 1);
  flow.gap(GAP);
}

/** Seller identity, contact and legal data in three columns: what German law (and good practice) wants on every page. */
export function footerColumns(invoice: Invoice, labels: RenderContext['labels'], locale: string): string[][] {
  const s = invoice.seller;
  const labelled = (label: string, value: string | undefined) => (value ? `${label}: ${value}` : undefined);
  return [
    [s?.sellerName, ...addressLines(s?.sellerPostalAddress, 'seller', locale)],
    [
      s?.sellerContact?.sellerContactPoint,
      labelled(labels.phone, s?.sellerContact?.sellerContactTelephoneNumber),
      labelled(labels.email, s?.sellerContact?.sellerContactEmailAddress),
    ],
    [
      labelled(labels.vatId, s?.sellerVatIdentifier),
      labelled(labels.taxNumber, s?.sellerTaxRegistrationIdentifier),
      labelled(labels.registration, s?.sellerLegalRegistrationIdentifier),
      s?.sellerAdditionalLegalInformation,
    ],
  ].map((col) => col.filter(present));
}

export interface Footer {
  height: number;
  draw(flow: Flow, pageIndex: number): void;
}

/** Laid out once before the flow starts: its height reserves room at the bottom of every page. */
export function layoutFooter(ctx: Omit<RenderContext, 'flow'>, typesetter: Typesetter, width: number): Footer {
  const { styles, labels } = ctx;
  const style = { ...styles.muted, size: (styles.muted.size ?? 8) * 0.95 };
  const columns = ctx.template.footer ? footerColumns(ctx.invoice, labels, ctx.template.locale) : [];
  const colWidth = width / 3;
  const laid = columns.map((col) => col.flatMap((l) => typesetter.wrap(l, style, colWidth - 6)));
  const columnsHeight = Math.max(0, ...laid.map((c) => typesetter.heightOf(c)));
  const pageLine = typesetter.lineHeight(style);
  const height = GAP + columnsHeight + pageLine;
  return {
    height,
    draw(target, pageIndex) {
      const top = target.geo.bottom + GAP;
      const pageText = fill(labels.pageOf, { page: pageIndex + 1, pages: target.pages.length });
      target.onPage(pageIndex, () => {
        if (laid.some((c) => c.length)) target.rule(target.geo.left, target.geo.right, top - 3);
        laid.forEach((lines, i) => target.drawLines(lines, target.geo.left + i * colWidth, top, colWidth - 6));
        target.drawLines([{ text: pageText, style }], target.geo.left, top + columnsHeight, target.width, 'right');
      });
    },
  };
}
