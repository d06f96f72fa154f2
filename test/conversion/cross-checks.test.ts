import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConversionRefusal, prepareForZugferd, type PrepareOptions } from '../../src/conversion/convertible.js';
import { CROSS_CHECKS, crossCheckProblems } from '../../src/conversion/cross-checks.js';
import { Decimal } from '../../src/invoice/decimal.js';
import { invoiceSchema, type Invoice } from '../../src/invoice/model.js';
import { refusal } from './refusal.js';

const fixturesDir = path.resolve(import.meta.dirname, '../fixtures/invoices');
const FIXTURES = readdirSync(fixturesDir).filter((f) => f.endsWith('.json'));

function fixture(name = '01-standard-19.json'): Invoice {
  return invoiceSchema.parse(JSON.parse(readFileSync(path.join(fixturesDir, name), 'utf8')));
}

/** What the refusal names: path, term and the value read. */
const named = (r: ConversionRefusal) => r.fields.map((f) => [f.field, f.bt, f.value]);

describe('ordinary invoices', () => {
  it.each(FIXTURES)('%s: no conflict, and it is prepared as before', (name) => {
    expect(crossCheckProblems(fixture(name), 'en')).toEqual([]);
    expect(() => prepareForZugferd(fixture(name))).not.toThrow();
  });

  it('runs each check by name, in one list', () => {
    expect(CROSS_CHECKS.map((c) => c.name)).toEqual([
      'parties-differ',
      'party-names-are-names',
      'sign-matches-type',
      'dates-in-order',
      'correction-names-its-invoice',
    ]);
  });
});

describe('a corrected invoice names the invoice it corrects', () => {
  it('refuses a corrected invoice (384) without the number of the invoice it corrects, and takes one with it', () => {
    const read = fixture('04-corrected-invoice-384.json');
    expect(crossCheckProblems(read, 'en')).toEqual([]);
    delete read.precedingInvoiceReference;
    const r = refusal(read);
    expect(r.code).toBe('FIELDS_UNCERTAIN');
    expect(named(r)).toEqual([['invoice.invoiceTypeCode', 'BT-3', '384']]);
    expect(r.fields[0]!.message).toContain('(BT-25)');
  });
});

describe('seller and buyer differ', () => {
  it("refuses a buyer given the seller's name, whatever its case and spacing", () => {
    const read = fixture();
    read.buyer!.buyerName = '  rheinwerk   BÜROBEDARF gmbh ';
    const r = refusal(read);
    expect(r.code).toBe('FIELDS_UNCERTAIN');
    expect(named(r)).toEqual([
      ['invoice.buyer.buyerName', 'BT-44', '  rheinwerk   BÜROBEDARF gmbh '],
      ['invoice.seller.sellerName', 'BT-27', 'Rheinwerk Bürobedarf GmbH'],
    ]);
    expect(r.fields[0]!.message).toContain("is the same as the seller's name (BT-27)");
  });

  it("refuses a buyer named by the seller's name and more (a scan reading on into the sender line), but not a name that only begins alike", () => {
    const read = fixture();
    read.buyer!.buyerName = 'Rheinwerk Bürobedarf GmbH 789';
    expect(named(refusal(read)).map(([field]) => field)).toEqual(['invoice.buyer.buyerName', 'invoice.seller.sellerName']);
    read.buyer!.buyerName = 'Rheinwerk Bürobedarfsgesellschaft mbH';
    expect(crossCheckProblems(read, 'en')).toEqual([]);
  });

  it("refuses a buyer VAT id written as the seller's, printed with spaces or in lower case", () => {
    const read = fixture();
    read.buyer!.buyerVatIdentifier = 'de 298 765 432';
    const r = refusal(read);
    expect(r.code).toBe('FIELDS_UNCERTAIN');
    expect(named(r)).toEqual([
      ['invoice.buyer.buyerVatIdentifier', 'BT-48', 'de 298 765 432'],
      ['invoice.seller.sellerVatIdentifier', 'BT-31', 'DE298765432'],
    ]);
  });

  it('refuses one full postal address on both sides, but not two parties in one city and post code', () => {
    const read = fixture();
    read.buyer!.buyerPostalAddress = { ...read.buyer!.buyerPostalAddress, buyerAddressLine1: 'Hansaring 112', buyerPostCode: '50670' };
    expect(crossCheckProblems(read, 'en')).toEqual([]); // the city still differs
    read.buyer!.buyerPostalAddress!.buyerCity = 'KÖLN';
    expect(named(refusal(read))).toEqual([
      ['invoice.buyer.buyerPostalAddress.buyerAddressLine1', 'BT-50', 'Hansaring 112, 50670 KÖLN'],
      ['invoice.seller.sellerPostalAddress.sellerAddressLine1', 'BT-35', 'Hansaring 112, 50670 Köln'],
    ]);
    read.buyer!.buyerPostalAddress!.buyerAddressLine1 = 'Hansaring 114';
    expect(crossCheckProblems(read, 'en')).toEqual([]);
  });
});

