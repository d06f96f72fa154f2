import { parseDate } from '../invoice/model.js';
import { attachmentAttrs, electronicAddress, grossPriceOf, vatDateCodeCii } from './codes.js';
import { constant, group, leaf, type Codec, type Profile, type XmlDocument, type XmlNode } from './mapping.js';

/**
 * UN/CEFACT CII D16B (Factur-X / ZUGFeRD 2 / XRechnung) as one description, element order
 * after the Factur-X 1.0 XSDs. Each node carries the lowest Factur-X profile whose XSD allows
 * it (children inherit), so one tree serves MINIMUM up to EXTENDED.
 */

const NAMESPACES = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
};

/** CII dates are `YYYYMMDD` with format code 102. */
const date102: Codec = {
  write: (value) => (typeof value === 'string' ? value.replaceAll('-', '') : undefined),
  parse: (text) => parseDate(text) ?? text,
};

const dateTime = (tag: string, path: string, options: { profile?: Profile } = {}) =>
  group(tag, [leaf('udt:DateTimeString', path, { codec: date102, attrs: { format: '102' } })], options);

const formattedDate = (tag: string, path: string) =>
  group(tag, [leaf('qdt:DateTimeString', path, { codec: date102, attrs: { format: '102' } })]);

const indicator = (charge: boolean) => group('ram:ChargeIndicator', [constant('udt:Indicator', String(charge))], { required: true });
const isCharge = (charge: boolean) => ({ child: 'ram:ChargeIndicator/udt:Indicator', in: charge ? ['true', '1'] : ['false', '0'] });

const vatType = constant('ram:TypeCode', 'VAT');

/** The issuer-assigned ID of a referenced document: the only part EN 16931 uses of most of them. */
const referencedDocument = (tag: string, path: string, options: { profile?: Profile } = {}) =>
  group(tag, [leaf('ram:IssuerAssignedID', path)], options);

type AddressOwner = 'seller' | 'buyer' | 'taxRepresentative' | 'deliverTo';

function address(owner: AddressOwner, scope: string): XmlNode {
  return group(
    'ram:PostalTradeAddress',
    [
      leaf('ram:PostcodeCode', `${owner}PostCode`, { profile: 'BASICWL' }),
      leaf('ram:LineOne', `${owner}AddressLine1`, { profile: 'BASICWL' }),
      leaf('ram:LineTwo', `${owner}AddressLine2`, { profile: 'BASICWL' }),
      leaf('ram:LineThree', `${owner}AddressLine3`, { profile: 'BASICWL' }),
      leaf('ram:CityName', `${owner}City`, { profile: 'BASICWL' }),
      leaf('ram:CountryID', `${owner}CountryCode`),
      leaf('ram:CountrySubDivisionName', `${owner}CountrySubdivision`, { profile: 'BASICWL' }),
    ],
    { scope },
  );
}

function contact(owner: 'seller' | 'buyer'): XmlNode {
  return group(
    'ram:DefinedTradeContact',
    [
      leaf('ram:PersonName', `${owner}ContactPoint`),
      leaf('ram:DepartmentName', `${owner}ContactPoint`, { parseOnly: true }),
      group('ram:TelephoneUniversalCommunication', [leaf('ram:CompleteNumber', `${owner}ContactTelephoneNumber`)]),
      group('ram:EmailURIUniversalCommunication', [leaf('ram:URIID', `${owner}ContactEmailAddress`)]),
    ],
    { scope: `${owner}Contact`, profile: 'EN16931' },
  );
}

const taxRegistration = (scheme: 'VA' | 'FC', path: string) =>
  group('ram:SpecifiedTaxRegistration', [leaf('ram:ID', path, { attrs: { schemeID: scheme } })], {
    match: { child: 'ram:ID', attr: 'schemeID', in: [scheme] },
  });

const uriCommunication = (path: string) =>
  group('ram:URIUniversalCommunication', [leaf('ram:URIID', path, electronicAddress)], {
    profile: 'BASICWL',
  });

