/**
 * Mutations of valid invoices for the validation agreement suite: each one breaks one known rule
 * of EN 16931 or XRechnung (a missing mandatory element, a broken sum, a wrong code, IBAN check
 * digits, a date format, a missing Leitweg-ID, an outdated specification identifier, …) in a CII
 * and, where the rule exists there too, a UBL document. The edits work on the XML text, element
 * by element, and fail loudly when the element they change is not there, so a mutation can never
 * silently leave its base unchanged.
 */

export type Edit = (xml: string) => string;

export class NotApplicable extends Error {
  override name = 'NotApplicable';
}

interface Range {
  /** Index of '<' of the start tag. */
  start: number;
  /** Index after the start tag's '>'. */
  innerStart: number;
  /** Index of '<' of the end tag (= end for an empty element). */
  innerEnd: number;
  /** Index after the element. */
  end: number;
}

/** The first element named `tag` (a qualified name as written) at or after `from`; same-named elements must not nest. */
function find(xml: string, tag: string, from = 0): Range | undefined {
  const open = new RegExp(`<${tag.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?=[\\s>/])[^>]*?(/?)>`, 'g');
  open.lastIndex = from;
  const m = open.exec(xml);
  if (!m) return undefined;
  const innerStart = m.index + m[0].length;
  if (m[1] === '/') return { start: m.index, innerStart, innerEnd: innerStart, end: innerStart };
  const close = xml.indexOf(`</${tag}>`, innerStart);
  if (close < 0) return undefined;
  return { start: m.index, innerStart, innerEnd: close, end: close + tag.length + 3 };
}

function must(xml: string, tag: string): Range {
  const r = find(xml, tag);
  if (!r) throw new NotApplicable(`no <${tag}>`);
  return r;
}

/** Sets the text of the first `tag`. */
export const text =
  (tag: string, value: string | ((old: string) => string)): Edit =>
  (xml) => {
    const r = must(xml, tag);
    const old = xml.slice(r.innerStart, r.innerEnd);
    if (old.includes('<')) throw new NotApplicable(`<${tag}> has element content`);
    return xml.slice(0, r.innerStart) + (typeof value === 'string' ? value : value(old)) + xml.slice(r.innerEnd);
  };

/** Removes the first `tag` with the indentation before it. */
export const drop =
  (tag: string): Edit =>
  (xml) => {
    const r = must(xml, tag);
    const lineStart = xml.lastIndexOf('\n', r.start);
    const start = lineStart >= 0 && xml.slice(lineStart + 1, r.start).trim() === '' ? lineStart : r.start;
    return xml.slice(0, start) + xml.slice(r.end);
  };

/** Removes every `tag`. */
export const dropAll =
  (tag: string): Edit =>
  (xml) => {
    let out = drop(tag)(xml);
    while (find(out, tag)) out = drop(tag)(out);
    return out;
  };

/** Sets an attribute of the first `tag`. */
export const attr =
  (tag: string, name: string, value: string): Edit =>
  (xml) => {
    const r = must(xml, tag);
    const startTag = xml.slice(r.start, r.innerStart);
    const re = new RegExp(`\\s${name}="[^"]*"`);
    const changed = re.test(startTag) ? startTag.replace(re, ` ${name}="${value}"`) : startTag.replace(/(\/?>)$/, ` ${name}="${value}"$1`);
    return xml.slice(0, r.start) + changed + xml.slice(r.innerStart);
  };

/** Inserts `snippet` at a position of the first `tag`: before it, as its first or last child, or after it. */
const insertAt =
  (at: 'start' | 'innerStart' | 'innerEnd' | 'end') =>
  (tag: string, snippet: string): Edit =>
  (xml) => {
    const i = must(xml, tag)[at];
    return xml.slice(0, i) + snippet + xml.slice(i);
  };

export const before = insertAt('start');
export const prepend = insertAt('innerStart');
export const append = insertAt('innerEnd');
export const after = insertAt('end');

/** Repeats the first `tag` right after itself. */
export const duplicate =
  (tag: string): Edit =>
  (xml) => {
    const r = must(xml, tag);
    return xml.slice(0, r.end) + xml.slice(r.start, r.end) + xml.slice(r.end);
  };

/** Applies `edit` to the content of the first `tag` only. */
export const within =
  (tag: string, ...edits: Edit[]): Edit =>
  (xml) => {
    const r = must(xml, tag);
    const inner = edits.reduce((acc, e) => e(acc), xml.slice(r.innerStart, r.innerEnd));
    return xml.slice(0, r.innerStart) + inner + xml.slice(r.innerEnd);
  };