describe('party names are names', () => {
  const sellerNamed = (sellerName: string) => {
    const read = fixture();
    read.seller!.sellerName = sellerName;
    return read;
  };
  const refusedAs = (name: string) => crossCheckProblems(sellerNamed(name), 'en').map((p) => p.message);

  it('refuses the label "Name:" as the seller', () => {
    const r = refusal(sellerNamed('Name:'));
    expect(r.code).toBe('FIELDS_UNCERTAIN');
    expect(named(r)).toEqual([['invoice.seller.sellerName', 'BT-27', 'Name:']]);
    expect(r.fields[0]!.message).toContain('is a label or heading of the invoice, not a name');
  });

  it('refuses a name read together with its label ("Name: Global Supplies Ltd.", as a scan joins them)', () => {
    for (const name of ['Name: Global Supplies Ltd.', 'Firmenname: Lieferant GmbH', 'Kundennummer: 4711 ACME GmbH']) {
      const r = refusal(sellerNamed(name));
      expect(named(r), name).toEqual([['invoice.seller.sellerName', 'BT-27', name]]);
    }
    expect(() => prepareForZugferd(sellerNamed('ACME GmbH: Niederlassung Köln'))).not.toThrow();
  });

  it('refuses "LOGO LE FOURNISSEUR", a template\'s placeholder', () => {
    const r = refusal(sellerNamed('LOGO LE FOURNISSEUR'));
    expect(named(r)).toEqual([['invoice.seller.sellerName', 'BT-27', 'LOGO LE FOURNISSEUR']]);
    expect(r.fields[0]!.message).toContain('placeholder');
  });

  it('checks the buyer the same way', () => {
    const read = fixture();
    read.buyer!.buyerName = 'Rechnungsempfänger';
    expect(named(refusal(read))).toEqual([['invoice.buyer.buyerName', 'BT-44', 'Rechnungsempfänger']]);
  });

  it.each(['Verkäufer', 'Bill to:', 'Rechnungsnummer', 'Kunde', 'Ansprechpartner', 'RECHNUNG', 'Gutschrift Nr. 12', '12345'])(
    'refuses %j: a label, a title or no letters',
    (name) => expect(refusedAs(name)).toHaveLength(1),
  );

  it.each(['Customer name', 'Trade name', 'Contact name', 'Your Company Name', 'Supplier Company', 'Nom', 'Firma', '[Seller name]'])(
    'refuses %j: placeholder words only',
    (name) => expect(refusedAs(name)).toEqual([expect.stringContaining('placeholder')]),
  );

  it.each([
    'Customer Care Solutions GmbH',
    'Customer Care Solutions',
    'Lieferant GmbH',
    'My Supplier Company N.V.',
    'Firma Müller',
    'Rechnungswesen Müller',
    'Invoice Ninja',
    'La Poste',
    'Max Mustermann',
  ])('accepts %j: a placeholder or title word inside a longer name, or with a legal form', (name) => {
    expect(refusedAs(name)).toEqual([]);
  });
});

