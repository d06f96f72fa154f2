import { attachmentAttrs, electronicAddress, priceDiscountOf, vatDateCodeUbl } from './codes.js';
import { constant, group, leaf, type Codec, type ModelObject, type XmlDocument, type XmlNode } from './mapping.js';

/**
 * OASIS UBL 2.1 Invoice and CreditNote as EN 16931 binds them, element order after the UBL
 * 2.1 XSDs. The two document types differ in their root, a few element names and the order
 * of some header references, so the description is built once per document type.
 */

const NS_CAC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2';
const NS_CBC = 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2';
const UBL_INVOICE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2';
const UBL_CREDIT_NOTE_NS = 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2';

/** UBL carries the note subject code (BT-21) inside the note text as `#CODE#text`, the XRechnung convention. */
const subjectNote: Codec = {
  write: (value) => {
    const note = value as ModelObject;
    if (typeof note['invoiceNote'] !== 'string') return undefined;
    return note['invoiceNoteSubjectCode'] ? `#${String(note['invoiceNoteSubjectCode'])}#${note['invoiceNote']}` : note['invoiceNote'];
  },
  parse: (text) => {
    const coded = /^#([^#\s]{1,10})#([\s\S]*)$/.exec(text);
    return coded ? { invoiceNoteSubjectCode: coded[1], invoiceNote: coded[2]!.trim() || undefined } : { invoiceNote: text };
  },
};

/** Every UBL amount states its currency: the invoice currency unless it is BT-111. */
const amount = (
  tag: string,
  path: string,
  { currency = '/invoiceCurrencyCode', ...options }: Omit<XmlNode, 'tag'> & { currency?: string } = {},
) => leaf(tag, path, { ...options, attrs: { currencyID: { path: currency } } });

const vatScheme = group('cac:TaxScheme', [constant('cbc:ID', 'VAT')], { required: true });

const taxCategory = (tag: string, children: XmlNode[]) => group(tag, [...children, vatScheme]);

const isCharge = (charge: boolean) => ({ child: 'cbc:ChargeIndicator', in: charge ? ['true', '1'] : ['false', '0'] });

type AddressOwner = 'seller' | 'buyer' | 'taxRepresentative' | 'deliverTo';

function address(tag: string, owner: AddressOwner, scope: string): XmlNode {
  return group(
    tag,
    [
      leaf('cbc:StreetName', `${owner}AddressLine1`),
      leaf('cbc:AdditionalStreetName', `${owner}AddressLine2`),
      leaf('cbc:CityName', `${owner}City`),
      leaf('cbc:PostalZone', `${owner}PostCode`),
      leaf('cbc:CountrySubentity', `${owner}CountrySubdivision`),
      group('cac:AddressLine', [leaf('cbc:Line', `${owner}AddressLine3`)]),
      group('cac:Country', [leaf('cbc:IdentificationCode', `${owner}CountryCode`)]),
    ],
    { scope },
  );
}

const contact = (owner: 'seller' | 'buyer') =>
  group(
    'cac:Contact',
    [
      leaf('cbc:Name', `${owner}ContactPoint`),
      leaf('cbc:Telephone', `${owner}ContactTelephoneNumber`),
      leaf('cbc:ElectronicMail', `${owner}ContactEmailAddress`),
    ],
    { scope: `${owner}Contact` },
  );

const partyName = (path: string) => group('cac:PartyName', [leaf('cbc:Name', path)]);

const notSepa = { child: 'cbc:ID', attr: 'schemeID', notIn: ['SEPA'] };

/** BT-90 belongs to the seller party (or, as others write it, the payee party) with scheme SEPA. */
const creditorId = (options: { parseOnly?: boolean } = {}) =>
  group(
    'cac:PartyIdentification',
    [leaf('cbc:ID', '/paymentInstructions.directDebit.bankAssignedCreditorIdentifier', { attrs: { schemeID: 'SEPA' } })],
    {
      match: { child: 'cbc:ID', attr: 'schemeID', in: ['SEPA'] },
      ...options,
    },
  );

const partyTaxScheme = (scheme: 'VAT' | 'FC', path: string) =>
  group('cac:PartyTaxScheme', [leaf('cbc:CompanyID', path), group('cac:TaxScheme', [constant('cbc:ID', scheme)], { required: true })], {
    match: { child: 'cac:TaxScheme/cbc:ID', ...(scheme === 'VAT' ? { in: ['VAT'] } : { notIn: ['VAT'] }) },
  });