/** Applies `edit` to the content of the last `tag` only. */
export const withinLast =
  (tag: string, ...edits: Edit[]): Edit =>
  (xml) => {
    let last: Range | undefined;
    for (let r = find(xml, tag); r; r = find(xml, tag, r.end)) last = r;
    if (!last) throw new NotApplicable(`no <${tag}>`);
    const inner = edits.reduce((acc, e) => e(acc), xml.slice(last.innerStart, last.innerEnd));
    return xml.slice(0, last.innerStart) + inner + xml.slice(last.innerEnd);
  };

export const all =
  (...edits: Edit[]): Edit =>
  (xml) =>
    edits.reduce((acc, e) => e(acc), xml);

/** Adds `delta` (in cents) to a decimal amount, keeping two decimals. */
export const plusCents =
  (delta: number) =>
  (old: string): string => {
    const cents = Math.round(Number(old) * 100) + delta;
    return (cents / 100).toFixed(2);
  };

/** BT-24: sets the specification identifier. */
export const customization = (id: string): { cii: Edit; ubl: Edit } => ({
  cii: within('ram:GuidelineSpecifiedDocumentContextParameter', text('ram:ID', id)),
  ubl: text('cbc:CustomizationID', id),
});

export interface Mutation {
  id: string;
  /** The rule the mutation breaks (or, for identifiers, what must happen). */
  breaks: string;
  /** Rule ids of which at least one the judge must report for the mutation to count as effective. */
  expect: string[];
  cii?: Edit;
  ubl?: Edit;
  /** Not for credit notes (where the rule does not apply in every syntax). */
  invoicesOnly?: boolean;
  /** Only for bases with this specification identifier family (default: XRechnung 3.0 standard). */
  bases?: 'standard' | 'extension' | 'cvd' | 'en16931';
}

export const XRECHNUNG_3 = 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.0';
const EN16931 = 'urn:cen.eu:en16931:2017';

