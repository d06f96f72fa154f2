import { z } from 'zod';
import { canonicalDecimal, isDecimalText, JsonNumber } from './decimal.js';

/**
 * The EN 16931 invoice object of the API (the OpenAPI document): every JSON key with its business term.
 *
 * This is the one source of truth: it validates requests (messages name the field
 * and its BT), it is exported as JSON Schema into the OpenAPI document, and the
 * XML syntaxes map its paths. Decimals become canonical decimal strings, dates
 * ISO `YYYY-MM-DD` strings, so nothing downstream ever sees a float.
 */

export type FieldKind = 'string' | 'date' | 'decimal';

export interface FieldMeta {
  bt: string;
  kind?: FieldKind;
  description?: string;
}

const MAX_TEXT = 100_000;
/** Embedded attachments (BT-125, base64) are routinely megabytes: as much as fits into the 20 MB XML we accept. */
const MAX_ATTACHMENT = 20 * 1024 * 1024;

/** What XML 1.0 cannot carry: C0 controls but tab, line feed and carriage return; lone surrogates; U+FFFE, U+FFFF. */
const NOT_XML =
  /[\u0000-\u0008\u000b\u000c\u000e-\u001f\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
/**
 * Names may not carry C1 controls either (DEL, NEL and the like, legal in XML but never text). Line
 * breaks stay: the EN 16931 test suite has seller and item names on two lines, and a name filled
 * into a mail subject is made single-line there (src/mail/placeholders.ts).
 */
const NOT_IN_NAMES = /[\u007f-\u009f]/;

const plainText = () =>
  z
    .string()
    .trim()
    .min(1, 'must not be empty')
    .max(MAX_TEXT)
    // Aborts: a name's own rule would report the same character again.
    .refine((v) => !NOT_XML.test(v), { message: 'must not contain control characters (other than line breaks and tabs)', abort: true });

const text = (bt: string, description?: string) => plainText().meta({ bt, kind: 'string', ...(description ? { description } : {}) });

/** A party's, person's or item's name. */
const name = (bt: string) =>
  plainText()
    .refine((v) => !NOT_IN_NAMES.test(v), 'must not contain control characters')
    .meta({ bt, kind: 'string' });

/** Coded values: trimmed, upper-cased where the code lists are upper-case. */
const code = (bt: string, pattern: RegExp, description: string) =>
  z
    .string()
    .trim()
    .transform((v) => v.toUpperCase())
    .pipe(z.string().regex(pattern, `must match ${pattern.source}`))
    .meta({ bt, kind: 'string', description });

const DATE_FORMS: Array<[RegExp, (m: RegExpExecArray) => [string, string, string]]> = [
  [/^(\d{4})-(\d{2})-(\d{2})$/, (m) => [m[1]!, m[2]!, m[3]!]],
  [/^(\d{2})\.(\d{2})\.(\d{4})$/, (m) => [m[3]!, m[2]!, m[1]!]],
  [/^(\d{4})(\d{2})(\d{2})$/, (m) => [m[1]!, m[2]!, m[3]!]],
];

/** Parses the date forms we accept into ISO `YYYY-MM-DD`, or undefined when it is no calendar date. */
export function parseDate(input: string): string | undefined {
  for (const [re, parts] of DATE_FORMS) {
    const m = re.exec(input.trim());
    if (!m) continue;
    const [y, mo, d] = parts(m);
    const date = new Date(Date.UTC(Number(y), Number(mo) - 1, Number(d)));
    if (date.getUTCFullYear() === Number(y) && date.getUTCMonth() + 1 === Number(mo) && date.getUTCDate() === Number(d)) {
      return `${y}-${mo}-${d}`;
    }
  }
  return undefined;
}

const date = (bt: string) =>
  z
    .string()
    .transform((v, ctx) => {
      const iso = parseDate(v);
      if (iso) return iso;
      ctx.addIssue({ code: 'custom', message: 'must be a date as YYYY-MM-DD (DD.MM.YYYY and YYYYMMDD are accepted too)' });
      return z.NEVER;
    })
    .meta({ bt, kind: 'date', description: 'Date, YYYY-MM-DD (DD.MM.YYYY and YYYYMMDD accepted)' });

const decimal = (bt: string) =>
  z
    .union([z.number(), z.string(), z.instanceof(JsonNumber)])
    .transform((v, ctx) => {
      const t = v instanceof JsonNumber ? v.text : typeof v === 'number' ? String(v) : v.trim();
      if (isDecimalText(t)) return canonicalDecimal(t);
      ctx.addIssue({ code: 'custom', message: 'must be a decimal number such as 1234.56' });
      return z.NEVER;
    })
    .meta({ bt, kind: 'decimal', description: 'Decimal number; send it as a JSON number or as a string such as "1234.56"' });

const o = <T extends z.ZodRawShape>(shape: T) => z.object(shape).strict();

const CURRENCY = /^[A-Z]{3}$/;
const COUNTRY = /^[A-Z]{2}$/;
const VAT_CATEGORY = /^(S|Z|E|AE|K|G|O|L|M|B)$/;

const vatCategory = (bt: string) => code(bt, VAT_CATEGORY, 'VAT category code (UNTDID 5305: S, Z, E, AE, K, G, O, L, M)');
const country = (bt: string) => code(bt, COUNTRY, 'Country code, ISO 3166-1 alpha-2');

const sellerPostalAddress = o({
  sellerAddressLine1: text('BT-35').optional(),
  sellerAddressLine2: text('BT-36').optional(),
  sellerAddressLine3: text('BT-162').optional(),
  sellerCity: text('BT-37').optional(),
  sellerPostCode: text('BT-38').optional(),
  sellerCountrySubdivision: text('BT-39').optional(),
  sellerCountryCode: country('BT-40').optional(),
}).meta({ bt: 'BG-5' });

const buyerPostalAddress = o({
  buyerAddressLine1: text('BT-50').optional(),
  buyerAddressLine2: text('BT-51').optional(),
  buyerAddressLine3: text('BT-163').optional(),
  buyerCity: text('BT-52').optional(),
  buyerPostCode: text('BT-53').optional(),
  buyerCountrySubdivision: text('BT-54').optional(),
  buyerCountryCode: country('BT-55').optional(),
}).meta({ bt: 'BG-8' });

const taxRepresentativePostalAddress = o({
  taxRepresentativeAddressLine1: text('BT-64').optional(),
  taxRepresentativeAddressLine2: text('BT-65').optional(),
  taxRepresentativeAddressLine3: text('BT-164').optional(),
  taxRepresentativeCity: text('BT-66').optional(),
  taxRepresentativePostCode: text('BT-67').optional(),
  taxRepresentativeCountrySubdivision: text('BT-68').optional(),
  taxRepresentativeCountryCode: country('BT-69').optional(),
}).meta({ bt: 'BG-12' });

const deliverToAddress = o({
  deliverToAddressLine1: text('BT-75').optional(),
  deliverToAddressLine2: text('BT-76').optional(),
  deliverToAddressLine3: text('BT-165').optional(),
  deliverToCity: text('BT-77').optional(),
  deliverToPostCode: text('BT-78').optional(),
  deliverToCountrySubdivision: text('BT-79').optional(),
  deliverToCountryCode: country('BT-80').optional(),
}).meta({ bt: 'BG-15' });

const seller = o({
  sellerName: name('BT-27').optional(),
  sellerTradingName: name('BT-28').optional(),
  sellerIdentifier: z.array(text('BT-29')).max(100).optional().meta({ bt: 'BT-29' }),
  sellerLegalRegistrationIdentifier: text('BT-30').optional(),
  sellerVatIdentifier: text('BT-31').optional(),
  sellerTaxRegistrationIdentifier: text('BT-32').optional(),
  sellerAdditionalLegalInformation: text('BT-33').optional(),
  sellerElectronicAddress: text('BT-34', 'Electronic address; an e-mail address gets scheme EM, a Leitweg-ID scheme 0204').optional(),
  sellerPostalAddress: sellerPostalAddress.optional(),
  sellerContact: o({
    sellerContactPoint: name('BT-41').optional(),
    sellerContactTelephoneNumber: text('BT-42').optional(),
    sellerContactEmailAddress: text('BT-43').optional(),
  })
    .meta({ bt: 'BG-6' })
    .optional(),
}).meta({ bt: 'BG-4' });

const buyer = o({
  buyerName: name('BT-44').optional(),
  buyerTradingName: name('BT-45').optional(),
  buyerIdentifier: text('BT-46').optional(),
  buyerLegalRegistrationIdentifier: text('BT-47').optional(),
  buyerVatIdentifier: text('BT-48').optional(),
  buyerElectronicAddress: text('BT-49', 'Electronic address; an e-mail address gets scheme EM, a Leitweg-ID scheme 0204').optional(),
  buyerPostalAddress: buyerPostalAddress.optional(),
  buyerContact: o({
    buyerContactPoint: name('BT-56').optional(),
    buyerContactTelephoneNumber: text('BT-57').optional(),
    buyerContactEmailAddress: text('BT-58').optional(),
  })
    .meta({ bt: 'BG-9' })
    .optional(),
}).meta({ bt: 'BG-7' });

const documentLevelAllowance = o({
  documentLevelAllowanceAmount: decimal('BT-92').optional(),
  documentLevelAllowanceBaseAmount: decimal('BT-93').optional(),
  documentLevelAllowancePercentage: decimal('BT-94').optional(),
  documentLevelAllowanceVatCategoryCode: vatCategory('BT-95').optional(),
  documentLevelAllowanceVatRate: decimal('BT-96').optional(),
  documentLevelAllowanceReason: text('BT-97').optional(),
  documentLevelAllowanceReasonCode: text('BT-98').optional(),
}).meta({ bt: 'BG-20' });

const documentLevelCharge = o({
  documentLevelChargeAmount: decimal('BT-99').optional(),
  documentLevelChargeBaseAmount: decimal('BT-100').optional(),
  documentLevelChargePercentage: decimal('BT-101').optional(),
  documentLevelChargeVatCategoryCode: vatCategory('BT-102').optional(),
  documentLevelChargeVatRate: decimal('BT-103').optional(),
  documentLevelChargeReason: text('BT-104').optional(),
  documentLevelChargeReasonCode: text('BT-105').optional(),
}).meta({ bt: 'BG-21' });

const invoiceLine = o({
  invoiceLineIdentifier: text('BT-126').optional(),
  invoiceLineNote: text('BT-127').optional(),
  invoiceLineObjectIdentifier: text('BT-128').optional(),
  invoicedQuantity: decimal('BT-129').optional(),
  invoicedQuantityUnitOfMeasureCode: code(
    'BT-130',
    /^[A-Z0-9]{1,3}$/,
    'Unit of measure, UN/ECE Recommendation 20 (C62 = piece, HUR = hour, ...)',
  ).optional(),
  invoiceLineNetAmount: decimal('BT-131').optional(),
  referencedPurchaseOrderLineReference: text('BT-132').optional(),
  invoiceLineBuyerAccountingReference: text('BT-133').optional(),
  invoiceLinePeriod: o({
    invoiceLinePeriodStartDate: date('BT-134').optional(),
    invoiceLinePeriodEndDate: date('BT-135').optional(),
  })
    .meta({ bt: 'BG-26' })
    .optional(),
  invoiceLineAllowances: z
    .array(
      o({
        invoiceLineAllowanceAmount: decimal('BT-136').optional(),
        invoiceLineAllowanceBaseAmount: decimal('BT-137').optional(),
        invoiceLineAllowancePercentage: decimal('BT-138').optional(),
        invoiceLineAllowanceReason: text('BT-139').optional(),
        invoiceLineAllowanceReasonCode: text('BT-140').optional(),
      }).meta({ bt: 'BG-27' }),
    )
    .optional(),
  invoiceLineCharges: z
    .array(
      o({
        invoiceLineChargeAmount: decimal('BT-141').optional(),
        invoiceLineChargeBaseAmount: decimal('BT-142').optional(),
        invoiceLineChargePercentage: decimal('BT-143').optional(),
        invoiceLineChargeReason: text('BT-144').optional(),
        invoiceLineChargeReasonCode: text('BT-145').optional(),
      }).meta({ bt: 'BG-28' }),
    )
    .optional(),
  priceDetails: o({
    itemNetPrice: decimal('BT-146').optional(),
    itemPriceDiscount: decimal('BT-147').optional(),
    itemGrossPrice: decimal('BT-148').optional(),
    itemPriceBaseQuantity: decimal('BT-149').optional(),
    itemPriceBaseQuantityUnitOfMeasure: code('BT-150', /^[A-Z0-9]{1,3}$/, 'Unit of measure, UN/ECE Recommendation 20').optional(),
  })
    .meta({ bt: 'BG-29' })
    .optional(),
  lineVatInformation: z
    .array(
      o({
        invoicedItemVatCategoryCode: vatCategory('BT-151').optional(),
        invoicedItemVatRate: decimal('BT-152').optional(),
      }).meta({ bt: 'BG-30' }),
    )
    .max(1, 'EN 16931 allows one VAT category per line')
    .optional(),
  itemInformation: o({
    itemName: name('BT-153').optional(),
    itemDescription: text('BT-154').optional(),
    itemSellersIdentifier: text('BT-155').optional(),
    itemBuyersIdentifier: text('BT-156').optional(),
    itemStandardIdentifier: text('BT-157').optional(),
    itemStandardIdentifierSchemeIdentifier: text('BT-157-1').optional(),
    itemClassificationIdentifier: z
      .array(
        o({
          itemClassificationIdentifier: text('BT-158').optional(),
          itemClassificationIdentifierListIdentifier: text('BT-158-1').optional(),
          itemClassificationIdentifierListVersionIdentifier: text('BT-158-2').optional(),
        }),
      )
      .meta({ bt: 'BT-158' })
      .optional(),
    itemCountryOfOrigin: country('BT-159').optional(),
    itemAttributes: z
      .array(
        o({
          itemAttributeName: name('BT-160').optional(),
          itemAttributeValue: text('BT-161').optional(),
        }).meta({ bt: 'BG-32' }),
      )
      .optional(),
  })
    .meta({ bt: 'BG-31' })
    .optional(),
}).meta({ bt: 'BG-25' });

export const invoiceSchema = o({
  invoiceNumber: text('BT-1').optional(),
  invoiceIssueDate: date('BT-2').optional(),
  invoiceTypeCode: code(
    'BT-3',
    /^\d{3}$/,
    'Invoice type code, UNTDID 1001 (380 invoice, 381 credit note, 384 corrected invoice, 326 partial invoice, 389 self-billed invoice, 875/876/877 partial construction invoices)',
  ).optional(),
  invoiceCurrencyCode: code('BT-5', CURRENCY, 'Currency code, ISO 4217').optional(),
  vatAccountingCurrencyCode: code('BT-6', CURRENCY, 'Currency code, ISO 4217').optional(),
  valueAddedTaxPointDate: date('BT-7').optional(),
  valueAddedTaxPointDateCode: code(
    'BT-8',
    /^(3|35|432|5|29|72)$/,
    'VAT point date code, UNTDID 2005 (3 invoice date, 35 delivery date, 432 paid to date; CII forms 5, 29, 72 accepted)',
  ).optional(),
  paymentDueDate: date('BT-9').optional(),
  buyerReference: text('BT-10', 'Buyer reference; for German public buyers the Leitweg-ID').optional(),
  projectReference: o({
    projectReferenceIdentifier: text('BT-11').optional(),
    projectReferenceName: name('BT-11-0').optional(),
  })
    .meta({ bt: 'BT-11' })
    .optional(),
  contractReference: text('BT-12').optional(),
  purchaseOrderReference: text('BT-13').optional(),
  salesOrderReference: text('BT-14').optional(),
  receivingAdviceReference: text('BT-15').optional(),
  despatchAdviceReference: text('BT-16').optional(),
  tenderOrLotReference: text('BT-17').optional(),
  invoicedObjectIdentifier: text('BT-18').optional(),
  buyerAccountingReference: text('BT-19').optional(),
  paymentTerms: text('BT-20').optional(),
  invoiceNote: z
    .array(
      o({
        invoiceNoteSubjectCode: text('BT-21').optional(),
        invoiceNote: text('BT-22').optional(),
      }).meta({ bt: 'BG-1' }),
    )
    .optional(),
  processControl: o({
    businessProcessTypeIdentifier: text('BT-23').optional(),
    specificationIdentifier: text('BT-24', 'Defaults to the XRechnung 3.0 CIUS identifier').optional(),
  })
    .meta({ bt: 'BG-2' })
    .optional(),
  precedingInvoiceReference: z
    .array(
      o({
        precedingInvoiceReference: text('BT-25').optional(),
        precedingInvoiceIssueDate: date('BT-26').optional(),
      }).meta({ bt: 'BG-3' }),
    )
    .optional(),
  seller: seller.optional(),
  buyer: buyer.optional(),
  payee: o({
    payeeName: name('BT-59').optional(),
    payeeIdentifier: text('BT-60').optional(),
    payeeLegalRegistrationIdentifier: text('BT-61').optional(),
  })
    .meta({ bt: 'BG-10' })
    .optional(),
  sellerTaxRepresentativeParty: o({
    sellerTaxRepresentativeName: name('BT-62').optional(),
    sellerTaxRepresentativeVatIdentifier: text('BT-63').optional(),
    sellerTaxRepresentativePostalAddress: taxRepresentativePostalAddress.optional(),
  })
    .meta({ bt: 'BG-11' })
    .optional(),
  deliveryInformation: o({
    deliverToPartyName: name('BT-70').optional(),
    deliverToLocationIdentifier: text('BT-71').optional(),
    actualDeliveryDate: date('BT-72').optional(),
    deliverToAddress: deliverToAddress.optional(),
  })
    .meta({ bt: 'BG-13' })
    .optional(),
  invoicingPeriod: o({
    invoicingPeriodStartDate: date('BT-73').optional(),
    invoicingPeriodEndDate: date('BT-74').optional(),
  })
    .meta({ bt: 'BG-14' })
    .optional(),
  paymentInstructions: o({
    paymentMeansTypeCode: code(
      'BT-81',
      /^(\d{1,2}|ZZZ)$/,
      'Payment means code, UNTDID 4461 (58 SEPA credit transfer, 59 SEPA direct debit, 30 credit transfer, 48 card, 10 cash)',
    ).optional(),
    paymentMeansText: text('BT-82').optional(),
    remittanceInformation: text('BT-83').optional(),
    creditTransfer: z
      .array(
        o({
          paymentAccountIdentifier: text('BT-84', 'IBAN or other account identifier').optional(),
          paymentAccountName: name('BT-85').optional(),
          paymentServiceProviderIdentifier: text('BT-86', 'BIC').optional(),
        }).meta({ bt: 'BG-17' }),
      )
      .optional(),
    paymentCardInformation: o({
      paymentCardPrimaryAccountNumber: text('BT-87').optional(),
      paymentCardHolderName: name('BT-88').optional(),
    })
      .meta({ bt: 'BG-18' })
      .optional(),
    directDebit: o({
      mandateReferenceIdentifier: text('BT-89').optional(),
      bankAssignedCreditorIdentifier: text('BT-90').optional(),
      debitedAccountIdentifier: text('BT-91').optional(),
    })
      .meta({ bt: 'BG-19' })
      .optional(),
  })
    .meta({ bt: 'BG-16' })
    .optional(),
  documentLevelAllowances: z.array(documentLevelAllowance).optional(),
  documentLevelCharges: z.array(documentLevelCharge).optional(),
  documentTotals: o({
    sumOfInvoiceLineNetAmount: decimal('BT-106').optional(),
    sumOfAllowancesOnDocumentLevel: decimal('BT-107').optional(),
    sumOfChargesOnDocumentLevel: decimal('BT-108').optional(),
    invoiceTotalAmountWithoutVat: decimal('BT-109').optional(),
    invoiceTotalVatAmount: decimal('BT-110').optional(),
    invoiceTotalVatAmountInAccountingCurrency: decimal('BT-111').optional(),
    invoiceTotalAmountWithVat: decimal('BT-112').optional(),
    paidAmount: decimal('BT-113').optional(),
    roundingAmount: decimal('BT-114').optional(),
    amountDueForPayment: decimal('BT-115').optional(),
  })
    .meta({ bt: 'BG-22' })
    .optional(),
  vatBreakdown: z
    .array(
      o({
        vatCategoryTaxableAmount: decimal('BT-116').optional(),
        vatCategoryTaxAmount: decimal('BT-117').optional(),
        vatCategoryCode: vatCategory('BT-118').optional(),
        vatCategoryRate: decimal('BT-119').optional(),
        vatExemptionReasonText: text('BT-120').optional(),
        vatExemptionReasonCode: text('BT-121').optional(),
      }).meta({ bt: 'BG-23' }),
    )
    .optional(),
  additionalSupportingDocuments: z
    .array(
      o({
        supportingDocumentReference: text('BT-122').optional(),
        supportingDocumentDescription: text('BT-123').optional(),
        externalDocumentLocation: text('BT-124').optional(),
        attachedDocument: z
          .string()
          .trim()
          .min(1, 'must not be empty')
          .max(MAX_ATTACHMENT)
          .meta({ bt: 'BT-125', kind: 'string', description: 'Attached document as base64' })
          .optional(),
      }).meta({ bt: 'BG-24' }),
    )
    .optional(),
  invoiceLine: z.array(invoiceLine).optional(),
}).meta({ description: 'EN 16931 invoice' });

/** The invoice as the domain sees it: decimals as canonical strings, dates as YYYY-MM-DD. */
export type Invoice = z.output<typeof invoiceSchema>;
/** The invoice as a client may send it. */
export type InvoiceInput = z.input<typeof invoiceSchema>;
export type InvoiceLine = NonNullable<Invoice['invoiceLine']>[number];
export type VatBreakdown = NonNullable<Invoice['vatBreakdown']>[number];