describe('the sign of the totals and the type code agree', () => {
  const negated = (name: string) => {
    const read = fixture(name);
    const t = read.documentTotals!;
    t.invoiceTotalAmountWithVat = new Decimal(t.invoiceTotalAmountWithVat!).negated().toFixed(2);
    return read;
  };

  it('refuses a credit note (381) with a negative total, before the totals are compared', () => {
    const r = refusal(negated('03-credit-note-381.json'));
    expect(r.code).toBe('FIELDS_UNCERTAIN');
    expect(r.fields.map((f) => [f.bt, f.value?.startsWith('-')])).toEqual([['BT-112', true]]);
    expect(r.fields[0]!.message).toContain('a credit note states positive amounts');
  });

  it('refuses a commercial invoice (380) with a negative total: its credit-note title was not read', () => {
    expect(named(refusal(negated('01-standard-19.json')))).toEqual([
      ['invoice.documentTotals.invoiceTotalAmountWithVat', 'BT-112', '-562.75'],
    ]);
  });

  it('leaves the signs of a corrective invoice (384) to it', () => {
    expect(crossCheckProblems(negated('04-corrected-invoice-384.json'), 'en')).toEqual([]);
  });
});

describe('dates in order', () => {
  it('refuses a due date before the invoice date, naming both, and accepts one on the same day', () => {
    const read = fixture();
    read.paymentDueDate = '2025-03-02';
    expect(named(refusal(read))).toEqual([
      ['invoice.paymentDueDate', 'BT-9', '2025-03-02'],
      ['invoice.invoiceIssueDate', 'BT-2', '2025-03-03'],
    ]);
    read.paymentDueDate = '2025-03-03';
    expect(crossCheckProblems(read, 'en')).toEqual([]);
  });

  it('refuses a delivery more than a year after the invoice date, and accepts late invoicing', () => {
    const read = fixture();
    read.deliveryInformation = { actualDeliveryDate: '2026-03-04' };
    expect(named(refusal(read))).toEqual([
      ['invoice.deliveryInformation.actualDeliveryDate', 'BT-72', '2026-03-04'],
      ['invoice.invoiceIssueDate', 'BT-2', '2025-03-03'],
    ]);
    for (const accepted of ['2026-03-03', '2023-01-15']) {
      read.deliveryInformation = { actualDeliveryDate: accepted };
      expect(crossCheckProblems(read, 'en')).toEqual([]);
    }
  });
});

describe('what the refusal gives a person to decide by', () => {
  it("lists the caller's other readings beside the value read, without repeating it", () => {
    const read = fixture();
    read.buyer!.buyerName = read.seller!.sellerName;
    const r = refusal(read, {
      candidates: { 'buyer.buyerName': ['Rheinwerk Bürobedarf GmbH', 'Bergmann Logistik AG', 'Bergmann Logistik AG'] },
    });
    expect(r.fields.map((f) => [f.field, f.candidates])).toEqual([
      ['invoice.buyer.buyerName', ['Bergmann Logistik AG']],
      ['invoice.seller.sellerName', undefined],
    ]);
  });

  it("tells the owner in the invoice's language that nothing was written, not that the scan is unclear", () => {
    const read = fixture();
    read.buyer!.buyerVatIdentifier = read.seller!.sellerVatIdentifier;
    const de = refusal(read, { language: 'de' });
    expect(de.language).toBe('de');
    expect(de.userMessage).toContain('widersprechen sich: die USt-IdNr. des Käufers; die USt-IdNr. oder Steuernummer des Verkäufers');
    expect(de.userMessage).not.toContain('Scan');
    expect(de.fields[0]!.message).toBe(
      'Die USt-IdNr. des Käufers (BT-48) und die USt-IdNr. oder Steuernummer des Verkäufers (BT-31) sind gleich: „DE298765432“; vermutlich wurde eine Angabe aus dem Block der anderen Partei gelesen. Bitte prüfen Sie, wer auf der Rechnung Verkäufer und wer Käufer ist',
    );
    expect(refusal(read).userMessage).toMatch(/^Some details read from the invoice contradict each other: the buyer's VAT ID;/);
  });

  it('asks for what is missing first', () => {
    const read = fixture();
    read.seller!.sellerName = 'Name:';
    delete read.buyer!.buyerName;
    expect(refusal(read).code).toBe('FIELDS_MISSING');
  });
});