/** Party identifiers without a scheme are ram:ID; the model keeps no scheme, so GlobalID is only read. */
function partyIds(path: string, list = false): XmlNode[] {
  return list
    ? [
        leaf('ram:ID', '', { each: path, profile: 'BASICWL' }),
        leaf('ram:GlobalID', '', { each: path, profile: 'BASICWL', parseOnly: true }),
      ]
    : [leaf('ram:ID', path, { profile: 'BASICWL' }), leaf('ram:GlobalID', path, { profile: 'BASICWL', parseOnly: true })];
}

/** BG-20/21 on document level (with their VAT category), BG-27/28 on lines. */
function allowanceCharge(level: 'documentLevel' | 'invoiceLine', kind: 'Allowance' | 'Charge'): XmlNode {
  const key = `${level}${kind}`;
  const charge = kind === 'Charge';
  const documentLevel = level === 'documentLevel';
  return group(
    'ram:SpecifiedTradeAllowanceCharge',
    [
      indicator(charge),
      leaf('ram:CalculationPercent', `${key}Percentage`),
      leaf('ram:BasisAmount', `${key}BaseAmount`),
      leaf('ram:ActualAmount', `${key}Amount`),
      leaf('ram:ReasonCode', `${key}ReasonCode`),
      leaf('ram:Reason', `${key}Reason`),
      ...(documentLevel
        ? [
            group('ram:CategoryTradeTax', [
              vatType,
              leaf('ram:CategoryCode', `${key}VatCategoryCode`),
              leaf('ram:RateApplicablePercent', `${key}VatRate`),
            ]),
          ]
        : []),
    ],
    { each: `${key}s`, match: isCharge(charge), ...(documentLevel ? { profile: 'BASICWL' as const } : {}) },
  );
}

