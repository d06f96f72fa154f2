import { describe, expect, it } from 'vitest';
import { complete, ConversionRefusal, gatedReadings, prepareForZugferd, type PrepareOptions } from '../../src/conversion/convertible.js';
import type { Invoice } from '../../src/invoice/model.js';
import { fixtureInvoice } from '../reading/fixtures.js';
import { refusal } from './refusal.js';

/** What the analysis typically returns for a printed invoice: no codes a page does not show. */
function asRead(): Invoice {
  const invoice = fixtureInvoice('01-standard-19.json');
  delete invoice.invoiceTypeCode;
  delete invoice.paymentInstructions!.paymentMeansTypeCode;
  delete invoice.seller!.sellerContact;
  invoice.invoiceLine = invoice.invoiceLine!.map(
    ({ invoiceLineIdentifier: _id, invoicedQuantityUnitOfMeasureCode: _unit, lineVatInformation: _vat, ...line }) => line,
  );
  return invoice;
}

/** The read invoice as a supply outside the scope of VAT: one O row, no VAT, the lines marked O. */
function outsideScope(read: Invoice, reason?: string): Invoice {
  read.vatBreakdown = [
    {
      vatCategoryTaxableAmount: '472.90',
      vatCategoryTaxAmount: '0.00',
      vatCategoryCode: 'O',
      vatCategoryRate: '0',
      ...(reason ? { vatExemptionReasonText: reason } : {}),
    },
  ];
  read.invoiceLine = read.invoiceLine!.map((l) => ({
    ...l,
    lineVatInformation: [{ invoicedItemVatCategoryCode: 'O', invoicedItemVatRate: '0' }],
  }));
  read.documentTotals = {
    ...read.documentTotals,
    invoiceTotalVatAmount: '0.00',
    invoiceTotalAmountWithVat: '472.90',
    amountDueForPayment: '472.90',
  };
  return read;
}