const sellerParty = group(
  'cac:AccountingSupplierParty',
  [
    group(
      'cac:Party',
      [
        leaf('cbc:EndpointID', 'sellerElectronicAddress', electronicAddress),
        group('cac:PartyIdentification', [leaf('cbc:ID', '')], { each: 'sellerIdentifier', match: notSepa }),
        creditorId(),
        partyName('sellerTradingName'),
        address('cac:PostalAddress', 'seller', 'sellerPostalAddress'),
        partyTaxScheme('VAT', 'sellerVatIdentifier'),
        partyTaxScheme('FC', 'sellerTaxRegistrationIdentifier'),
        group('cac:PartyLegalEntity', [
          leaf('cbc:RegistrationName', 'sellerName'),
          leaf('cbc:CompanyID', 'sellerLegalRegistrationIdentifier'),
          leaf('cbc:CompanyLegalForm', 'sellerAdditionalLegalInformation'),
        ]),
        contact('seller'),
      ],
      { scope: 'seller', required: true },
    ),
  ],
  { required: true },
);

const buyerParty = group(
  'cac:AccountingCustomerParty',
  [
    group(
      'cac:Party',
      [
        leaf('cbc:EndpointID', 'buyerElectronicAddress', electronicAddress),
        group('cac:PartyIdentification', [leaf('cbc:ID', 'buyerIdentifier')]),
        partyName('buyerTradingName'),
        address('cac:PostalAddress', 'buyer', 'buyerPostalAddress'),
        partyTaxScheme('VAT', 'buyerVatIdentifier'),
        group('cac:PartyLegalEntity', [
          leaf('cbc:RegistrationName', 'buyerName'),
          leaf('cbc:CompanyID', 'buyerLegalRegistrationIdentifier'),
        ]),
        contact('buyer'),
      ],
      { scope: 'buyer', required: true },
    ),
  ],
  { required: true },
);

const payeeParty = group(
  'cac:PayeeParty',
  [
    group('cac:PartyIdentification', [leaf('cbc:ID', 'payeeIdentifier')], { match: notSepa }),
    creditorId({ parseOnly: true }),
    partyName('payeeName'),
    group('cac:PartyLegalEntity', [leaf('cbc:CompanyID', 'payeeLegalRegistrationIdentifier')]),
  ],
  { scope: 'payee' },
);

const taxRepresentativeParty = group(
  'cac:TaxRepresentativeParty',
  [
    partyName('sellerTaxRepresentativeName'),
    address('cac:PostalAddress', 'taxRepresentative', 'sellerTaxRepresentativePostalAddress'),
    partyTaxScheme('VAT', 'sellerTaxRepresentativeVatIdentifier'),
  ],
  { scope: 'sellerTaxRepresentativeParty' },
);

const delivery = group(
  'cac:Delivery',
  [
    leaf('cbc:ActualDeliveryDate', 'actualDeliveryDate'),
    group('cac:DeliveryLocation', [leaf('cbc:ID', 'deliverToLocationIdentifier'), address('cac:Address', 'deliverTo', 'deliverToAddress')]),
    group('cac:DeliveryParty', [partyName('deliverToPartyName')]),
  ],
  { scope: 'deliveryInformation' },
);

/**
 * One PaymentMeans per credit transfer account (at least one). Code and remittance information
 * repeat in each; text, card and mandate may occur once per invoice, so only the first has them.
 */