const lineItem = group(
  'ram:IncludedSupplyChainTradeLineItem',
  [
    group('ram:AssociatedDocumentLineDocument', [
      leaf('ram:LineID', 'invoiceLineIdentifier'),
      group('ram:IncludedNote', [leaf('ram:Content', 'invoiceLineNote')]),
    ]),
    group(
      'ram:SpecifiedTradeProduct',
      [
        leaf('ram:GlobalID', 'itemStandardIdentifier', { attrs: { schemeID: { path: 'itemStandardIdentifierSchemeIdentifier' } } }),
        leaf('ram:SellerAssignedID', 'itemSellersIdentifier', { profile: 'EN16931' }),
        leaf('ram:BuyerAssignedID', 'itemBuyersIdentifier', { profile: 'EN16931' }),
        leaf('ram:Name', 'itemName'),
        leaf('ram:Description', 'itemDescription', { profile: 'EN16931' }),
        group(
          'ram:ApplicableProductCharacteristic',
          [leaf('ram:Description', 'itemAttributeName'), leaf('ram:Value', 'itemAttributeValue')],
          {
            each: 'itemAttributes',
            profile: 'EN16931',
          },
        ),
        group(
          'ram:DesignatedProductClassification',
          [
            leaf('ram:ClassCode', 'itemClassificationIdentifier', {
              attrs: {
                listID: { path: 'itemClassificationIdentifierListIdentifier' },
                listVersionID: { path: 'itemClassificationIdentifierListVersionIdentifier' },
              },
            }),
          ],
          { each: 'itemClassificationIdentifier', profile: 'EN16931' },
        ),
        group('ram:OriginTradeCountry', [leaf('ram:ID', 'itemCountryOfOrigin')], { profile: 'EN16931' }),
      ],
      { scope: 'itemInformation' },
    ),
    group(
      'ram:SpecifiedLineTradeAgreement',
      [
        group('ram:BuyerOrderReferencedDocument', [leaf('ram:LineID', 'referencedPurchaseOrderLineReference')], { profile: 'EN16931' }),
        group(
          'ram:GrossPriceProductTradePrice',
          [
            leaf('ram:ChargeAmount', 'itemGrossPrice', { fallback: grossPriceOf }),
            leaf('ram:BasisQuantity', 'itemPriceBaseQuantity', { attrs: { unitCode: { path: 'itemPriceBaseQuantityUnitOfMeasure' } } }),
            group('ram:AppliedTradeAllowanceCharge', [indicator(false), leaf('ram:ActualAmount', 'itemPriceDiscount')]),
          ],
          // Not for a bare base quantity, which the net price carries as well.
          { scope: 'priceDetails', onlyWith: ['itemGrossPrice', 'itemPriceDiscount'] },
        ),
        group(
          'ram:NetPriceProductTradePrice',
          [
            leaf('ram:ChargeAmount', 'itemNetPrice'),
            leaf('ram:BasisQuantity', 'itemPriceBaseQuantity', { attrs: { unitCode: { path: 'itemPriceBaseQuantityUnitOfMeasure' } } }),
          ],
          { scope: 'priceDetails' },
        ),
      ],
      { required: true },
    ),
    group('ram:SpecifiedLineTradeDelivery', [
      leaf('ram:BilledQuantity', 'invoicedQuantity', { attrs: { unitCode: { path: 'invoicedQuantityUnitOfMeasureCode' } } }),
    ]),
    group('ram:SpecifiedLineTradeSettlement', [
      group('ram:ApplicableTradeTax', [
        vatType,
        leaf('ram:CategoryCode', 'lineVatInformation.0.invoicedItemVatCategoryCode'),
        leaf('ram:RateApplicablePercent', 'lineVatInformation.0.invoicedItemVatRate'),
      ]),
      group(
        'ram:BillingSpecifiedPeriod',
        [dateTime('ram:StartDateTime', 'invoiceLinePeriodStartDate'), dateTime('ram:EndDateTime', 'invoiceLinePeriodEndDate')],
        {
          scope: 'invoiceLinePeriod',
        },
      ),
      allowanceCharge('invoiceLine', 'Allowance'),
      allowanceCharge('invoiceLine', 'Charge'),
      group('ram:SpecifiedTradeSettlementLineMonetarySummation', [leaf('ram:LineTotalAmount', 'invoiceLineNetAmount')]),
      group(
        'ram:AdditionalReferencedDocument',
        [leaf('ram:IssuerAssignedID', 'invoiceLineObjectIdentifier'), constant('ram:TypeCode', '130')],
        {
          profile: 'EN16931',
          match: { child: 'ram:TypeCode', in: ['130'] },
        },
      ),
      group('ram:ReceivableSpecifiedTradeAccountingAccount', [leaf('ram:ID', 'invoiceLineBuyerAccountingReference')], {
        profile: 'EN16931',
      }),
    ]),
  ],
  { each: 'invoiceLine', profile: 'BASIC' },
);

const supportingDocument = group(
  'ram:AdditionalReferencedDocument',
  [
    leaf('ram:IssuerAssignedID', 'supportingDocumentReference'),
    leaf('ram:URIID', 'externalDocumentLocation'),
    constant('ram:TypeCode', '916'),
    leaf('ram:Name', 'supportingDocumentDescription'),
    leaf('ram:AttachmentBinaryObject', 'attachedDocument', { attrs: attachmentAttrs }),
  ],
  { each: 'additionalSupportingDocuments', match: { child: 'ram:TypeCode', in: ['916'] }, profile: 'EN16931' },
);

const typedReference = (code: string, path: string) =>
  group('ram:AdditionalReferencedDocument', [leaf('ram:IssuerAssignedID', path), constant('ram:TypeCode', code)], {
    match: { child: 'ram:TypeCode', in: [code] },
    profile: 'EN16931',
  });