describe('completing a read invoice', () => {
  it('fills what a printed invoice leaves implicit', () => {
    const { invoice, profile } = prepareForZugferd(asRead());
    expect(profile).toBe('EN16931');
    expect(invoice.invoiceTypeCode).toBe('380');
    expect(invoice.paymentInstructions?.paymentMeansTypeCode).toBe('58');
    expect(
      invoice.invoiceLine!.map((l) => [l.invoiceLineIdentifier, l.invoicedQuantityUnitOfMeasureCode, l.lineVatInformation?.[0]]),
    ).toEqual(
      invoice.invoiceLine!.map((_, i) => [
        String(i + 1),
        'C62',
        { invoicedItemVatCategoryCode: 'S', invoicedItemVatRate: invoice.vatBreakdown![0]!.vatCategoryRate },
      ]),
    );
  });

  it('writes a direct debit the page announces as one, drawing on the account it names, with no account to pay into', () => {
    const read = asRead();
    read.paymentInstructions = {
      paymentMeansTypeCode: '59',
      directDebit: { mandateReferenceIdentifier: 'M-2024-17', debitedAccountIdentifier: 'DE21860000000086001055' },
    };
    const { invoice } = prepareForZugferd(read);
    expect(invoice.paymentInstructions).toEqual(read.paymentInstructions);
  });

  it('codes no unit "one" where the page printed a unit word no code is known for: a person codes it', () => {
    const path = 'invoiceLine[0].invoicedQuantityUnitOfMeasureCode';
    const err = refusal(asRead(), { candidates: { [path]: ['RM'] } });
    expect(err.code).toBe('FIELDS_MISSING');
    expect(err.fields.map((f) => [f.field, f.bt])).toEqual([[`invoice.${path}`, 'BT-130']]);
    expect(err.fields[0]!.candidates).toEqual(['RM']);
    // The other lines, which printed no unit, are one piece each.
    expect(prepareForZugferd(asRead()).invoice.invoiceLine![0]!.invoicedQuantityUnitOfMeasureCode).toBe('C62');
  });

  it('puts no line per rate in for the items a scan did not read: the recogniser may have lost them from the page', () => {
    const itemless = asRead();
    delete itemless.invoiceLine;
    expect(complete(itemless).invoice.invoiceLine).toHaveLength(1);
    expect(complete(itemless, [], new Set(), true).invoice.invoiceLine).toBeUndefined();
  });

  it('leaves out a registration number read below 0.9 where the VAT id names the seller, and holds it to the certainty where nothing else does', () => {
    const read = asRead();
    read.seller!.sellerLegalRegistrationIdentifier = 'HRB 22334';
    const confidence = { 'seller.sellerLegalRegistrationIdentifier': 0.63 };
    const { invoice, filled } = prepareForZugferd(read, { confidence });
    expect(invoice.seller?.sellerLegalRegistrationIdentifier).toBeUndefined();
    expect(filled).toContainEqual(expect.objectContaining({ path: 'seller.sellerLegalRegistrationIdentifier', source: 'omitted' }));
    delete read.seller!.sellerIdentifier;
    // Outside the scope of VAT the VAT id is not stated: the registration number names the seller.
    const outside = outsideScope(structuredClone(read), 'Nicht im Inland steuerbare Leistung');
    expect(prepareForZugferd(outside, { confidence }).invoice.seller?.sellerLegalRegistrationIdentifier).toBe('HRB 22334');
    delete read.seller!.sellerVatIdentifier;
    expect(prepareForZugferd(read, { confidence }).invoice.seller?.sellerLegalRegistrationIdentifier).toBe('HRB 22334');
  });

  it('infers quantity 1 and the price from the amount when only an amount is printed', () => {
    const read = asRead();
    read.invoiceLine = [{ itemInformation: { itemName: 'Pauschale' }, invoiceLineNetAmount: '472.90' }];
    const line = complete(read).invoice.invoiceLine![0]!;
    expect([line.invoicedQuantity, line.priceDetails?.itemNetPrice]).toEqual(['1', '472.90']);
  });

  it('restores a decimal separator OCR lost in a price, and only then', () => {
    const read = asRead();
    read.invoiceLine![1] = {
      ...read.invoiceLine![1]!,
      invoicedQuantity: '50',
      invoiceLineNetAmount: '117.50',
      priceDetails: { itemNetPrice: '235' },
    };
    expect(complete(read).invoice.invoiceLine![1]!.priceDetails?.itemNetPrice).toBe('2.35');
    read.invoiceLine![1]!.priceDetails = { itemNetPrice: '3.35' };
    expect(complete(read).invoice.invoiceLine![1]!.priceDetails?.itemNetPrice).toBe('3.35');
    // A price read with its separator lost none, though its digits are amount ÷ quantity's (3,80 per 100 pieces).
    read.invoiceLine![1] = {
      ...read.invoiceLine![1]!,
      invoicedQuantity: '2500',
      invoiceLineNetAmount: '95.00',
      priceDetails: { itemNetPrice: '3.80' },
    };
    expect(complete(read).invoice.invoiceLine![1]!.priceDetails?.itemNetPrice).toBe('3.80');
  });

  it('chooses XRechnung for a Leitweg-ID buyer reference, and then needs its contact and address fields', () => {
    const read = asRead();
    read.buyerReference = '04011000-12345-67';
    const err = refusal(read);
    expect(err.code).toBe('FIELDS_MISSING');
    expect(err.fields.map((f) => f.bt)).toEqual(['BT-42', 'BT-43']);
    read.seller!.sellerContact = {
      sellerContactTelephoneNumber: '+49 221 987650',
      sellerContactEmailAddress: 'buchhaltung@rheinwerk-buero.example',
    };
    const { invoice, profile } = prepareForZugferd(read);
    expect(profile).toBe('XRECHNUNG');
    expect(invoice.seller?.sellerContact?.sellerContactPoint).toBe(read.seller!.sellerName);
  });

  it("leaves out the parties' contact details read below the certainty rather than refuse for them, but not the seller's an XRechnung requires", () => {
    const read = asRead();
    read.seller!.sellerContact = {
      sellerContactTelephoneNumber: '+49 221 987650',
      sellerContactEmailAddress: 'max.muster@rheinwerk.example',
    };
    read.buyer!.buyerContact = { buyerContactPoint: 'Erika Muster' };
    const email = 'seller.sellerContact.sellerContactEmailAddress';
    const confidence = {
      [email]: 0.4,
      'buyer.buyerContact.buyerContactPoint': 0.4,
      'seller.sellerContact.sellerContactTelephoneNumber': 0.95,
    };
    const { invoice, filled } = prepareForZugferd(read, { confidence });
    expect(invoice.seller?.sellerContact?.sellerContactEmailAddress).toBeUndefined();
    expect(invoice.seller?.sellerContact?.sellerContactTelephoneNumber).toBe('+49 221 987650');
    expect(invoice.buyer?.buyerContact).toBeUndefined();
    expect(filled).toContainEqual(expect.objectContaining({ path: email, bt: 'BT-43', source: 'omitted' }));
    read.buyerReference = '04011000-12345-67';
    expect(refusal(read, { confidence }).fields).toEqual([expect.objectContaining({ bt: 'BT-43', value: 'max.muster@rheinwerk.example' })]);
  });

  it("leaves out an address's further lines read below the certainty rather than refuse for them", () => {
    const read = asRead();
    read.buyer!.buyerPostalAddress = { ...read.buyer!.buyerPostalAddress!, buyerAddressLine2: 'Hof 3', buyerAddressLine3: 'Aufgang B' };
    const line2 = 'buyer.buyerPostalAddress.buyerAddressLine2';
    const { invoice, filled } = prepareForZugferd(read, {
      confidence: { [line2]: 0.4, 'buyer.buyerPostalAddress.buyerAddressLine3': 0.95 },
    });
    expect(invoice.buyer?.buyerPostalAddress?.buyerAddressLine2).toBeUndefined();
    expect(invoice.buyer?.buyerPostalAddress?.buyerAddressLine3).toBe('Aufgang B');
    expect(filled).toContainEqual(expect.objectContaining({ path: line2, bt: 'BT-51', source: 'omitted' }));
  });
});