const paymentMeans = (creditNote: boolean) =>
  group(
    'cac:PaymentMeans',
    [
      leaf('cbc:PaymentMeansCode', '/paymentInstructions.paymentMeansTypeCode', {
        attrs: { name: { path: '/paymentInstructions.paymentMeansText', firstItemOnly: true } },
      }),
      // A credit note has no header due date; EN 16931 puts BT-9 here instead.
      ...(creditNote ? [leaf('cbc:PaymentDueDate', '/paymentDueDate')] : []),
      leaf('cbc:PaymentID', '/paymentInstructions.remittanceInformation'),
      group(
        'cac:CardAccount',
        [
          leaf('cbc:PrimaryAccountNumberID', 'paymentCardPrimaryAccountNumber'),
          // Mandatory in UBL, absent from EN 16931: "not applicable".
          constant('cbc:NetworkID', 'NA'),
          leaf('cbc:HolderName', 'paymentCardHolderName'),
        ],
        { scope: '/paymentInstructions.paymentCardInformation', firstItemOnly: true },
      ),
      group('cac:PayeeFinancialAccount', [
        leaf('cbc:ID', 'paymentAccountIdentifier'),
        leaf('cbc:Name', 'paymentAccountName'),
        group('cac:FinancialInstitutionBranch', [leaf('cbc:ID', 'paymentServiceProviderIdentifier')]),
      ]),
      group(
        'cac:PaymentMandate',
        [leaf('cbc:ID', 'mandateReferenceIdentifier'), group('cac:PayerFinancialAccount', [leaf('cbc:ID', 'debitedAccountIdentifier')])],
        {
          scope: '/paymentInstructions.directDebit',
          firstItemOnly: true,
        },
      ),
    ],
    { each: 'paymentInstructions.creditTransfer', eachOrOnce: true },
  );

/** BG-20/21 on document level (with their VAT category), BG-27/28 on lines. */
function allowanceCharge(level: 'documentLevel' | 'invoiceLine', kind: 'Allowance' | 'Charge'): XmlNode {
  const key = `${level}${kind}`;
  const charge = kind === 'Charge';
  return group(
    'cac:AllowanceCharge',
    [
      constant('cbc:ChargeIndicator', String(charge)),
      leaf('cbc:AllowanceChargeReasonCode', `${key}ReasonCode`),
      leaf('cbc:AllowanceChargeReason', `${key}Reason`),
      leaf('cbc:MultiplierFactorNumeric', `${key}Percentage`),
      amount('cbc:Amount', `${key}Amount`),
      amount('cbc:BaseAmount', `${key}BaseAmount`),
      ...(level === 'documentLevel'
        ? [taxCategory('cac:TaxCategory', [leaf('cbc:ID', `${key}VatCategoryCode`), leaf('cbc:Percent', `${key}VatRate`)])]
        : []),
    ],
    { each: `${key}s`, match: isCharge(charge) },
  );
}

const vatTotals = [
  group(
    'cac:TaxTotal',
    [
      amount('cbc:TaxAmount', 'documentTotals.invoiceTotalVatAmount'),
      group(
        'cac:TaxSubtotal',
        [
          amount('cbc:TaxableAmount', 'vatCategoryTaxableAmount'),
          amount('cbc:TaxAmount', 'vatCategoryTaxAmount'),
          taxCategory('cac:TaxCategory', [
            leaf('cbc:ID', 'vatCategoryCode'),
            leaf('cbc:Percent', 'vatCategoryRate'),
            leaf('cbc:TaxExemptionReasonCode', 'vatExemptionReasonCode'),
            leaf('cbc:TaxExemptionReason', 'vatExemptionReasonText'),
          ]),
        ],
        { each: 'vatBreakdown' },
      ),
    ],
    { match: { child: 'cbc:TaxAmount', attr: 'currencyID', notIn: [{ path: '/vatAccountingCurrencyCode' }] } },
  ),
  group(
    'cac:TaxTotal',
    [amount('cbc:TaxAmount', 'documentTotals.invoiceTotalVatAmountInAccountingCurrency', { currency: '/vatAccountingCurrencyCode' })],
    {
      match: { child: 'cbc:TaxAmount', attr: 'currencyID', in: [{ path: '/vatAccountingCurrencyCode' }] },
    },
  ),
];

const monetaryTotal = group(
  'cac:LegalMonetaryTotal',
  [
    amount('cbc:LineExtensionAmount', 'sumOfInvoiceLineNetAmount'),
    amount('cbc:TaxExclusiveAmount', 'invoiceTotalAmountWithoutVat'),
    amount('cbc:TaxInclusiveAmount', 'invoiceTotalAmountWithVat'),
    amount('cbc:AllowanceTotalAmount', 'sumOfAllowancesOnDocumentLevel'),
    amount('cbc:ChargeTotalAmount', 'sumOfChargesOnDocumentLevel'),
    amount('cbc:PrepaidAmount', 'paidAmount'),
    amount('cbc:PayableRoundingAmount', 'roundingAmount'),
    amount('cbc:PayableAmount', 'amountDueForPayment'),
  ],
  { scope: 'documentTotals', required: true },
);

const item = (path: string) => `itemInformation.${path}`;

