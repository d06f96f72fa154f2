import { describe, expect, it } from 'vitest';
import { analyseInvoice, extractTextLayer } from '../../src/analysis/index.js';
import { PARTY_LABEL_TEXTS, type PartyRole } from '../../src/analysis/lexicon.js';
import { pdfOf, type Text } from './fixtures.js';

async function parties(texts: Text[]) {
  const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([texts])), { withLineItems: false });
  return { seller: invoice.seller, buyer: invoice.buyer };
}

const total: Text[] = [
  { s: 'Gesamtbetrag', x: 380, y: 420, bold: true },
  { s: '119,00', x: 545, y: 420, right: true, bold: true },
];

/** A heading printed over an address in the window position, nothing else that names a party. */
const headed = (heading: string): Text[] => [
  { s: heading, x: 60, y: 130, size: 8, bold: true },
  { s: 'Nordlicht Handel GmbH', x: 60, y: 141, size: 10 },
  { s: 'Fjordweg 3', x: 60, y: 153, size: 10 },
  { s: '24103 Kiel', x: 60, y: 165, size: 10 },
  ...total,
];

describe('a heading over an address is a label, never a name', () => {
  for (const role of Object.keys(PARTY_LABEL_TEXTS) as PartyRole[]) {
    it(`never reads a ${role} label as a party's name`, async () => {
      for (const label of PARTY_LABEL_TEXTS[role]) {
        for (const printed of [label, label.toUpperCase(), `${label}:`]) {
          const { seller, buyer } = await parties(headed(printed));
          expect(seller?.sellerName, printed).not.toBe(printed);
          expect(buyer?.buyerName, printed).not.toBe(printed);
          for (const name of [seller?.sellerName, buyer?.buyerName]) expect(name ?? '', printed).not.toContain(label);
          // The block a seller's or buyer's label heads is that party's, named by its first line.
          if (role === 'seller') expect(seller?.sellerName, printed).toBe('Nordlicht Handel GmbH');
          if (role === 'buyer') expect(buyer?.buyerName, printed).toBe('Nordlicht Handel GmbH');
        }
      }
    });
  }

  it('never reads a field label or a document title over an address as the name', async () => {
    for (const heading of ['Rechnung', 'RECHNUNG', 'Fattura differita', 'TAX INVOICE', 'Facture', 'Kundennummer', 'Lieferdatum', 'Ihre Referenz', 'Invoice date', 'Codice cliente']) {
      const { seller, buyer } = await parties(headed(heading));
      expect(buyer?.buyerName, heading).toBe('Nordlicht Handel GmbH');
      expect(seller?.sellerName ?? '', heading).not.toContain(heading);
    }
  });
});

describe('the seller in its letterhead', () => {
  it('takes the company, not the document title printed over it', async () => {
    const { seller } = await parties([
      { s: 'FATTURA DIFFERITA', x: 40, y: 30, size: 16, bold: true },
      { s: 'Officine Rossi S.r.l.', x: 40, y: 50, size: 11, bold: true },
      { s: 'Via Emilia 45', x: 40, y: 63 },
      { s: '40121 Bologna', x: 40, y: 74 },
      { s: 'Trattoria Bianchi', x: 330, y: 150, size: 10 },
      { s: 'Piazza Maggiore 2', x: 330, y: 162, size: 10 },
      { s: '40124 Bologna', x: 330, y: 174, size: 10 },
      ...total,
    ]);
    expect(seller?.sellerName).toBe('Officine Rossi S.r.l.');
    expect(seller?.sellerPostalAddress?.sellerCity).toBe('Bologna');
  });

  it('never takes a street for the name: a labelled block that starts with its street is an address without a name', async () => {
    const { seller, buyer } = await parties([
      { s: 'Kranbau Elbe GmbH', x: 48, y: 26, size: 16, bold: true },
      { s: 'Kunde', x: 48, y: 100, size: 7 },
      { s: 'Bauhof Lindner KG', x: 48, y: 110 },
      { s: 'Am Werder 8', x: 48, y: 121 },
      { s: '39104 Magdeburg', x: 48, y: 132 },
      { s: 'Lieferant', x: 214, y: 100, size: 7 },
      { s: 'Hafenstraße 20', x: 214, y: 110 },
      { s: '01067 Dresden', x: 214, y: 121 },
      ...total,
    ]);
    expect(buyer?.buyerName).toBe('Bauhof Lindner KG');
    expect(seller?.sellerName).toBe('Kranbau Elbe GmbH');
    expect(seller?.sellerPostalAddress?.sellerAddressLine1).toBe('Hafenstraße 20');
    expect(seller?.sellerPostalAddress?.sellerCity).toBe('Dresden');
  });

  it('reads a letterhead set flush right, street and city included', async () => {
    const right = (s: string, y: number, size = 7): Text => ({ s, x: 540, y, size, right: true });
    const { seller, buyer } = await parties([
      { ...right('Studio Van Dijk B.V.', 40, 13), bold: true },
      right('Oudezijds Achterburgwal 141', 59),
      right('1012 DN Amsterdam', 68),
      right('KvK 12345678', 77),
      { s: 'Bakkerij De Molen', x: 55, y: 150, size: 9 },
      { s: 'Molenstraat 5', x: 55, y: 161, size: 9 },
      { s: '3511 AB Utrecht', x: 55, y: 172, size: 9 },
      ...total,
    ]);
    expect(buyer?.buyerName).toBe('Bakkerij De Molen');
    expect(seller?.sellerName).toBe('Studio Van Dijk B.V.');
    expect(seller?.sellerPostalAddress?.sellerAddressLine1).toBe('Oudezijds Achterburgwal 141');
    expect(seller?.sellerPostalAddress?.sellerCity).toBe('Amsterdam');
    expect(seller?.sellerPostalAddress?.sellerPostCode).toBe('1012 DN');
  });

  it('reads a British letterhead with the post town and the post code on lines of their own', async () => {
    const { seller } = await parties([
      { s: 'Thames Valve Works Ltd', x: 50, y: 40, size: 14, bold: true },
      { s: '27 Wharf Road', x: 50, y: 60 },
      { s: 'Reading', x: 50, y: 71 },
      { s: 'RG1 8BQ', x: 50, y: 82 },
      { s: 'Bill to', x: 50, y: 130, bold: true },
      { s: 'Harbour Supplies Ltd', x: 50, y: 142 },
      { s: '4 Quay Street', x: 50, y: 153 },
      { s: 'Bristol BS1 4DJ', x: 50, y: 164 },
      ...total,
    ]);
    expect(seller?.sellerName).toBe('Thames Valve Works Ltd');
    expect(seller?.sellerPostalAddress?.sellerAddressLine1).toBe('27 Wharf Road');
    expect(seller?.sellerPostalAddress?.sellerCity).toBe('Reading');
    expect(seller?.sellerPostalAddress?.sellerPostCode).toBe('RG1 8BQ');
  });
});