describe('refusing', () => {
  it('names every mandatory field that was not found, with its business term', () => {
    const read = asRead();
    delete read.invoiceNumber;
    delete read.buyer!.buyerName;
    delete read.seller!.sellerVatIdentifier;
    delete read.seller!.sellerTaxRegistrationIdentifier;
    delete read.invoiceLine![0]!.itemInformation;
    const err = refusal(read);
    expect(err.code).toBe('FIELDS_MISSING');
    expect(err.fields.map((f) => [f.field, f.bt])).toEqual([
      ['invoice.invoiceNumber', 'BT-1'],
      ['invoice.seller.sellerVatIdentifier', 'BT-31'],
      ['invoice.buyer.buyerName', 'BT-44'],
      ['invoice.invoiceLine[0].itemInformation.itemName', 'BT-153'],
    ]);
  });

  it("tells the owner what to add to the invoice, in the invoice's language", () => {
    const read = asRead();
    delete read.buyer!.buyerPostalAddress!.buyerCountryCode;
    delete read.invoiceNumber;
    let err: unknown;
    try {
      prepareForZugferd(read, { language: 'de' });
    } catch (e) {
      err = e;
    }
    expect(err).toBeInstanceOf(ConversionRefusal);
    const refusalDe = err as ConversionRefusal;
    expect(refusalDe.userMessage).toBe(
      'Auf der Rechnung fehlen Pflichtangaben: die Rechnungsnummer; das Land des Käufers. Bitte ergänzen Sie sie und senden Sie die Rechnung erneut.',
    );
    expect(refusalDe.fields.map((f) => f.message)).toEqual([
      'Die Rechnungsnummer (BT-1) fehlt auf der Rechnung; bitte ergänzen',
      'Das Land des Käufers (BT-55) fehlt auf der Rechnung; bitte ergänzen',
    ]);
    const refusalEn = refusal(read);
    expect(refusalEn.userMessage).toBe(
      "Mandatory details are missing on the invoice: the invoice number; the buyer's country. Please add them to the invoice and send it again.",
    );
    expect(refusalEn.fields[1]!.message).toBe("The buyer's country (BT-55) is not on the invoice; please add it");
  });

  it('refuses a printed value read with less than the certainty, naming it with what was read and the other readings', () => {
    const read = asRead();
    // 0.7 is enough on a text layer (CONVERSION_CERTAINTY), not on a scan (SCAN_CERTAINTY).
    expect(prepareForZugferd(read, { confidence: { invoiceNumber: 0.7 } }).invoice.invoiceNumber).toBe(read.invoiceNumber);
    const opts = { confidence: { invoiceNumber: 0.7, 'documentTotals.invoiceTotalAmountWithVat': 0.9 }, language: 'de' as const };
    const err = refusal(read, { ...opts, scanned: true });
    expect(err.code).toBe('FIELDS_UNCERTAIN');
    expect(err.fields).toEqual([
      {
        field: 'invoice.invoiceNumber',
        bt: 'BT-1',
        message:
          'Die Rechnungsnummer (BT-1) wurde gelesen, aber nicht sicher genug, um es ungeprüft in eine E-Rechnung zu schreiben; bitte bestätigen Sie die Angabe',
        value: read.invoiceNumber,
      },
    ]);
    expect(err.userMessage).toContain('nicht sicher genug');
    // An operator who has every scan checked anyway may ask less of it.
    expect(() => prepareForZugferd(read, { ...opts, scanned: true, scanCertainty: 0.7 })).not.toThrow();
    const low = refusal(read, {
      confidence: { 'seller.sellerName': 0.4 },
      candidates: { 'seller.sellerName': ['Other GmbH', read.seller!.sellerName!] },
    });
    expect(low.fields).toEqual([expect.objectContaining({ bt: 'BT-27', value: read.seller!.sellerName, candidates: ['Other GmbH'] })]);
  });

  it("holds the amount due to the certainty however it was found, and the reasons of an item's allowances and charges", () => {
    const read = asRead();
    // Worked out as the gross, it stands on nothing paid being printed: a page the scan could not read leaves that open.
    const due = 'documentTotals.amountDueForPayment';
    expect(refusal(read, { confidence: { [due]: 0.5 }, sources: { [due]: 'inferred' } }).fields).toEqual([
      expect.objectContaining({ bt: 'BT-115', value: read.documentTotals!.amountDueForPayment }),
    ]);
    expect(() => prepareForZugferd(read, { confidence: { [due]: 0.8 }, sources: { [due]: 'inferred' } })).not.toThrow();
    const charged = asRead();
    charged.invoiceLine![0]!.invoiceLineCharges = [{ invoiceLineChargeAmount: '1.00', invoiceLineChargeReason: 'Expedited Se Fee' }];
    const reason = 'invoiceLine[0].invoiceLineCharges[0].invoiceLineChargeReason';
    expect(refusal(charged, { confidence: { [reason]: 0.5 } }).fields).toEqual([
      expect.objectContaining({ bt: 'BT-144', value: 'Expedited Se Fee' }),
    ]);
  });

  it('holds a VAT category to the certainty however it was found: a 0 % nothing on the page explains is coded Z at even odds', () => {
    const read = asRead();
    read.invoiceLine = read.invoiceLine!.map((l) => ({
      ...l,
      lineVatInformation: [{ invoicedItemVatCategoryCode: 'S', invoicedItemVatRate: '19' }],
    }));
    const line = 'invoiceLine[0].lineVatInformation[0].invoicedItemVatCategoryCode';
    const row = 'vatBreakdown[0].vatCategoryCode';
    const guessed = { confidence: { [line]: 0.5, [row]: 0.5 }, sources: { [line]: 'inferred', [row]: 'inferred' } } as const;
    expect(refusal(read, guessed).fields.map((f) => f.bt)).toEqual(['BT-151', 'BT-118']);
    expect(() => prepareForZugferd(read, { ...guessed, confidence: { [line]: 0.95, [row]: 0.95 } })).not.toThrow();
  });

  it("leaves out an item's description and the seller's item number unless read very surely, and says so", () => {
    const read = asRead();
    read.invoiceLine![0]!.itemInformation = {
      ...read.invoiceLine![0]!.itemInformation,
      itemDescription: 'Lieferung KW 12',
      itemSellersIdentifier: '4123456000014',
    };
    read.invoiceLine![1]!.itemInformation = { ...read.invoiceLine![1]!.itemInformation, itemSellersIdentifier: 'A-100' };
    const confidence = {
      'invoiceLine[0].itemInformation.itemDescription': 0.7,
      'invoiceLine[0].itemInformation.itemSellersIdentifier': 0.62,
      'invoiceLine[1].itemInformation.itemSellersIdentifier': 0.95,
    };
    const prepared = prepareForZugferd(read, { confidence });
    expect(prepared.invoice.invoiceLine![0]!.itemInformation).toEqual({ itemName: read.invoiceLine![0]!.itemInformation!.itemName });
    expect(prepared.invoice.invoiceLine![1]!.itemInformation?.itemSellersIdentifier).toBe('A-100');
    expect(prepared.filled.filter((f) => f.source === 'omitted').map((f) => f.bt)).toEqual(['BT-154', 'BT-155']);
    // What was read is not changed in place: a refusal or a retry sees it whole.
    expect(read.invoiceLine![0]!.itemInformation?.itemSellersIdentifier).toBe('4123456000014');
  });

  it('leaves out payment terms read less than very surely where the due date is printed, and holds them to the certainty where it is not', () => {
    const read = asRead();
    const confidence = { paymentTerms: 0.7 };
    const prepared = prepareForZugferd(read, { confidence });
    expect(prepared.invoice.paymentTerms).toBeUndefined();
    expect(prepared.invoice.paymentDueDate).toBe(read.paymentDueDate);
    expect(prepared.filled).toContainEqual(expect.objectContaining({ path: 'paymentTerms', bt: 'BT-20', source: 'omitted' }));
    expect(prepareForZugferd(read, { confidence: { paymentTerms: 0.95 } }).invoice.paymentTerms).toBe(read.paymentTerms);
    // Without a due date the terms are the only payment date (BR-CO-25): written at the certainty, refused below it.
    delete read.paymentDueDate;
    expect(prepareForZugferd(read, { confidence }).invoice.paymentTerms).toBe(read.paymentTerms);
    expect(refusal(read, { confidence: { paymentTerms: 0.5 } }).fields).toEqual([
      expect.objectContaining({ bt: 'BT-20', value: read.paymentTerms }),
    ]);
  });

  it('writes the standard reason with its VATEX code where the exemption reason read falls short of the certainty; an exempt row (E), which has no code, is refused', () => {
    const read = outsideScope(asRead(), 'Not subject to VAT nach $4 Nr.');
    const path = 'vatBreakdown[0].vatExemptionReasonText';
    const unsure = prepareForZugferd(read, { confidence: { [path]: 0.5 } });
    expect(unsure.invoice.vatBreakdown![0]).toMatchObject({
      vatExemptionReasonCode: 'VATEX-EU-O',
      vatExemptionReasonText: 'Not subject to VAT',
    });
    expect(unsure.filled).toContainEqual(expect.objectContaining({ path, bt: 'BT-120', source: 'omitted' }));
    // Read surely enough, the page's own words stay.
    const sure = prepareForZugferd(read, { confidence: { [path]: 0.95 } });
    expect(sure.invoice.vatBreakdown![0]!.vatExemptionReasonText).toBe('Not subject to VAT nach $4 Nr.');
    // "Exempt from VAT" would drop the legal ground the page cites: a person confirms the reason read.
    const exempt = outsideScope(asRead(), 'Steuerfreie Leistungen nach $4 Nr.');
    exempt.vatBreakdown[0]!.vatCategoryCode = 'E';
    exempt.invoiceLine = exempt.invoiceLine!.map((l) => ({
      ...l,
      lineVatInformation: [{ invoicedItemVatCategoryCode: 'E', invoicedItemVatRate: '0' }],
    }));
    expect(refusal(exempt, { confidence: { [path]: 0.5 } }).fields).toEqual([
      expect.objectContaining({ bt: 'BT-120', value: 'Steuerfreie Leistungen nach $4 Nr.' }),
    ]);
    expect(prepareForZugferd(exempt, { confidence: { [path]: 0.95 } }).invoice.vatBreakdown![0]!.vatExemptionReasonText).toBe(
      'Steuerfreie Leistungen nach $4 Nr.',
    );
  });

  it('holds inferred values, lines and the VAT breakdown to their rules and sums, not to the certainty', () => {
    const read = asRead();
    const confidence = {
      'seller.sellerPostalAddress.sellerCountryCode': 0.1,
      'invoiceLine[0].invoicedQuantity': 0.1,
      'vatBreakdown[0].vatCategoryRate': 0.1,
    };
    const sources = { 'seller.sellerPostalAddress.sellerCountryCode': 'inferred' as const };
    expect(() => prepareForZugferd(read, { confidence, sources })).not.toThrow();
    expect(gatedReadings({ confidence, sources })).toEqual([]);
  });

  it('holds a line amount read below the certainty to it: a row of figures taken for an item sums right all the same', () => {
    const confidence = { 'invoiceLine[1].invoiceLineNetAmount': 0.09 };
    expect(refusal(asRead(), { confidence }).fields).toEqual([expect.objectContaining({ bt: 'BT-131', value: '117.50' })]);
  });

  it('needs no seller VAT id for a supply outside the scope of VAT, whose lines carry no rate, but a registration number to identify the seller by', () => {
    const read = asRead();
    delete read.seller!.sellerVatIdentifier;
    delete read.seller!.sellerTaxRegistrationIdentifier;
    delete read.seller!.sellerIdentifier;
    delete read.buyer!.buyerVatIdentifier;
    outsideScope(read, 'Not subject to VAT');
    const { invoice } = prepareForZugferd(read);
    expect(invoice.seller?.sellerVatIdentifier).toBeUndefined();
    // BR-O-05: what is outside the scope has no VAT rate, not even the 0 % the page prints.
    expect(invoice.invoiceLine!.map((l) => l.lineVatInformation)).toEqual(
      invoice.invoiceLine!.map(() => [{ invoicedItemVatCategoryCode: 'O' }]),
    );
    // BR-CO-26: without a VAT id, a registration number (or a seller id) names the seller.
    delete read.seller!.sellerLegalRegistrationIdentifier;
    expect(refusal(read).fields.map((f) => f.bt)).toEqual(['BT-30']);
    read.vatBreakdown[0]!.vatCategoryCode = 'E';
    expect(refusal(read).fields.map((f) => f.bt)).toContain('BT-31');
  });

  it('leaves out the VAT ids a page prints on a supply outside the scope of VAT (BR-O-02), and says so in a note', () => {
    const read = asRead();
    read.seller!.sellerVatIdentifier = 'DE232446240';
    read.buyer!.buyerVatIdentifier = 'CHE123456789';
    outsideScope(read);
    const { invoice } = prepareForZugferd(read);
    expect(invoice.seller?.sellerVatIdentifier).toBeUndefined();
    expect(invoice.buyer?.buyerVatIdentifier).toBeUndefined();
    expect(invoice.invoiceNote?.map((n) => n.invoiceNote).join('\n')).toContain('(DE232446240, CHE123456789)');
    // Within the scope, they stay.
    read.vatBreakdown[0]!.vatCategoryCode = 'E';
    read.invoiceLine = read.invoiceLine.map((l) => ({
      ...l,
      lineVatInformation: [{ invoicedItemVatCategoryCode: 'E', invoicedItemVatRate: '0' }],
    }));
    expect(prepareForZugferd(read).invoice.seller?.sellerVatIdentifier).toBe('DE232446240');
  });

  it('asks for a due date or payment terms when an amount is left to pay (BR-CO-25), and for nothing when it is paid', () => {
    const read = asRead();
    delete read.paymentDueDate;
    delete read.paymentTerms;
    expect(refusal(read).fields.map((f) => f.bt)).toEqual(['BT-9']);
    expect(prepareForZugferd({ ...read, paymentTerms: 'Zahlbar sofort ohne Abzug.' }).invoice.paymentTerms).toBe(
      'Zahlbar sofort ohne Abzug.',
    );
    read.documentTotals = {
      ...read.documentTotals,
      paidAmount: read.documentTotals!.invoiceTotalAmountWithVat,
      amountDueForPayment: '0.00',
    };
    expect(prepareForZugferd(read).invoice.documentTotals?.amountDueForPayment).toBe('0.00');
  });

  it('refuses totals that differ from what the lines add up to, to the cent', () => {
    const read = asRead();
    read.documentTotals = { ...read.documentTotals, invoiceTotalAmountWithoutVat: '472.99' };
    const err = refusal(read);
    expect(err.code).toBe('TOTALS_MISMATCH');
    expect(err.fields.map((f) => f.bt)).toEqual(['BT-109']);
    expect(err.fields[0]!.message).toBe('BT-109 printed as 472.99, but lines − allowances + charges give 472.90');
  });

  it('refuses a line whose amount is not quantity × price, allowing for a price rounded to the cent', () => {
    const read = asRead();
    read.invoiceLine![0] = { ...read.invoiceLine![0]!, invoicedQuantity: '20', priceDetails: { itemNetPrice: '4.97' } };
    expect(refusal(read).fields).toEqual([expect.objectContaining({ field: 'invoice.invoiceLine[0].invoiceLineNetAmount', bt: 'BT-131' })]);
    const rounded = asRead();
    rounded.invoiceLine = [
      {
        itemInformation: { itemName: 'Drittel' },
        invoicedQuantity: '3',
        priceDetails: { itemNetPrice: '33.33' },
        invoiceLineNetAmount: '100.00',
      },
    ];
    rounded.vatBreakdown = [
      { vatCategoryTaxableAmount: '100.00', vatCategoryTaxAmount: '19.00', vatCategoryCode: 'S', vatCategoryRate: '19' },
    ];
    rounded.documentTotals = {
      invoiceTotalAmountWithoutVat: '100.00',
      invoiceTotalVatAmount: '19.00',
      invoiceTotalAmountWithVat: '119.00',
      amountDueForPayment: '119.00',
    };
    expect(prepareForZugferd(rounded).invoice.documentTotals?.sumOfInvoiceLineNetAmount).toBe('100.00');
  });
});