function invoiceLine(creditNote: boolean): XmlNode {
  return group(
    creditNote ? 'cac:CreditNoteLine' : 'cac:InvoiceLine',
    [
      leaf('cbc:ID', 'invoiceLineIdentifier'),
      leaf('cbc:Note', 'invoiceLineNote'),
      leaf(creditNote ? 'cbc:CreditedQuantity' : 'cbc:InvoicedQuantity', 'invoicedQuantity', {
        attrs: { unitCode: { path: 'invoicedQuantityUnitOfMeasureCode' } },
      }),
      amount('cbc:LineExtensionAmount', 'invoiceLineNetAmount'),
      leaf('cbc:AccountingCost', 'invoiceLineBuyerAccountingReference'),
      group('cac:InvoicePeriod', [leaf('cbc:StartDate', 'invoiceLinePeriodStartDate'), leaf('cbc:EndDate', 'invoiceLinePeriodEndDate')], {
        scope: 'invoiceLinePeriod',
      }),
      group('cac:OrderLineReference', [leaf('cbc:LineID', 'referencedPurchaseOrderLineReference')]),
      group('cac:DocumentReference', [leaf('cbc:ID', 'invoiceLineObjectIdentifier'), constant('cbc:DocumentTypeCode', '130')]),
      allowanceCharge('invoiceLine', 'Allowance'),
      allowanceCharge('invoiceLine', 'Charge'),
      group('cac:Item', [
        leaf('cbc:Description', item('itemDescription')),
        leaf('cbc:Name', item('itemName')),
        group('cac:BuyersItemIdentification', [leaf('cbc:ID', item('itemBuyersIdentifier'))]),
        group('cac:SellersItemIdentification', [leaf('cbc:ID', item('itemSellersIdentifier'))]),
        group('cac:StandardItemIdentification', [
          leaf('cbc:ID', item('itemStandardIdentifier'), { attrs: { schemeID: { path: item('itemStandardIdentifierSchemeIdentifier') } } }),
        ]),
        group('cac:OriginCountry', [leaf('cbc:IdentificationCode', item('itemCountryOfOrigin'))]),
        group(
          'cac:CommodityClassification',
          [
            leaf('cbc:ItemClassificationCode', 'itemClassificationIdentifier', {
              attrs: {
                listID: { path: 'itemClassificationIdentifierListIdentifier' },
                listVersionID: { path: 'itemClassificationIdentifierListVersionIdentifier' },
              },
            }),
          ],
          { each: item('itemClassificationIdentifier') },
        ),
        taxCategory('cac:ClassifiedTaxCategory', [
          leaf('cbc:ID', 'lineVatInformation.0.invoicedItemVatCategoryCode'),
          leaf('cbc:Percent', 'lineVatInformation.0.invoicedItemVatRate'),
        ]),
        group('cac:AdditionalItemProperty', [leaf('cbc:Name', 'itemAttributeName'), leaf('cbc:Value', 'itemAttributeValue')], {
          each: item('itemAttributes'),
        }),
      ]),
      group(
        'cac:Price',
        [
          amount('cbc:PriceAmount', 'itemNetPrice'),
          leaf('cbc:BaseQuantity', 'itemPriceBaseQuantity', { attrs: { unitCode: { path: 'itemPriceBaseQuantityUnitOfMeasure' } } }),
          group('cac:AllowanceCharge', [
            constant('cbc:ChargeIndicator', 'false'),
            amount('cbc:Amount', 'itemPriceDiscount', { fallback: priceDiscountOf }),
            amount('cbc:BaseAmount', 'itemGrossPrice'),
          ]),
        ],
        { scope: 'priceDetails' },
      ),
    ],
    { each: 'invoiceLine' },
  );
}

const typedReference = (code: string, path: string) =>
  group('cac:AdditionalDocumentReference', [leaf('cbc:ID', path), constant('cbc:DocumentTypeCode', code)], {
    match: { child: 'cbc:DocumentTypeCode', in: [code] },
  });

const idReference = (tag: string, path: string) => group(tag, [leaf('cbc:ID', path)]);

function supportingDocuments(typedCodes: string[]): XmlNode {
  return group(
    'cac:AdditionalDocumentReference',
    [
      leaf('cbc:ID', 'supportingDocumentReference'),
      leaf('cbc:DocumentDescription', 'supportingDocumentDescription'),
      group('cac:Attachment', [
        leaf('cbc:EmbeddedDocumentBinaryObject', 'attachedDocument', { attrs: attachmentAttrs }),
        group('cac:ExternalReference', [leaf('cbc:URI', 'externalDocumentLocation')]),
      ]),
    ],
    { each: 'additionalSupportingDocuments', match: { child: 'cbc:DocumentTypeCode', notIn: typedCodes } },
  );
}