const headerAgreement = group(
  'ram:ApplicableHeaderTradeAgreement',
  [
    leaf('ram:BuyerReference', 'buyerReference'),
    group(
      'ram:SellerTradeParty',
      [
        ...partyIds('sellerIdentifier', true),
        leaf('ram:Name', 'sellerName'),
        leaf('ram:Description', 'sellerAdditionalLegalInformation', { profile: 'EN16931' }),
        group('ram:SpecifiedLegalOrganization', [
          leaf('ram:ID', 'sellerLegalRegistrationIdentifier'),
          leaf('ram:TradingBusinessName', 'sellerTradingName', { profile: 'BASICWL' }),
        ]),
        contact('seller'),
        address('seller', 'sellerPostalAddress'),
        uriCommunication('sellerElectronicAddress'),
        taxRegistration('VA', 'sellerVatIdentifier'),
        taxRegistration('FC', 'sellerTaxRegistrationIdentifier'),
      ],
      { scope: 'seller', required: true },
    ),
    group(
      'ram:BuyerTradeParty',
      [
        ...partyIds('buyerIdentifier'),
        leaf('ram:Name', 'buyerName'),
        group('ram:SpecifiedLegalOrganization', [
          leaf('ram:ID', 'buyerLegalRegistrationIdentifier'),
          leaf('ram:TradingBusinessName', 'buyerTradingName', { profile: 'BASICWL' }),
        ]),
        contact('buyer'),
        address('buyer', 'buyerPostalAddress'),
        uriCommunication('buyerElectronicAddress'),
        taxRegistration('VA', 'buyerVatIdentifier'),
      ],
      { scope: 'buyer', required: true },
    ),
    group(
      'ram:SellerTaxRepresentativeTradeParty',
      [
        leaf('ram:Name', 'sellerTaxRepresentativeName'),
        address('taxRepresentative', 'sellerTaxRepresentativePostalAddress'),
        taxRegistration('VA', 'sellerTaxRepresentativeVatIdentifier'),
      ],
      { scope: 'sellerTaxRepresentativeParty', profile: 'BASICWL' },
    ),
    referencedDocument('ram:SellerOrderReferencedDocument', 'salesOrderReference', { profile: 'EN16931' }),
    referencedDocument('ram:BuyerOrderReferencedDocument', 'purchaseOrderReference'),
    referencedDocument('ram:ContractReferencedDocument', 'contractReference', { profile: 'BASICWL' }),
    supportingDocument,
    typedReference('50', 'tenderOrLotReference'),
    typedReference('130', 'invoicedObjectIdentifier'),
    // ID and Name are both mandatory in CII; EN 16931 has only the identifier.
    group(
      'ram:SpecifiedProcuringProject',
      [leaf('ram:ID', 'projectReferenceIdentifier', { fallback: 'NA' }), leaf('ram:Name', 'projectReferenceName', { fallback: 'NA' })],
      {
        scope: 'projectReference',
        profile: 'EN16931',
      },
    ),
  ],
  { required: true },
);

const headerDelivery = group(
  'ram:ApplicableHeaderTradeDelivery',
  [
    group(
      'ram:ShipToTradeParty',
      [...partyIds('deliverToLocationIdentifier'), leaf('ram:Name', 'deliverToPartyName'), address('deliverTo', 'deliverToAddress')],
      { scope: 'deliveryInformation', profile: 'BASICWL' },
    ),
    group('ram:ActualDeliverySupplyChainEvent', [dateTime('ram:OccurrenceDateTime', 'deliveryInformation.actualDeliveryDate')], {
      profile: 'BASICWL',
    }),
    referencedDocument('ram:DespatchAdviceReferencedDocument', 'despatchAdviceReference', { profile: 'BASICWL' }),
    referencedDocument('ram:ReceivingAdviceReferencedDocument', 'receivingAdviceReference', { profile: 'EN16931' }),
  ],
  { required: true },
);

/**
 * One payment means element per credit transfer account (at least one): CII has no other
 * place for a second account. The type code repeats in each; text, card and debtor account
 * occur once per invoice, so only the first has them.
 */
