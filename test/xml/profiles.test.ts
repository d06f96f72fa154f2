import { DOMParser, type Element } from '@xmldom/xmldom';
import { describe, expect, it } from 'vitest';
import { CII_GUIDELINES, parseInvoiceXml, writeCii, writeInvoiceXml, type CiiProfile } from '../../src/xml/index.js';
import { invoiceFixture } from './fixtures.js';

const RAM = 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100';

function names(xml: string): Set<string> {
  const root = new DOMParser().parseFromString(xml, 'text/xml').documentElement as Element;
  return new Set(
    Array.from(root.getElementsByTagNameNS('*', '*')).map((e) =>
      e.namespaceURI === RAM ? String(e.localName) : `${e.prefix}:${e.localName}`,
    ),
  );
}

const guideline = (xml: string) => /<ram:GuidelineSpecifiedDocumentContextParameter>\s*<ram:ID>([^<]+)</.exec(xml)?.[1];

// A fixture with notes, contact, payment means with BIC, delivery, references and rich lines.
const rich = { ...invoiceFixture('33-all-references'), invoiceNote: [{ invoiceNote: 'Hinweis' }] };

describe('CII profile filter', () => {
  const xml = (profile?: CiiProfile) => writeCii(rich, profile ? { profile } : {});

  it('names the profile in BT-24', () => {
    for (const profile of Object.keys(CII_GUIDELINES) as CiiProfile[]) expect(guideline(xml(profile))).toBe(CII_GUIDELINES[profile]);
  });

  it('MINIMUM keeps header, parties, order reference and the totals of a booking aid', () => {
    const present = names(xml('MINIMUM'));
    for (const name of [
      'BuyerReference',
      'SellerTradeParty',
      'SpecifiedTaxRegistration',
      'BuyerOrderReferencedDocument',
      'TaxBasisTotalAmount',
      'TaxTotalAmount',
      'GrandTotalAmount',
      'DuePayableAmount',
    ]) {
      expect(present, name).toContain(name);
    }
    for (const name of [
      'IncludedSupplyChainTradeLineItem',
      'IncludedNote',
      'DefinedTradeContact',
      'PostcodeCode',
      'URIUniversalCommunication',
      'SpecifiedTradeSettlementPaymentMeans',
      'ApplicableTradeTax',
      'LineTotalAmount',
      'ContractReferencedDocument',
      'ShipToTradeParty',
    ]) {
      expect(present, name).not.toContain(name);
    }
  });

  it('BASIC WL adds notes, addresses, payment and VAT breakdown, but no lines and no EN 16931 extras', () => {
    const present = names(xml('BASICWL'));
    for (const name of [
      'IncludedNote',
      'PostcodeCode',
      'URIUniversalCommunication',
      'SpecifiedTradeSettlementPaymentMeans',
      'IBANID',
      'ApplicableTradeTax',
      'LineTotalAmount',
      'ContractReferencedDocument',
      'ReceivableSpecifiedTradeAccountingAccount',
    ]) {
      expect(present, name).toContain(name);
    }
    for (const name of [
      'IncludedSupplyChainTradeLineItem',
      'DefinedTradeContact',
      'BICID',
      'Information',
      'AccountName',
      'SpecifiedProcuringProject',
      'SellerOrderReferencedDocument',
      'AdditionalReferencedDocument',
      'ReceivingAdviceReferencedDocument',
    ]) {
      expect(present, name).not.toContain(name);
    }
  });

  it('BASIC adds the lines without their EN 16931 details', () => {
    const present = names(xml('BASIC'));
    for (const name of ['IncludedSupplyChainTradeLineItem', 'LineID', 'BilledQuantity', 'NetPriceProductTradePrice', 'LineTotalAmount'])
      expect(present, name).toContain(name);
    expect(present).not.toContain('DefinedTradeContact');
    const line = /<ram:IncludedSupplyChainTradeLineItem>[\s\S]*<\/ram:IncludedSupplyChainTradeLineItem>/.exec(xml('BASIC'))![0];
    expect(line).not.toContain('AdditionalReferencedDocument');
    expect(line).not.toContain('ReceivableSpecifiedTradeAccountingAccount');
    expect(line).not.toContain('BuyerOrderReferencedDocument');
  });

  it('EN16931 and XRechnung (the default) carry everything EN 16931 maps; EXTENDED the same', () => {
    const en = xml('EN16931');
    for (const name of [
      'DefinedTradeContact',
      'SpecifiedProcuringProject',
      'SellerOrderReferencedDocument',
      'AdditionalReferencedDocument',
      'ReceivingAdviceReferencedDocument',
    ]) {
      expect(names(en), name).toContain(name);
    }
    const strip = (s: string) =>
      s.replace(/<ram:GuidelineSpecifiedDocumentContextParameter>[\s\S]*?<\/ram:GuidelineSpecifiedDocumentContextParameter>/, '');
    expect(strip(xml())).toBe(strip(en));
    expect(strip(xml('XRECHNUNG'))).toBe(strip(en));
    expect(strip(xml('EXTENDED'))).toBe(strip(en));
  });

  it('MINIMUM output parses back to the subset of the invoice it carries', () => {
    const back = parseInvoiceXml(writeInvoiceXml(rich, { profile: 'MINIMUM' })).invoice;
    expect(back.invoiceLine).toBeUndefined();
    expect(back.seller?.sellerContact).toBeUndefined();
    expect(back.paymentInstructions).toBeUndefined();
    expect(back.documentTotals).toEqual({
      invoiceTotalAmountWithoutVat: rich.documentTotals?.invoiceTotalAmountWithoutVat,
      invoiceTotalVatAmount: rich.documentTotals?.invoiceTotalVatAmount,
      invoiceTotalAmountWithVat: rich.documentTotals?.invoiceTotalAmountWithVat,
      amountDueForPayment: rich.documentTotals?.amountDueForPayment,
    });
    expect(back.purchaseOrderReference).toBe(rich.purchaseOrderReference);
  });
});