function ublDocument(creditNote: boolean): XmlDocument {
  const taxPointDate = leaf('cbc:TaxPointDate', 'valueAddedTaxPointDate');
  const tender = idReference('cac:OriginatorDocumentReference', 'tenderOrLotReference');
  const references = creditNote
    ? [
        idReference('cac:ContractDocumentReference', 'contractReference'),
        typedReference('130', 'invoicedObjectIdentifier'),
        // A credit note has no ProjectReference; EN 16931 uses a document reference of type 50.
        typedReference('50', 'projectReference.projectReferenceIdentifier'),
        supportingDocuments(['130', '50']),
        tender,
      ]
    : [
        tender,
        idReference('cac:ContractDocumentReference', 'contractReference'),
        typedReference('130', 'invoicedObjectIdentifier'),
        supportingDocuments(['130']),
        idReference('cac:ProjectReference', 'projectReference.projectReferenceIdentifier'),
      ];
  return {
    namespaces: { '': creditNote ? UBL_CREDIT_NOTE_NS : UBL_INVOICE_NS, cac: NS_CAC, cbc: NS_CBC },
    root: group(creditNote ? 'CreditNote' : 'Invoice', [
      leaf('cbc:CustomizationID', 'processControl.specificationIdentifier'),
      leaf('cbc:ProfileID', 'processControl.businessProcessTypeIdentifier'),
      leaf('cbc:ID', 'invoiceNumber'),
      leaf('cbc:IssueDate', 'invoiceIssueDate'),
      ...(creditNote
        ? [taxPointDate, leaf('cbc:CreditNoteTypeCode', 'invoiceTypeCode')]
        : [leaf('cbc:DueDate', 'paymentDueDate'), leaf('cbc:InvoiceTypeCode', 'invoiceTypeCode')]),
      leaf('cbc:Note', '', { each: 'invoiceNote', codec: subjectNote }),
      ...(creditNote ? [] : [taxPointDate]),
      leaf('cbc:DocumentCurrencyCode', 'invoiceCurrencyCode'),
      leaf('cbc:TaxCurrencyCode', 'vatAccountingCurrencyCode'),
      leaf('cbc:AccountingCost', 'buyerAccountingReference'),
      leaf('cbc:BuyerReference', 'buyerReference'),
      group('cac:InvoicePeriod', [
        leaf('cbc:StartDate', 'invoicingPeriod.invoicingPeriodStartDate'),
        leaf('cbc:EndDate', 'invoicingPeriod.invoicingPeriodEndDate'),
        leaf('cbc:DescriptionCode', 'valueAddedTaxPointDateCode', { codec: vatDateCodeUbl }),
      ]),
      // The order ID is mandatory in UBL; with only a sales order reference it is "NA".
      group('cac:OrderReference', [
        leaf('cbc:ID', 'purchaseOrderReference', { fallback: 'NA' }),
        leaf('cbc:SalesOrderID', 'salesOrderReference'),
      ]),
      group(
        'cac:BillingReference',
        [
          group('cac:InvoiceDocumentReference', [
            leaf('cbc:ID', 'precedingInvoiceReference'),
            leaf('cbc:IssueDate', 'precedingInvoiceIssueDate'),
          ]),
        ],
        { each: 'precedingInvoiceReference' },
      ),
      idReference('cac:DespatchDocumentReference', 'despatchAdviceReference'),
      idReference('cac:ReceiptDocumentReference', 'receivingAdviceReference'),
      ...references,
      sellerParty,
      buyerParty,
      payeeParty,
      taxRepresentativeParty,
      delivery,
      paymentMeans(creditNote),
      group('cac:PaymentTerms', [leaf('cbc:Note', 'paymentTerms')]),
      allowanceCharge('documentLevel', 'Allowance'),
      allowanceCharge('documentLevel', 'Charge'),
      ...vatTotals,
      monetaryTotal,
      invoiceLine(creditNote),
    ]),
  };
}

export const ublInvoiceDocument = ublDocument(false);
export const ublCreditNoteDocument = ublDocument(true);
