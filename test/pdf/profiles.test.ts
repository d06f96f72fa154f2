import { describe, expect, it } from 'vitest';
import { CII_GUIDELINES } from '../../src/xml/index.js';
import { profileFromGuideline, profileFromXmpLevel, PROFILE_FACTS, ZUGFERD_PROFILES } from '../../src/pdf/profiles.js';
import { detectProfile } from '../../src/pdf/extract.js';
import { embeddableXml } from '../../src/pdf/zugferd.js';
import { guidelineOf, migrateZugferd1 } from '../../src/pdf/zugferd1.js';
import { parseInvoiceXml, writeInvoiceXml } from '../../src/xml/index.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { ZF1 } from './zugferd1-sample.js';

describe('profile detection', () => {
  it('reads every profile back from the BT-24 our writer puts in, and from its XMP level', () => {
    for (const profile of ZUGFERD_PROFILES) {
      expect(profileFromGuideline(CII_GUIDELINES[profile])).toMatchObject({ profile, generation: 'Factur-X 1.0 / ZUGFeRD 2.x' });
      expect(profileFromXmpLevel(PROFILE_FACTS[profile].xmpLevel)).toBe(profile);
    }
  });

  it('knows ZUGFeRD 2.0 and older XRechnung identifiers, and names no profile for near misses', () => {
    expect(profileFromGuideline('urn:cen.eu:en16931:2017#compliant#urn:zugferd.de:2p0:basic')).toMatchObject({
      profile: 'BASIC',
      generation: 'ZUGFeRD 2.0',
    });
    expect(profileFromGuideline('urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.3')).toMatchObject({
      profile: 'XRECHNUNG',
    });
    expect(profileFromGuideline('urn:cen.eu:en16931:2017:compliant:factur-x.eu:1p0:basic').profile).toBeUndefined();
    expect(profileFromGuideline(undefined).profile).toBeUndefined();
  });
});

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
      invoiceLine: [
        { invoiceLineIdentifier: '1', invoicedQuantity: '2', invoiceLineNetAmount: '100.00', itemInformation: { itemName: 'Sattel' } },
      ],
    });
    // A month (format 610) is not a date EN 16931 can hold.
    expect(invoice.deliveryInformation?.actualDeliveryDate).toBeUndefined();
  });
});

describe('XML to embed', () => {
  it('refuses a DOCTYPE as such, not as a missing BT-24', () => {
    const xml = `<?xml version="1.0"?>\n<!DOCTYPE x [<!ENTITY e "e">]>\n${writeInvoiceXml(invoiceFixture('01-standard-19'), { profile: 'EN16931' }).replace(/^<\?xml[^>]*\?>\s*/, '')}`;
    expect(() => embeddableXml(xml)).toThrow(/DOCTYPE/);
    expect(() => embeddableXml(xml)).not.toThrow(/BT-24/);
  });
});
