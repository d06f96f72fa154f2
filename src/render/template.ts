import { z } from 'zod';

/**
 * An invoice template is declarative data (templates/builtin/<id>/template.json, or
 * <dataDir>/templates/<id>/template.json for operator templates): page, fonts, colours,
 * logo, wording and which blocks appear in which order. One layout engine (layout.ts,
 * blocks.ts) renders every template, so a template cannot break PDF/A or the page flow.
 * Lengths are millimetres, because that is what people measure paper in.
 */

export const TEMPLATE_ID = /^[a-z0-9][a-z0-9._-]{0,63}$/;

/** The embedded font families (DejaVu, which covers Latin, Greek and Cyrillic): PDF/A needs every font embedded. */
export const FONT_FAMILIES = ['DejaVuSans', 'DejaVuSansCondensed', 'DejaVuSerif', 'DejaVuSerifCondensed', 'DejaVuSansMono'] as const;
export type FontFamily = (typeof FONT_FAMILIES)[number];

/** Width × height in millimetres. */
export const PAGE_SIZES = { A4: [210, 297], A5: [148, 210], LETTER: [215.9, 279.4] } as const;

/** The blocks of the first flow, in template order; the footer is on every page and configured apart. */
export const BLOCKS = ['header', 'addresses', 'title', 'notes', 'lines', 'totals', 'vatBreakdown', 'payment'] as const;
export type BlockId = (typeof BLOCKS)[number];

/** Columns the line table can show; each maps one or two business terms of the invoice line. */
export const LINE_COLUMNS = ['position', 'item', 'sellerItemId', 'quantity', 'unit', 'unitPrice', 'vatRate', 'netAmount'] as const;
export type LineColumn = (typeof LINE_COLUMNS)[number];

/**
 * Every text the renderer prints. All keys are required so that a template never shows a
 * fallback in another language; operators start from a copy of a built-in template.
 * `{name}` placeholders are filled by the renderer.
 */
export const LABEL_KEYS = [
  'pageOf', // {page} {pages}
  'continuation', // {title} {number} {page}
  'invoiceNumber',
  'issueDate',
  'dueDate',
  'deliveryDate',
  'taxPointDate',
  'servicePeriod',
  'buyerReference',
  'customerNumber',
  'purchaseOrder',
  'salesOrder',
  'contract',
  'project',
  'buyerVatId',
  'precedingInvoice', // {number} {date}
  'deliverTo',
  'position',
  'item',
  'sellerItemId',
  'quantity',
  'unit',
  'unitPrice',
  'vatRate',
  'netAmount',
  'pricePer', // {quantity} {unit}
  'linePeriod',
  'lineAllowance',
  'lineCharge',
  'pageSubtotal', // {page}
  'carriedForward',
  'broughtForward', // {page}
  'lineTotal',
  'documentAllowance',
  'documentCharge',
  'allowanceTotal',
  'chargeTotal',
  'netTotal',
  'vatTotal',
  'grossTotal',
  'paid',
  'rounding',
  'amountDue',
  'vatBreakdown',
  'vatCategory',
  'taxableAmount',
  'vatAmount',
  'notes',
  'payment',
  'paymentTerms',
  'paymentMethod',
  'accountHolder',
  'iban',
  'bic',
  'remittance',
  'mandateReference',
  'creditorId',
  'debitedAccount',
  'card',
  'qrCaption',
  'vatId',
  'taxNumber',
  'registration',
  'phone',
  'email',
] as const;
export type LabelKey = (typeof LABEL_KEYS)[number];

const label = z.string().trim().min(1, 'must not be empty').max(200);
const codeMap = (codes: RegExp, what: string) =>
  z.record(z.string().regex(codes, `must be ${what}`), label).meta({ description: `Wording per ${what}; unknown codes print as the code` });

const labelsSchema = z
  .object({
    ...(Object.fromEntries(LABEL_KEYS.map((k) => [k, label])) as Record<LabelKey, typeof label>),
    /** Title per invoice type code (UNTDID 1001); `default` for the others. */
    documentTypes: z
      .record(z.string().regex(/^(\d{3}|default)$/, 'must be a 3-digit type code or "default"'), label)
      .refine((m) => 'default' in m, 'needs a "default" title'),
    units: codeMap(/^[A-Z0-9]{1,3}$/, 'a UN/ECE Rec. 20 unit code'),
    vatCategories: codeMap(/^(S|Z|E|AE|K|G|O|L|M|B)$/, 'a VAT category code'),
    paymentMeans: codeMap(/^(\d{1,2}|ZZZ)$/, 'a UNTDID 4461 payment means code'),
  })
  .strict();

const mm = (max: number) => z.number().min(0).max(max);
const color = z.string().regex(/^#[0-9a-fA-F]{6}$/, 'must be a colour as #rrggbb');

/** File names only: a template cannot point outside its own folder. */
const fileName = z.string().regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, 'must be a plain file name inside the template folder');

const unique = <T>(items: readonly T[]) => new Set(items).size === items.length;

export const templateSchema = z
  .object({
    id: z.string().regex(TEMPLATE_ID, 'must be lower-case letters, digits, ".", "_" or "-" (at most 64)'),
    name: z.string().trim().min(1).max(100),
    description: z.string().trim().max(500).optional(),
    /** BCP 47 locale of numbers, amounts and dates, e.g. de-DE (1.234,56 €, 31.12.2024) or en-GB. */
    locale: z.string().refine((l) => {
      try {
        return Intl.NumberFormat.supportedLocalesOf([l]).length === 1;
      } catch {
        return false;
      }
    }, 'must be a locale this server supports, e.g. de-DE or en-GB'),
    dateStyle: z.enum(['short', 'medium', 'long']).default('medium'),
    page: z
      .object({
        size: z.enum(Object.keys(PAGE_SIZES) as [keyof typeof PAGE_SIZES]),
        margins: z.object({ top: mm(80), right: mm(80), bottom: mm(80), left: mm(80) }).strict(),
      })
      .strict(),
    font: z
      .object({
        family: z.enum(FONT_FAMILIES),
        /** Body text size in points; headings scale from it. */
        size: z.number().min(6).max(14),
      })
      .strict(),
    colors: z
      .object({ text: color, muted: color, accent: color, rule: color, tableHeaderBackground: color, tableHeaderText: color })
      .strict(),
    logo: z
      .object({ file: fileName, width: z.number().min(5).max(120), align: z.enum(['left', 'right']) })
      .strict()
      .optional(),
    blocks: z.array(z.enum(BLOCKS)).min(1).refine(unique, 'each block at most once'),
    lineColumns: z
      .array(z.object({ field: z.enum(LINE_COLUMNS), width: z.number().positive().max(100) }).strict())
      .min(1)
      .refine((cols) => unique(cols.map((c) => c.field)), 'each column at most once'),
    footer: z.boolean(),
    labels: labelsSchema,
  })
  .strict()
  // Room for the header, a footer and at least a few table rows per page.
  .refine(
    ({ page: { size, margins: m } }) => PAGE_SIZES[size][0] - m.left - m.right >= 90 && PAGE_SIZES[size][1] - m.top - m.bottom >= 120,
    {
      message: 'the margins leave too little room: at least 90 mm × 120 mm must remain inside them',
      path: ['page', 'margins'],
    },
  );

export type Template = z.output<typeof templateSchema>;
export type Labels = Template['labels'];

/** Fills `{name}` placeholders; unknown names stay visible so a typo in a template shows. */
export function fill(text: string, values: Record<string, string | number>): string {
  return text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in values ? String(values[name]) : whole));
}
