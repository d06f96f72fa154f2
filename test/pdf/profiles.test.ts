import { describe, expect, it } from 'vitest';
import { CII_GUIDELINES } from '../../src/xml/index.js';
import { profileFromGuideline, profileFromXmpLevel, PROFILE_FACTS, ZUGFERD_PROFILES } from '../../src/pdf/profiles.js';
import { detectProfile } from '../../src/pdf/zugferd.js';
import { guidelineOf, migrateZugferd1 } from '../../src/pdf/zugferd1.js';
import { parseInvoiceXml } from '../../src/xml/index.js';

describe('profile detection', () => {
  it('reads every profile back from the BT-24 our writer puts in, and from its XMP level', () => {
    for (const profile of ZUGFERD_PROFILES) {
      expect(profileFromGuideline(CII_GUIDELINES[profile])).toMatchObject({ profile, generation: 'Factur-X 1.0 / ZUGFeRD 2.x' });
      expect(profileFromXmpLevel(PROFILE_FACTS[profile].xmpLevel)).toBe(profile);
    }
  });

  it('knows ZUGFeRD 2.0 and older XRechnung identifiers, and names no profile for near misses', () => {
    expect(profileFromGuideline('urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic')).toMatchObject({ profile: 'BASIC', generation: 'ZUGFeRD 2.0' });
    expect(profileFromGuideline('urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.3')).toMatchObject({ profile: 'XRECHNUNG' });
    expect(profileFromGuideline('urn:cen.eu:en16931:2017:compliant:factur-x.eu:1p0:basic').profile).toBeUndefined();
    expect(profileFromGuideline(undefined).profile).toBeUndefined();
  });
});

/** A ZUGFeRD 1.0 BASIC invoice as the 2014 specification writes it. */
const ZF1 = `<?xml version="1.0" encoding="UTF-8"?>
<rsm:CrossIndustryDocument xmlns:rsm="urn:ferd:CrossIndustryDocument:invoice:1p0" xmlns:ram="urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12" xmlns:udt="urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15">
  <rsm:SpecifiedExchangedDocumentContext>
    <ram:GuidelineSpecifiedDocumentContextParameter><ram:ID>urn:ferd:CrossIndustryDocument:invoice:1p0:basic</ram:ID></ram:GuidelineSpecifiedDocumentContextParameter>
  </rsm:SpecifiedExchangedDocumentContext>
  <rsm:HeaderExchangedDocument>
    <ram:ID>RE-1</ram:ID><ram:TypeCode>380</ram:TypeCode>
    <ram:IssueDateTime><udt:DateTimeString format="102">20140703</udt:DateTimeString></ram:IssueDateTime>
  </rsm:HeaderExchangedDocument>
  <rsm:SpecifiedSupplyChainTradeTransaction>
    <ram:ApplicableSupplyChainTradeAgreement>
      <ram:SellerTradeParty><ram:Name>Seller GmbH</ram:Name></ram:SellerTradeParty>
      <ram:BuyerTradeParty><ram:Name>Buyer AG</ram:Name></ram:BuyerTradeParty>
    </ram:ApplicableSupplyChainTradeAgreement>
    <ram:ApplicableSupplyChainTradeDelivery>
      <ram:ActualDeliverySupplyChainEvent><ram:OccurrenceDateTime><udt:DateTimeString format="610">201407</udt:DateTimeString></ram:OccurrenceDateTime></ram:ActualDeliverySupplyChainEvent>
    </ram:ApplicableSupplyChainTradeDelivery>
    <ram:ApplicableSupplyChainTradeSettlement>
      <ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>
      <ram:ApplicableTradeTax><ram:CalculatedAmount currencyID="EUR">19.00</ram:CalculatedAmount><ram:TypeCode>VAT</ram:TypeCode><ram:BasisAmount currencyID="EUR">100.00</ram:BasisAmount><ram:CategoryCode>S</ram:CategoryCode><ram:ApplicablePercent>19.00</ram:ApplicablePercent></ram:ApplicableTradeTax>
      <ram:SpecifiedTradeSettlementMonetarySummation>
        <ram:LineTotalAmount currencyID="EUR">100.00</ram:LineTotalAmount><ram:TaxBasisTotalAmount currencyID="EUR">100.00</ram:TaxBasisTotalAmount>
        <ram:TaxTotalAmount currencyID="EUR">19.00</ram:TaxTotalAmount><ram:GrandTotalAmount currencyID="EUR">119.00</ram:GrandTotalAmount>
        <ram:DuePayableAmount currencyID="EUR">119.00</ram:DuePayableAmount>
      </ram:SpecifiedTradeSettlementMonetarySummation>
    </ram:ApplicableSupplyChainTradeSettlement>
    <ram:IncludedSupplyChainTradeLineItem>
      <ram:AssociatedDocumentLineDocument><ram:LineID>1</ram:LineID></ram:AssociatedDocumentLineDocument>
      <ram:SpecifiedSupplyChainTradeDelivery><ram:BilledQuantity unitCode="C62">2</ram:BilledQuantity></ram:SpecifiedSupplyChainTradeDelivery>
      <ram:SpecifiedSupplyChainTradeSettlement>
        <ram:SpecifiedTradeSettlementMonetarySummation><ram:LineTotalAmount currencyID="EUR">100.00</ram:LineTotalAmount></ram:SpecifiedTradeSettlementMonetarySummation>
      </ram:SpecifiedSupplyChainTradeSettlement>
      <ram:SpecifiedTradeProduct><ram:Name>Sattel</ram:Name></ram:SpecifiedTradeProduct>
    </ram:IncludedSupplyChainTradeLineItem>
  </rsm:SpecifiedSupplyChainTradeTransaction>
</rsm:CrossIndustryDocument>`;

describe('ZUGFeRD 1.0', () => {
  it('is recognised by its namespace and read through the CII mapping', () => {
    expect(detectProfile(ZF1)).toMatchObject({ generation: 'ZUGFeRD 1.0', profile: 'BASIC' });
    expect(guidelineOf(ZF1)).toBe('urn:ferd:CrossIndustryDocument:invoice:1p0:basic');
    const { syntax, invoice } = parseInvoiceXml(migrateZugferd1(ZF1));
    expect(syntax).toBe('CII');
    expect(invoice).toMatchObject({
      invoiceNumber: 'RE-1',
      invoiceIssueDate: '2014-07-03',
      invoiceCurrencyCode: 'EUR',
      seller: { sellerName: 'Seller GmbH' },
      buyer: { buyerName: 'Buyer AG' },
      documentTotals: { sumOfInvoiceLineNetAmount: '100.00', invoiceTotalAmountWithVat: '119.00', amountDueForPayment: '119.00' },
      vatBreakdown: [{ vatCategoryCode: 'S', vatCategoryRate: '19.00', vatCategoryTaxAmount: '19.00' }],
      invoiceLine: [{ invoiceLineIdentifier: '1', invoicedQuantity: '2', invoiceLineNetAmount: '100.00', itemInformation: { itemName: 'Sattel' } }],
    });
    // A month (format 610) is not a date EN 16931 can hold.
    expect(invoice.deliveryInformation?.actualDeliveryDate).toBeUndefined();
  });
});