const paymentMeans = group(
  'ram:SpecifiedTradeSettlementPaymentMeans',
  [
    leaf('ram:TypeCode', '/paymentInstructions.paymentMeansTypeCode'),
    leaf('ram:Information', '/paymentInstructions.paymentMeansText', { profile: 'EN16931', firstItemOnly: true }),
    group(
      'ram:ApplicableTradeSettlementFinancialCard',
      [leaf('ram:ID', 'paymentCardPrimaryAccountNumber'), leaf('ram:CardholderName', 'paymentCardHolderName')],
      {
        scope: '/paymentInstructions.paymentCardInformation',
        profile: 'EN16931',
        firstItemOnly: true,
      },
    ),
    group('ram:PayerPartyDebtorFinancialAccount', [leaf('ram:IBANID', '/paymentInstructions.directDebit.debitedAccountIdentifier')], {
      firstItemOnly: true,
    }),
    group('ram:PayeePartyCreditorFinancialAccount', [
      leaf('ram:IBANID', 'paymentAccountIdentifier'),
      leaf('ram:AccountName', 'paymentAccountName', { profile: 'EN16931' }),
      leaf('ram:ProprietaryID', 'paymentAccountIdentifier', { parseOnly: true }),
    ]),
    group('ram:PayeeSpecifiedCreditorFinancialInstitution', [leaf('ram:BICID', 'paymentServiceProviderIdentifier')], {
      profile: 'EN16931',
    }),
  ],
  { each: 'paymentInstructions.creditTransfer', eachOrOnce: true, profile: 'BASICWL' },
);

const vatBreakdown = group(
  'ram:ApplicableTradeTax',
  [
    leaf('ram:CalculatedAmount', 'vatCategoryTaxAmount'),
    vatType,
    leaf('ram:ExemptionReason', 'vatExemptionReasonText'),
    leaf('ram:BasisAmount', 'vatCategoryTaxableAmount'),
    leaf('ram:CategoryCode', 'vatCategoryCode'),
    leaf('ram:ExemptionReasonCode', 'vatExemptionReasonCode'),
    // CII has BT-7 and BT-8 only per VAT breakdown; they repeat in each.
    group('ram:TaxPointDate', [leaf('udt:DateString', '/valueAddedTaxPointDate', { codec: date102, attrs: { format: '102' } })], {
      profile: 'EN16931',
    }),
    leaf('ram:DueDateTypeCode', '/valueAddedTaxPointDateCode', { codec: vatDateCodeCii }),
    leaf('ram:RateApplicablePercent', 'vatCategoryRate'),
  ],
  { each: 'vatBreakdown', profile: 'BASICWL' },
);

const monetarySummation = group(
  'ram:SpecifiedTradeSettlementHeaderMonetarySummation',
  [
    leaf('ram:LineTotalAmount', 'sumOfInvoiceLineNetAmount', { profile: 'BASICWL' }),
    leaf('ram:ChargeTotalAmount', 'sumOfChargesOnDocumentLevel', { profile: 'BASICWL' }),
    leaf('ram:AllowanceTotalAmount', 'sumOfAllowancesOnDocumentLevel', { profile: 'BASICWL' }),
    leaf('ram:TaxBasisTotalAmount', 'invoiceTotalAmountWithoutVat'),
    // Two TaxTotalAmount elements, told apart by currency: invoice currency, then VAT accounting currency.
    leaf('ram:TaxTotalAmount', 'invoiceTotalVatAmount', {
      attrs: { currencyID: { path: '/invoiceCurrencyCode' } },
      match: { attr: 'currencyID', notIn: [{ path: '/vatAccountingCurrencyCode' }] },
    }),
    leaf('ram:TaxTotalAmount', 'invoiceTotalVatAmountInAccountingCurrency', {
      attrs: { currencyID: { path: '/vatAccountingCurrencyCode' } },
      match: { attr: 'currencyID', in: [{ path: '/vatAccountingCurrencyCode' }] },
    }),
    leaf('ram:RoundingAmount', 'roundingAmount', { profile: 'EN16931' }),
    leaf('ram:GrandTotalAmount', 'invoiceTotalAmountWithVat'),
    leaf('ram:TotalPrepaidAmount', 'paidAmount', { profile: 'BASICWL' }),
    leaf('ram:DuePayableAmount', 'amountDueForPayment'),
  ],
  { scope: 'documentTotals', required: true },
);