describe('what the page implies, filled and reported', () => {
  /** A read invoice with one rate and the given lines; totals as printed. */
  function printed(lines: Array<[string, string, string]>, totals: { net: string; vat: string; gross: string }, rate = '19'): Invoice {
    const read = asRead();
    read.invoiceLine = lines.map(([name, quantity, amount]) => ({
      itemInformation: { itemName: name },
      invoicedQuantity: quantity,
      invoiceLineNetAmount: amount,
      lineVatInformation: [{ invoicedItemVatRate: rate, invoicedItemVatCategoryCode: 'S' }],
    }));
    read.vatBreakdown = [
      { vatCategoryTaxableAmount: totals.net, vatCategoryTaxAmount: totals.vat, vatCategoryCode: 'S', vatCategoryRate: rate },
    ];
    read.documentTotals = {
      invoiceTotalAmountWithoutVat: totals.net,
      invoiceTotalVatAmount: totals.vat,
      invoiceTotalAmountWithVat: totals.gross,
    };
    return read;
  }

  it('lists every filled value with its business term, and names the inferred ones in a note of the e-invoice', () => {
    const { invoice, filled } = prepareForZugferd(asRead(), {
      sources: { 'buyer.buyerPostalAddress.buyerCountryCode': 'inferred', invoiceNumber: 'printed' },
    });
    expect(filled).toContainEqual({ path: 'invoiceTypeCode', bt: 'BT-3', source: 'default', rule: 'commercial-invoice' });
    expect(filled).toContainEqual({ path: 'buyer.buyerPostalAddress.buyerCountryCode', bt: 'BT-55', source: 'inferred', rule: 'analysis' });
    expect(filled.some((f) => f.path === 'invoiceNumber')).toBe(false);
    expect(invoice.invoiceNote?.at(-1)?.invoiceNote).toMatch(
      /^Converted from a PDF without e-invoice data\. Not printed on the original but inferred from it: BT-55, .*BT-81/,
    );
  });

  it('turns lines printed with VAT included into net lines, and a cent of rounding into a rounding allowance', () => {
    const read = printed(
      [
        ['Tablet', '1', '399.00'],
        ['Hülle', '1', '69.99'],
        ['Ladegerät', '1', '14.99'],
      ],
      { net: '406.70', vat: '77.28', gross: '483.98' },
    );
    const { invoice } = prepareForZugferd(read);
    expect(invoice.invoiceLine!.map((l) => [l.invoiceLineNetAmount, l.priceDetails?.itemNetPrice])).toEqual([
      ['335.29', '335.29'],
      ['58.82', '58.82'],
      ['12.60', '12.6'],
    ]);
    // 335.29 + 58.82 + 12.60 = 406.71: the printed net total is a cent less.
    expect(invoice.documentLevelAllowances).toEqual([
      {
        documentLevelAllowanceAmount: '0.01',
        documentLevelAllowanceVatRate: '19',
        documentLevelAllowanceVatCategoryCode: 'S',
        documentLevelAllowanceReason: 'Rounding difference',
      },
    ]);
    expect(invoice.documentTotals).toMatchObject({
      sumOfInvoiceLineNetAmount: '406.71',
      sumOfAllowancesOnDocumentLevel: '0.01',
      invoiceTotalAmountWithoutVat: '406.70',
    });
  });

  it('refuses more than half a cent per line of difference: that is a misread, not rounding', () => {
    const read = printed(
      [
        ['Tablet', '1', '100.00'],
        ['Hülle', '1', '50.00'],
      ],
      { net: '150.03', vat: '28.51', gross: '178.54' },
    );
    expect(refusal(read).code).toBe('TOTALS_MISMATCH');
  });

  it('takes amount ÷ price as the quantity when the page prints it rounded to whole units', () => {
    const read = printed([['Stadtfahrt je km', '6', '13.00']], { net: '13.00', vat: '2.47', gross: '15.47' });
    read.invoiceLine![0]!.priceDetails = { itemNetPrice: '2.00' };
    expect(prepareForZugferd(read).invoice.invoiceLine![0]!.invoicedQuantity).toBe('6.5');
    read.invoiceLine![0]!.invoicedQuantity = '4';
    expect(refusal(read).code).toBe('TOTALS_MISMATCH');
  });

  it('gives an exempt rate the standard reason when the page prints none, and an intra-community supply the buyer as destination', () => {
    const read = printed([['Stahlcoil', '10', '1000.00']], { net: '1000.00', vat: '0.00', gross: '1000.00' }, '0');
    read.invoiceLine![0]!.lineVatInformation = [{ invoicedItemVatRate: '0', invoicedItemVatCategoryCode: 'K' }];
    read.vatBreakdown![0]!.vatCategoryCode = 'K';
    read.buyer!.buyerPostalAddress!.buyerCountryCode = 'AT';
    read.buyer!.buyerVatIdentifier = 'ATU13585627';
    const { invoice, filled } = prepareForZugferd(read);
    expect(invoice.vatBreakdown![0]).toMatchObject({
      vatExemptionReasonCode: 'VATEX-EU-IC',
      vatExemptionReasonText: 'Intra-Community supply',
    });
    expect(invoice.deliveryInformation?.deliverToAddress?.deliverToCountryCode).toBe('AT');
    expect(filled).toContainEqual(expect.objectContaining({ bt: 'BT-80', source: 'inferred' }));
  });

  it('dates an intra-community supply that prints no delivery date on the day of issue, and says so', () => {
    const read = printed([['Stahlcoil', '10', '1000.00']], { net: '1000.00', vat: '0.00', gross: '1000.00' }, '0');
    read.invoiceLine![0]!.lineVatInformation = [{ invoicedItemVatRate: '0', invoicedItemVatCategoryCode: 'K' }];
    read.vatBreakdown![0]!.vatCategoryCode = 'K';
    read.buyer!.buyerVatIdentifier = 'ATU13585627';
    delete read.deliveryInformation;
    const { invoice, filled } = prepareForZugferd(read);
    expect(invoice.deliveryInformation?.actualDeliveryDate).toBe(read.invoiceIssueDate);
    expect(filled).toContainEqual({
      path: 'deliveryInformation.actualDeliveryDate',
      bt: 'BT-72',
      source: 'inferred',
      rule: 'supplied-on-issue-date',
    });
    expect(invoice.invoiceNote?.at(-1)?.invoiceNote).toContain('BT-72');
    // A page that labels a delivery date the analysis could not read says it is not the issue date.
    expect(refusal(read, { unread: ['BT-72'] }).fields.map((f) => f.bt)).toEqual(['BT-72']);
    read.invoicingPeriod = { invoicingPeriodStartDate: '2026-02-01', invoicingPeriodEndDate: '2026-02-28' };
    expect(prepareForZugferd(read).invoice.deliveryInformation?.actualDeliveryDate).toBeUndefined();
  });

  /** A page read without lines: two rates whose bases add up to the net total. */
  const twoRatesWithoutLines = () => {
    const read = printed([], { net: '130.00', vat: '21.10', gross: '151.10' });
    delete read.invoiceLine;
    read.vatBreakdown = [
      { vatCategoryTaxableAmount: '30.00', vatCategoryTaxAmount: '2.10', vatCategoryCode: 'S', vatCategoryRate: '7' },
      { vatCategoryTaxableAmount: '100.00', vatCategoryTaxAmount: '19.00', vatCategoryCode: 'S', vatCategoryRate: '19' },
    ];
    return read;
  };

  it('stands one line per VAT rate in for a page without lines, only when the rates add up to the net total', () => {
    const read = twoRatesWithoutLines();
    const { invoice, filled } = prepareForZugferd(read);
    expect(invoice.invoiceLine!.map((l) => [l.invoiceLineNetAmount, l.lineVatInformation![0]!.invoicedItemVatRate])).toEqual([
      ['30.00', '7'],
      ['100.00', '19'],
    ]);
    expect(filled.filter((f) => f.bt === 'BG-25')).toHaveLength(2);
    read.vatBreakdown[1]!.vatCategoryTaxableAmount = '99.00';
    expect(refusal(read).fields.map((f) => f.bt)).toContain('BG-25');
  });

  it('stands no line per rate in for items the page prints but the analysis could not read', () => {
    expect(refusal(twoRatesWithoutLines(), { unread: ['BG-25'] }).fields.map((f) => f.bt)).toContain('BG-25');
  });

  it("routes an XRechnung by the Leitweg-ID and the seller's e-mail", () => {
    const read = asRead();
    read.buyerReference = '04011000-12345-67';
    delete read.buyer!.buyerElectronicAddress;
    delete read.seller!.sellerElectronicAddress;
    read.seller!.sellerContact = {
      sellerContactTelephoneNumber: '+49 221 987650',
      sellerContactEmailAddress: 'buchhaltung@rheinwerk-buero.example',
    };
    const { invoice } = prepareForZugferd(read);
    expect([invoice.buyer?.buyerElectronicAddress, invoice.seller?.sellerElectronicAddress]).toEqual([
      '04011000-12345-67',
      'buchhaltung@rheinwerk-buero.example',
    ]);
  });
});