/** Outdated or unknown identifiers: no KoSIT scenario matches them, so the document is rejected. */
export const OUTDATED_IDS: ReadonlyArray<[string, string]> = [
  ['xrechnung-1.2', 'urn:cen.eu:en16931:2017:compliant:xoev-de:kosit:standard:xrechnung_1.2'],
  ['xrechnung-2.0', 'urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.0'],
  ['xrechnung-2.1', 'urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.1'],
  ['xrechnung-2.2', 'urn:cen.eu:en16931:2017#compliant#urn:xoev-de:kosit:standard:xrechnung_2.2'],
  ['xrechnung-2.3', 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_2.3'],
  [
    'xrechnung-2.3-extension',
    'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_2.3#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_2.3',
  ],
  ['xrechnung-3.1-unknown', 'urn:cen.eu:en16931:2017#compliant#urn:xeinkauf.de:kosit:xrechnung_3.1'],
  ['trailing-space', `${XRECHNUNG_3} `],
  ['unknown-cius', 'urn:cen.eu:en16931:2017#compliant#urn:example.com:cius:1.0'],
];

const ciiLine = 'ram:IncludedSupplyChainTradeLineItem';
const SELLER_GLOBAL_ID = '<ram:GlobalID schemeID="9999">4000001000005</ram:GlobalID>';
const ciiSeller = 'ram:SellerTradeParty';
const ciiBuyer = 'ram:BuyerTradeParty';
const ciiSettlement = 'ram:ApplicableHeaderTradeSettlement';
const ciiTotals = 'ram:SpecifiedTradeSettlementHeaderMonetarySummation';
const ublSupplier = 'cac:AccountingSupplierParty';
const ublCustomer = 'cac:AccountingCustomerParty';
const ublTotals = 'cac:LegalMonetaryTotal';
const ublLine = 'cac:InvoiceLine';

export const MUTATIONS: readonly Mutation[] = [
  // ---- mandatory elements
  {
    id: 'empty-invoice-number',
    breaks: 'BR-02 (BT-1 empty)',
    expect: ['BR-02'],
    cii: within('rsm:ExchangedDocument', text('ram:ID', '')),
    ubl: text('cbc:ID', ''),
  },
  {
    id: 'no-issue-date',
    breaks: 'BT-2 missing',
    expect: ['XSD', 'BR-03'],
    cii: within('rsm:ExchangedDocument', drop('ram:IssueDateTime')),
    ubl: drop('cbc:IssueDate'),
  },
  {
    id: 'no-type-code',
    breaks: 'BT-3 missing',
    expect: ['XSD', 'BR-04'],
    cii: within('rsm:ExchangedDocument', drop('ram:TypeCode')),
    ubl: drop('cbc:InvoiceTypeCode'),
  },
  {
    id: 'no-currency',
    breaks: 'BT-5 missing',
    expect: ['XSD', 'BR-05'],
    cii: within(ciiSettlement, drop('ram:InvoiceCurrencyCode')),
    ubl: drop('cbc:DocumentCurrencyCode'),
  },
  {
    id: 'no-seller-name',
    breaks: 'BR-06 (BT-27 missing)',
    expect: ['BR-06'],
    cii: within(ciiSeller, drop('ram:Name')),
    ubl: within(ublSupplier, drop('cbc:RegistrationName')),
  },
  {
    id: 'no-buyer-name',
    breaks: 'BR-07 (BT-44 missing)',
    expect: ['BR-07'],
    cii: within(ciiBuyer, drop('ram:Name')),
    ubl: within(ublCustomer, drop('cbc:RegistrationName')),
  },
  {
    id: 'no-seller-country',
    breaks: 'BR-09 (BT-40 missing)',
    expect: ['XSD', 'BR-09'],
    cii: within(ciiSeller, drop('ram:CountryID')),
    ubl: within(ublSupplier, drop('cac:Country')),
  },
  {
    id: 'no-item-name',
    breaks: 'BR-25 (BT-153 missing)',
    expect: ['BR-25'],
    cii: within('ram:SpecifiedTradeProduct', drop('ram:Name')),
    ubl: within('cac:Item', drop('cbc:Name')),
  },
  { id: 'no-lines', breaks: 'BR-16 (no invoice line)', expect: ['XSD', 'BR-16'], cii: dropAll(ciiLine), ubl: dropAll(ublLine) },
  {
    id: 'no-line-id',
    breaks: 'BR-21 (BT-126 missing)',
    expect: ['XSD', 'BR-21'],
    cii: within('ram:AssociatedDocumentLineDocument', text('ram:LineID', '')),
    ubl: within(ublLine, text('cbc:ID', '')),
  },
  {
    id: 'no-buyer-reference',
    breaks: 'BR-DE-15 (Leitweg-ID / BT-10 missing)',
    expect: ['BR-DE-15'],
    cii: drop('ram:BuyerReference'),
    ubl: drop('cbc:BuyerReference'),
  },
  {
    id: 'no-seller-contact',
    breaks: 'BR-DE-2 (BG-6 missing)',
    expect: ['BR-DE-2'],
    cii: within(ciiSeller, drop('ram:DefinedTradeContact')),
    ubl: within(ublSupplier, drop('cac:Contact')),
  },
  {
    id: 'no-seller-phone',
    breaks: 'BR-DE-6 (BT-42 missing)',
    expect: ['BR-DE-6'],
    cii: within(ciiSeller, drop('ram:TelephoneUniversalCommunication')),
    ubl: within(ublSupplier, drop('cbc:Telephone')),
  },
  {
    id: 'no-seller-email',
    breaks: 'BR-DE-7 (BT-43 missing)',
    expect: ['BR-DE-7'],
    cii: within(ciiSeller, drop('ram:EmailURIUniversalCommunication')),
    ubl: within(ublSupplier, drop('cbc:ElectronicMail')),
  },
  {
    id: 'no-seller-city',
    breaks: 'BR-DE-3 (BT-37 missing)',
    expect: ['BR-DE-3'],
    cii: within(ciiSeller, drop('ram:CityName')),
    ubl: within(ublSupplier, drop('cbc:CityName')),
  },
  {
    id: 'no-seller-postcode',
    breaks: 'BR-DE-4 (BT-38 missing)',
    expect: ['BR-DE-4'],
    cii: within(ciiSeller, drop('ram:PostcodeCode')),
    ubl: within(ublSupplier, drop('cbc:PostalZone')),
  },
  {
    id: 'no-buyer-city',
    breaks: 'BR-DE-8 (BT-52 missing)',
    expect: ['BR-DE-8'],
    cii: within(ciiBuyer, drop('ram:CityName')),
    ubl: within(ublCustomer, drop('cbc:CityName')),
  },
  {
    id: 'no-payment-means',
    breaks: 'BR-DE-1 (BG-16 missing)',
    expect: ['BR-DE-1'],
    cii: drop('ram:SpecifiedTradeSettlementPaymentMeans'),
    ubl: drop('cac:PaymentMeans'),
  },
  {
    id: 'no-iban',
    breaks: 'BR-61 / BR-DE-23 (BT-84 missing for credit transfer)',
    expect: ['BR-61', 'BR-50', 'BR-DE-23-a', 'XSD'],
    cii: drop('ram:PayeePartyCreditorFinancialAccount'),
    ubl: drop('cac:PayeeFinancialAccount'),
  },
  {
    id: 'no-due-date-no-terms',
    breaks: 'BR-CO-25 (BT-9 and BT-20 missing for a positive amount due)',
    expect: ['BR-CO-25'],
    invoicesOnly: true,
    cii: drop('ram:SpecifiedTradePaymentTerms'),
    ubl: all(drop('cac:PaymentTerms'), (x) => (x.includes('<cbc:DueDate>') ? drop('cbc:DueDate')(x) : x)),
  },
  {
    id: 'no-seller-electronic-address',
    breaks: 'BR-DE-? / PEPPOL-EN16931-R020 (BT-34 missing)',
    expect: ['PEPPOL-EN16931-R020', 'BR-62'],
    cii: within(ciiSeller, drop('ram:URIUniversalCommunication')),
    ubl: within(ublSupplier, drop('cbc:EndpointID')),
  },
  {
    id: 'no-buyer-electronic-address',
    breaks: 'PEPPOL-EN16931-R010 (BT-49 missing)',
    expect: ['PEPPOL-EN16931-R010', 'BR-63'],
    cii: within(ciiBuyer, drop('ram:URIUniversalCommunication')),
    ubl: within(ublCustomer, drop('cbc:EndpointID')),
  },
  {
    id: 'no-business-process',
    breaks: 'PEPPOL-EN16931-R001 (BT-23 missing)',
    expect: ['PEPPOL-EN16931-R001'],
    cii: drop('ram:BusinessProcessSpecifiedDocumentContextParameter'),
    ubl: drop('cbc:ProfileID'),
  },
  {
    id: 'seller-no-tax-registration',
    breaks: 'BR-DE-16 (neither BT-31 nor BT-32 where VAT is charged), and BR-CO-26 where no BT-29 or BT-30 identifies the seller either',
    expect: ['BR-DE-16', 'BR-CO-26'],
    cii: within(
      ciiSeller,
      all(dropAll('ram:SpecifiedTaxRegistration'), (x) =>
        find(x, 'ram:SpecifiedLegalOrganization') ? drop('ram:SpecifiedLegalOrganization')(x) : x,
      ),
    ),
    ubl: within(
      ublSupplier,
      all(
        dropAll('cac:PartyTaxScheme'),
        within('cac:PartyLegalEntity', (x) => (find(x, 'cbc:CompanyID') ? drop('cbc:CompanyID')(x) : x)),
      ),
    ),
  },
  {
    id: 'no-breakdown-vat-rate',
    breaks: 'BR-DE-14 (BT-119 missing)',
    expect: ['BR-DE-14'],
    cii: within(ciiSettlement, within('ram:ApplicableTradeTax', drop('ram:RateApplicablePercent'))),
    ubl: within('cac:TaxSubtotal', drop('cbc:Percent')),
  },
  {
    id: 'no-line-vat-rate',
    breaks: 'BR-S-05 (line VAT rate missing)',
    expect: ['BR-S-05'],
    cii: within(ciiLine, drop('ram:RateApplicablePercent')),
    ubl: within('cac:ClassifiedTaxCategory', drop('cbc:Percent')),
  },

  // ---- sums
  {
    id: 'grand-total-off',
    breaks: 'BR-CO-15 (BT-112 ≠ BT-109 + BT-110)',
    expect: ['BR-CO-15'],
    cii: within(ciiTotals, text('ram:GrandTotalAmount', plusCents(100))),
    ubl: within(ublTotals, text('cbc:TaxInclusiveAmount', plusCents(100))),
  },
  {
    id: 'line-total-off',
    breaks: 'BR-CO-10 (BT-106 ≠ Σ BT-131)',
    expect: ['BR-CO-10'],
    cii: within(ciiTotals, text('ram:LineTotalAmount', plusCents(1))),
    ubl: within(ublTotals, text('cbc:LineExtensionAmount', plusCents(1))),
  },
  {
    id: 'tax-basis-off',
    breaks: 'BR-CO-13 (BT-109 ≠ BT-106 − BT-107 + BT-108)',
    expect: ['BR-CO-13'],
    cii: within(ciiTotals, text('ram:TaxBasisTotalAmount', plusCents(10))),
    ubl: within(ublTotals, text('cbc:TaxExclusiveAmount', plusCents(10))),
  },
  {
    id: 'vat-total-off',
    breaks: 'BR-CO-14 (BT-110 ≠ Σ BT-117)',
    expect: ['BR-CO-14'],
    cii: within(ciiTotals, text('ram:TaxTotalAmount', plusCents(1))),
    ubl: within('cac:TaxTotal', text('cbc:TaxAmount', plusCents(1))),
  },
  {
    id: 'amount-due-off',
    breaks: 'BR-CO-16 (BT-115 ≠ BT-112 − BT-113 + BT-114)',
    expect: ['BR-CO-16'],
    cii: within(ciiTotals, text('ram:DuePayableAmount', plusCents(-50))),
    ubl: within(ublTotals, text('cbc:PayableAmount', plusCents(-50))),
  },
  {
    id: 'vat-category-tax-off',
    breaks: 'BR-S-09 (BT-117 ≠ BT-116 × BT-119)',
    expect: ['BR-S-09', 'BR-CO-14'],
    cii: within(ciiSettlement, within('ram:ApplicableTradeTax', text('ram:CalculatedAmount', plusCents(3)))),
    ubl: within('cac:TaxSubtotal', text('cbc:TaxAmount', plusCents(3))),
  },
  {
    id: 'vat-category-basis-off',
    breaks: 'BR-S-08 (BT-116 ≠ Σ line net amounts)',
    expect: ['BR-S-08'],
    cii: within(ciiSettlement, within('ram:ApplicableTradeTax', text('ram:BasisAmount', plusCents(500)))),
    ubl: within('cac:TaxSubtotal', text('cbc:TaxableAmount', plusCents(500))),
  },
  {
    id: 'line-price-off',
    breaks: 'PEPPOL-EN16931-R120 (BT-131 ≠ BT-129 × BT-146), a warning since XRechnung schematron 2.5.0',
    expect: ['PEPPOL-EN16931-R120'],
    cii: within(ciiLine, within('ram:NetPriceProductTradePrice', text('ram:ChargeAmount', plusCents(7)))),
    ubl: within(ublLine, within('cac:Price', text('cbc:PriceAmount', plusCents(7)))),
  },
  {
    id: 'three-decimals',
    breaks: 'BR-DEC-14 (BT-112 with 3 decimals)',
    expect: ['BR-DEC-14'],
    cii: within(
      ciiTotals,
      text('ram:GrandTotalAmount', (old) => `${old}0`),
    ),
    ubl: within(
      ublTotals,
      text('cbc:TaxInclusiveAmount', (old) => `${old}0`),
    ),
  },

  // ---- codes
  {
    id: 'type-code-999',
    breaks: 'BR-CL-01 (BT-3 not in UNTDID 1001)',
    expect: ['BR-CL-01'],
    cii: within('rsm:ExchangedDocument', text('ram:TypeCode', '999')),
    ubl: text('cbc:InvoiceTypeCode', '999'),
  },
  {
    id: 'currency-eux',
    breaks: 'BR-CL-04 (BT-5 not ISO 4217)',
    expect: ['BR-CL-04'],
    cii: within(ciiSettlement, text('ram:InvoiceCurrencyCode', 'EUX')),
    ubl: text('cbc:DocumentCurrencyCode', 'EUX'),
  },
  {
    id: 'country-xx',
    breaks: 'BR-CL-14 (BT-40 not ISO 3166)',
    expect: ['BR-CL-14'],
    cii: within(ciiSeller, text('ram:CountryID', 'XX')),
    ubl: within(ublSupplier, text('cbc:IdentificationCode', 'XX')),
  },
  {
    id: 'payment-means-99',
    breaks: 'BR-CL-16 (BT-81 not UNTDID 4461)',
    expect: ['BR-CL-16'],
    cii: within('ram:SpecifiedTradeSettlementPaymentMeans', text('ram:TypeCode', '99')),
    ubl: text('cbc:PaymentMeansCode', '99'),
  },
  {
    id: 'vat-category-x',
    breaks: 'BR-CL-17/18 (VAT category not UNTDID 5305)',
    expect: ['BR-CL-18', 'BR-CL-17'],
    cii: within(ciiLine, text('ram:CategoryCode', 'X')),
    ubl: within('cac:ClassifiedTaxCategory', text('cbc:ID', 'X')),
  },
  {
    id: 'unit-code-zzz',
    breaks: 'BR-CL-23 (unit not UN/ECE Rec 20/21), a warning in every XRechnung scenario',
    expect: ['BR-CL-23'],
    cii: within(ciiLine, attr('ram:BilledQuantity', 'unitCode', 'ZZZ')),
    ubl: attr('cbc:InvoicedQuantity', 'unitCode', 'ZZZ'),
  },
  {
    id: 'eas-9999',
    breaks: 'BR-CL-25 (BT-34 scheme not CEF EAS)',
    expect: ['BR-CL-25'],
    cii: within(ciiSeller, within('ram:URIUniversalCommunication', attr('ram:URIID', 'schemeID', '9999'))),
    ubl: within(ublSupplier, attr('cbc:EndpointID', 'schemeID', '9999')),
  },
  {
    id: 'item-standard-scheme-9999',
    breaks: 'BR-CL-21 (BT-157 scheme not ISO 6523), a warning for XRechnung and information for its extension',
    expect: ['BR-CL-21'],
    cii: within('ram:SpecifiedTradeProduct', (product) =>
      find(product, 'ram:GlobalID')
        ? attr('ram:GlobalID', 'schemeID', '9999')(product)
        : `<ram:GlobalID schemeID="9999">4012345000009</ram:GlobalID>${product}`,
    ),
    ubl: before(
      'cac:ClassifiedTaxCategory',
      '<cac:StandardItemIdentification><cbc:ID schemeID="9999">4012345000009</cbc:ID></cac:StandardItemIdentification>',
    ),
  },
  {
    id: 'item-classification-list-xx',
    breaks: 'BR-CL-13 (BT-158 scheme not UNTDID 7143), information for XRechnung CVD',
    expect: ['BR-CL-13'],
    cii: append(
      'ram:SpecifiedTradeProduct',
      '<ram:DesignatedProductClassification><ram:ClassCode listID="XX">12345</ram:ClassCode></ram:DesignatedProductClassification>',
    ),
    ubl: before(
      'cac:ClassifiedTaxCategory',
      '<cac:CommodityClassification><cbc:ItemClassificationCode listID="XX">12345</cbc:ItemClassificationCode></cac:CommodityClassification>',
    ),
  },
  {
    id: 'seller-id-scheme-9999',
    breaks: 'BR-CL-10 (BT-29 scheme not ISO 6523), information for XRechnung extension',
    expect: ['BR-CL-10'],
    cii: within(ciiSeller, (party) =>
      party.trimStart().startsWith('<ram:ID') ? after('ram:ID', SELLER_GLOBAL_ID)(party) : SELLER_GLOBAL_ID + party,
    ),
    ubl: after('cbc:EndpointID', '<cac:PartyIdentification><cbc:ID schemeID="9999">4000001000005</cbc:ID></cac:PartyIdentification>'),
  },
  {
    id: 'vat-id-prefix',
    breaks: 'BR-CO-09 (BT-31 without ISO country prefix)',
    expect: ['BR-CO-09'],
    cii: within(
      ciiSeller,
      within(
        'ram:SpecifiedTaxRegistration',
        text('ram:ID', (old) => `XY${old.slice(2)}`),
      ),
    ),
    ubl: within(
      ublSupplier,
      within(
        'cac:PartyTaxScheme',
        text('cbc:CompanyID', (old) => `XY${old.slice(2)}`),
      ),
    ),
  },
  {
    id: 'iban-check-digits',
    breaks: 'BR-DE-19 (IBAN check digits wrong), a warning',
    expect: ['BR-DE-19'],
    cii: text(
      'ram:IBANID',
      (old) => `${old.slice(0, 2)}${((Number(old.slice(2, 4)) + 1) % 100).toString().padStart(2, '0')}${old.slice(4)}`,
    ),
    ubl: within(
      'cac:PayeeFinancialAccount',
      text('cbc:ID', (old) => `${old.slice(0, 2)}${((Number(old.slice(2, 4)) + 1) % 100).toString().padStart(2, '0')}${old.slice(4)}`),
    ),
  },

  {
    id: 'skonto-malformed',
    breaks: 'BR-DE-18 (cash discount terms not in the #SKONTO# format)',
    expect: ['BR-DE-18'],
    cii: within('ram:SpecifiedTradePaymentTerms', text('ram:Description', '#SKONTO#TAGE=14#PROZENT=2,00#')),
    ubl: within('cac:PaymentTerms', text('cbc:Note', '#SKONTO#TAGE=14#PROZENT=2,00#')),
  },
  {
    id: 'seller-email-without-at',
    breaks: 'BR-DE-28 (BT-43 without @)',
    expect: ['BR-DE-28'],
    cii: within(ciiSeller, within('ram:EmailURIUniversalCommunication', text('ram:URIID', 'buchhaltung.example.com'))),
    ubl: within(ublSupplier, text('cbc:ElectronicMail', 'buchhaltung.example.com')),
  },
  {
    id: 'seller-phone-short',
    breaks: 'BR-DE-27 (BT-42 with fewer than three digits)',
    expect: ['BR-DE-27'],
    cii: within(ciiSeller, within('ram:TelephoneUniversalCommunication', text('ram:CompleteNumber', '12'))),
    ubl: within(ublSupplier, text('cbc:Telephone', '12')),
  },

  // ---- dates
  {
    id: 'date-iso-in-102',
    breaks: 'BT-2 written as YYYY-MM-DD where format 102 (CCYYMMDD) is declared / not a date',
    expect: ['XSD', 'CII-DT-097'],
    cii: within(
      'ram:IssueDateTime',
      text('udt:DateTimeString', (old) => `${old.slice(0, 4)}-${old.slice(4, 6)}-${old.slice(6)}`),
    ),
    ubl: text('cbc:IssueDate', (old) => `${old.slice(8, 10)}.${old.slice(5, 7)}.${old.slice(0, 4)}`),
  },
  {
    id: 'date-month-13',
    breaks: 'BT-2 is no calendar date',
    expect: ['XSD', 'CII-DT-097'],
    cii: within(
      'ram:IssueDateTime',
      text('udt:DateTimeString', (old) => `${old.slice(0, 4)}13${old.slice(6)}`),
    ),
    ubl: text('cbc:IssueDate', (old) => `${old.slice(0, 5)}13${old.slice(7)}`),
  },
  {
    id: 'date-format-code-610',
    breaks: 'CII date format code other than 102 (BR-03 reads BT-2 in format 102 only)',
    expect: ['BR-03'],
    cii: within('ram:IssueDateTime', attr('udt:DateTimeString', 'format', '610')),
  },

  // ---- structure and cardinality (CII syntax rules, XRechnung raises some to errors)
  {
    id: 'two-payment-terms',
    breaks: 'CII-SR-452 (one SpecifiedTradePaymentTerms), an error in XRechnung CII',
    expect: ['CII-SR-452'],
    cii: duplicate('ram:SpecifiedTradePaymentTerms'),
  },
  {
    id: 'two-line-vat',
    breaks: 'CII-SR-454 (one ApplicableTradeTax per line), an error in XRechnung CII',
    expect: ['CII-SR-454'],
    cii: within(ciiLine, duplicate('ram:ApplicableTradeTax')),
  },
  {
    id: 'seller-contact-department',
    breaks: 'CII-SR-465 (one BT-41), a warning in EN 16931, an error in the Factur-X profiles',
    expect: ['CII-SR-465'],
    cii: within(
      ciiSeller,
      within('ram:DefinedTradeContact', after('ram:PersonName', '<ram:DepartmentName>Buchhaltung</ram:DepartmentName>')),
    ),
  },
  {
    id: 'empty-note',
    breaks: 'PEPPOL-EN16931-R008 (no empty elements)',
    expect: ['PEPPOL-EN16931-R008'],
    cii: within('rsm:ExchangedDocument', after('ram:IssueDateTime', '<ram:IncludedNote><ram:Content></ram:Content></ram:IncludedNote>')),
    ubl: after('cbc:InvoiceTypeCode', '<cbc:Note></cbc:Note>'),
  },
  {
    id: 'unknown-element',
    breaks: 'XML Schema (unexpected element)',
    expect: ['XSD'],
    cii: within('rsm:ExchangedDocument', after('ram:TypeCode', '<ram:Surprise/>')),
    ubl: after('cbc:InvoiceTypeCode', '<cbc:Surprise/>'),
  },
  {
    id: 'sub-invoice-line',
    breaks: 'UBL-CR-646 (no SubInvoiceLine), an error for XRechnung',
    expect: ['UBL-CR-646'],
    ubl: within(
      ublLine,
      after(
        'cac:Price',
        '<cac:SubInvoiceLine><cbc:ID>1.1</cbc:ID><cbc:InvoicedQuantity unitCode="C62">1</cbc:InvoicedQuantity><cbc:LineExtensionAmount currencyID="EUR">0.00</cbc:LineExtensionAmount><cac:Item><cbc:Name>Teil</cbc:Name></cac:Item><cac:Price><cbc:PriceAmount currencyID="EUR">0.00</cbc:PriceAmount></cac:Price></cac:SubInvoiceLine>',
      ),
    ),
  },

  // ---- the same document under another scenario
  {
    id: 'as-plain-en16931',
    breaks: 'none: the XRechnung document declared plain EN 16931 (no XRechnung rules)',
    expect: [],
    cii: customization(EN16931).cii,
    ubl: customization(EN16931).ubl,
  },
  {
    id: 'as-plain-en16931-no-buyer-reference',
    breaks: 'none: BR-DE-15 does not apply to plain EN 16931',
    expect: [],
    cii: all(customization(EN16931).cii, drop('ram:BuyerReference')),
    ubl: all(customization(EN16931).ubl, drop('cbc:BuyerReference')),
  },
  {
    id: 'as-plain-en16931-seller-contact-department',
    breaks: 'CII-SR-465 stays a warning for plain EN 16931 (no Factur-X layer)',
    expect: ['CII-SR-465'],
    cii: all(
      customization(EN16931).cii,
      within(ciiSeller, within('ram:DefinedTradeContact', after('ram:PersonName', '<ram:DepartmentName>Buchhaltung</ram:DepartmentName>'))),
    ),
  },
  {
    id: 'as-plain-en16931-two-payment-terms',
    breaks: 'CII-SR-452 stays a warning for plain EN 16931',
    expect: ['CII-SR-452'],
    cii: all(customization(EN16931).cii, duplicate('ram:SpecifiedTradePaymentTerms')),
  },
  {
    id: 'as-plain-en16931-unit-code-zzz',
    breaks: 'BR-CL-23 is an error for plain EN 16931',
    expect: ['BR-CL-23'],
    cii: all(customization(EN16931).cii, within(ciiLine, attr('ram:BilledQuantity', 'unitCode', 'ZZZ'))),
    ubl: all(customization(EN16931).ubl, attr('cbc:InvoicedQuantity', 'unitCode', 'ZZZ')),
  },
  {
    id: 'as-peppol-bis',
    breaks: 'none: the document declared Peppol BIS Billing 3.0',
    expect: [],
    cii: customization('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0').cii,
    ubl: customization('urn:cen.eu:en16931:2017#compliant#urn:fdc:peppol.eu:2017:poacc:billing:3.0').ubl,
  },
  {
    id: 'as-extension',
    breaks: 'none: the document declared the XRechnung extension',
    expect: [],
    cii: customization(`${XRECHNUNG_3}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`).cii,
    ubl: customization(`${XRECHNUNG_3}#conformant#urn:xeinkauf.de:kosit:extension:xrechnung_3.0`).ubl,
  },
  {
    id: 'as-cvd',
    breaks: 'XRechnung CVD rules applied to a document without CVD data',
    expect: [],
    cii: customization(`${XRECHNUNG_3}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`).cii,
    ubl: customization(`${XRECHNUNG_3}#compliant#urn:xeinkauf.de:kosit:xrechnung:cvd_0.9`).ubl,
  },
  ...OUTDATED_IDS.map(([name, id]): Mutation => ({
    id: `bt24-${name}`,
    breaks: `BT-24 "${id}": no scenario (outdated or unknown)`,
    expect: ['NO-SCENARIO'],
    ...customization(id),
  })),
];

/** Mutations of the extension and CVD testsuite documents, where KoSIT lowers code-list rules. */
export const SCENARIO_MUTATIONS: readonly Mutation[] = [
  { ...MUTATIONS.find((m) => m.id === 'seller-id-scheme-9999')!, bases: 'extension' },
  { ...MUTATIONS.find((m) => m.id === 'item-standard-scheme-9999')!, bases: 'extension' },
  { ...MUTATIONS.find((m) => m.id === 'eas-9999')!, bases: 'extension' },
  { ...MUTATIONS.find((m) => m.id === 'unit-code-zzz')!, bases: 'extension' },
  { ...MUTATIONS.find((m) => m.id === 'grand-total-off')!, bases: 'extension' },
  { ...MUTATIONS.find((m) => m.id === 'item-classification-list-xx')!, bases: 'cvd' },
  { ...MUTATIONS.find((m) => m.id === 'unit-code-zzz')!, bases: 'cvd' },
  { ...MUTATIONS.find((m) => m.id === 'no-buyer-reference')!, bases: 'cvd' },
  { ...MUTATIONS.find((m) => m.id === 'grand-total-off')!, bases: 'cvd' },
];