const headerSettlement = group(
  'ram:ApplicableHeaderTradeSettlement',
  [
    leaf('ram:CreditorReferenceID', 'paymentInstructions.directDebit.bankAssignedCreditorIdentifier', { profile: 'BASICWL' }),
    leaf('ram:PaymentReference', 'paymentInstructions.remittanceInformation', { profile: 'BASICWL' }),
    leaf('ram:TaxCurrencyCode', 'vatAccountingCurrencyCode', { profile: 'BASICWL' }),
    leaf('ram:InvoiceCurrencyCode', 'invoiceCurrencyCode'),
    group(
      'ram:PayeeTradeParty',
      [
        ...partyIds('payeeIdentifier'),
        leaf('ram:Name', 'payeeName'),
        group('ram:SpecifiedLegalOrganization', [leaf('ram:ID', 'payeeLegalRegistrationIdentifier')]),
      ],
      { scope: 'payee', profile: 'BASICWL' },
    ),
    paymentMeans,
    vatBreakdown,
    group(
      'ram:BillingSpecifiedPeriod',
      [dateTime('ram:StartDateTime', 'invoicingPeriodStartDate'), dateTime('ram:EndDateTime', 'invoicingPeriodEndDate')],
      {
        scope: 'invoicingPeriod',
        profile: 'BASICWL',
      },
    ),
    allowanceCharge('documentLevel', 'Allowance'),
    allowanceCharge('documentLevel', 'Charge'),
    group(
      'ram:SpecifiedTradePaymentTerms',
      [
        leaf('ram:Description', 'paymentTerms'),
        dateTime('ram:DueDateDateTime', 'paymentDueDate'),
        leaf('ram:DirectDebitMandateID', 'paymentInstructions.directDebit.mandateReferenceIdentifier'),
      ],
      { profile: 'BASICWL' },
    ),
    monetarySummation,
    group(
      'ram:InvoiceReferencedDocument',
      [leaf('ram:IssuerAssignedID', 'precedingInvoiceReference'), formattedDate('ram:FormattedIssueDateTime', 'precedingInvoiceIssueDate')],
      {
        each: 'precedingInvoiceReference',
        profile: 'BASICWL',
      },
    ),
    group('ram:ReceivableSpecifiedTradeAccountingAccount', [leaf('ram:ID', 'buyerAccountingReference')], { profile: 'BASICWL' }),
  ],
  { required: true },
);

export const ciiDocument: XmlDocument = {
  namespaces: NAMESPACES,
  root: group(
    'rsm:CrossIndustryInvoice',
    [
      group(
        'rsm:ExchangedDocumentContext',
        [
          group('ram:BusinessProcessSpecifiedDocumentContextParameter', [leaf('ram:ID', 'businessProcessTypeIdentifier')]),
          group('ram:GuidelineSpecifiedDocumentContextParameter', [leaf('ram:ID', 'specificationIdentifier')]),
        ],
        { scope: 'processControl', required: true },
      ),
      group(
        'rsm:ExchangedDocument',
        [
          leaf('ram:ID', 'invoiceNumber'),
          leaf('ram:TypeCode', 'invoiceTypeCode'),
          dateTime('ram:IssueDateTime', 'invoiceIssueDate'),
          group('ram:IncludedNote', [leaf('ram:Content', 'invoiceNote'), leaf('ram:SubjectCode', 'invoiceNoteSubjectCode')], {
            each: 'invoiceNote',
            profile: 'BASICWL',
          }),
        ],
        { required: true },
      ),
      group('rsm:SupplyChainTradeTransaction', [lineItem, headerAgreement, headerDelivery, headerSettlement], { required: true }),
    ],
    { profile: 'MINIMUM' },
  ),
};
