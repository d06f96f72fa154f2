import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
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
    for (const heading of [
      'Rechnung',
      'RECHNUNG',
      'Fattura differita',
      'TAX INVOICE',
      'Facture',
      'Kundennummer',
      'Lieferdatum',
      'Ihre Referenz',
      'Invoice date',
      'Codice cliente',
    ]) {
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

  it('reads a seller under "Service Provider:" past a remark in brackets, and addresses written with commas and a country code', async () => {
    const { seller, buyer } = await parties([
      { s: 'Bill to Address:', x: 50, y: 120 },
      { s: 'ATTN: Harbour Labs Limited', x: 50, y: 131 },
      { s: '12 Tai Po Road', x: 50, y: 142 },
      { s: 'Sha Tin, N.T., 0000, HK', x: 50, y: 153 },
      { s: 'Service Provider:', x: 360, y: 600 },
      { s: '(Not to be used for payment remittance)', x: 360, y: 611 },
      { s: 'Cloudworks Services, Inc.', x: 360, y: 622 },
      { s: '88 Pine Street', x: 360, y: 633 },
      { s: 'Seattle, WA 98101-5210, US', x: 360, y: 644 },
      ...total,
    ]);
    expect(seller?.sellerName).toBe('Cloudworks Services, Inc.');
    expect(seller?.sellerPostalAddress).toMatchObject({
      sellerAddressLine1: '88 Pine Street',
      sellerCity: 'Seattle',
      sellerPostCode: '98101-5210',
      sellerCountryCode: 'US',
    });
    expect(buyer?.buyerName).toBe('Harbour Labs Limited');
    expect(buyer?.buyerPostalAddress).toMatchObject({ buyerAddressLine1: '12 Tai Po Road', buyerCity: 'Sha Tin', buyerCountryCode: 'HK' });
  });

  it('takes the seller from the French legal notice when no letterhead names it: the name before its legal form, the registered office as its address', async () => {
    const { seller } = await parties([
      { s: 'Madame Claire Morel', x: 330, y: 130 },
      { s: '5 rue des Tilleuls', x: 330, y: 141 },
      { s: '69003 Lyon', x: 330, y: 152 },
      {
        s: 'Lumière Fibre SAS au capital de 1.250.000 Euros – B 123 456 789 RCS Paris – Siège social: 12 avenue de la Gare 75010 Paris – N° TVA FR 40 123456789',
        x: 30,
        y: 800,
        size: 6,
      },
      ...total,
    ]);
    expect(seller?.sellerName).toBe('Lumière Fibre');
    expect(seller?.sellerPostalAddress).toMatchObject({
      sellerAddressLine1: '12 avenue de la Gare',
      sellerPostCode: '75010',
      sellerCity: 'Paris',
    });
  });

  it('names a French seller as registered, without the legal form its legal notice prints apart; with no notice, as printed', async () => {
    const letterhead = (notice: string): Text[] => [
      { s: 'Moulin de Provence SARL - 12 chemin des Oliviers - 84340 Malaucène - France', x: 120, y: 40, size: 8 },
      { s: `TVA : FR11999999998 - SIRET : 99999999800010${notice}`, x: 120, y: 52, size: 8 },
      { s: 'Boutique Lumière', x: 330, y: 130 },
      { s: '35 rue de la République', x: 330, y: 141 },
      { s: '69001 Lyon', x: 330, y: 152 },
      ...total,
    ];
    expect((await parties(letterhead(' - SARL au capital de 120 000,00 €'))).seller?.sellerName).toBe('Moulin de Provence');
    expect((await parties(letterhead(''))).seller?.sellerName).toBe('Moulin de Provence SARL');
  });

  it('reads an address window without a post code, where the country has none: the town is the line before the country', async () => {
    const { seller, buyer } = await parties([
      { s: 'Nordlicht Handel GmbH - Fjordweg 3 - D-24103 Kiel', x: 60, y: 120, size: 7 },
      { s: 'Harbour Labs Ltd.', x: 60, y: 135, size: 10 },
      { s: '12 Tai Po Road', x: 60, y: 147, size: 10 },
      { s: 'Sha Tin, N.T.', x: 60, y: 159, size: 10 },
      { s: 'Hong Kong', x: 60, y: 171, size: 10 },
      ...total,
    ]);
    expect(seller?.sellerName).toBe('Nordlicht Handel GmbH');
    expect(buyer?.buyerName).toBe('Harbour Labs Ltd.');
    expect(buyer?.buyerPostalAddress).toEqual({ buyerAddressLine1: '12 Tai Po Road', buyerCity: 'Sha Tin, N.T.', buyerCountryCode: 'HK' });
  });

  it('reads a name wrapped in a narrow column as one, and a labelled block that starts with "Am Markt 82" as nameless', async () => {
    const { seller, buyer } = await parties([
      { s: 'Rechnungsempfänger', x: 50, y: 120, bold: true },
      { s: 'Roth Bürotechnik GmbH &', x: 50, y: 132 },
      { s: 'Co. KG', x: 50, y: 143 },
      { s: 'Bahnhofstraße 105', x: 50, y: 154 },
      { s: '24103 Kiel', x: 50, y: 165 },
      { s: 'Rechnungssteller', x: 250, y: 120, bold: true },
      { s: 'Am Markt 82', x: 250, y: 132 },
      { s: '28195 Bremen', x: 250, y: 143 },
      ...total,
    ]);
    expect(buyer?.buyerName).toBe('Roth Bürotechnik GmbH & Co. KG');
    expect(seller?.sellerName).toBeUndefined();
    expect(seller?.sellerPostalAddress?.sellerAddressLine1).toBe('Am Markt 82');
    const wrapped = await parties([
      { s: 'Kunde', x: 50, y: 120, bold: true },
      { s: 'Brandt Medizintechnik UG', x: 50, y: 132 },
      { s: '(haftungsbeschränkt)', x: 50, y: 143 },
      { s: 'Hauptstraße 35', x: 50, y: 154 },
      { s: '60311 Frankfurt am Main', x: 50, y: 165 },
      ...total,
    ]);
    expect(wrapped.buyer?.buyerName).toBe('Brandt Medizintechnik UG (haftungsbeschränkt)');
  });

  it('names the seller by its registered name when the letterhead prints its brand and the footer the name with its legal form', async () => {
    const { seller } = await parties([
      { s: 'Lorenz Metallbau', x: 50, y: 40, size: 16, bold: true },
      { s: 'Hauptstraße 90', x: 50, y: 60 },
      { s: '10115 Berlin', x: 50, y: 71 },
      { s: 'Bill to', x: 50, y: 130, bold: true },
      { s: 'Harbour Supplies Ltd', x: 50, y: 142 },
      { s: '4 Quay Street', x: 50, y: 153 },
      { s: 'Bristol BS1 4DJ', x: 50, y: 164 },
      { s: 'Lorenz Metallbau AG · VAT reg. no.: DE123456788 · Amtsgericht Berlin HRB 4711', x: 50, y: 800, size: 7 },
      ...total,
    ]);
    expect(seller?.sellerName).toBe('Lorenz Metallbau AG');
  });
});

describe("a party's block ends at the next party's label", () => {
  it("never gives the seller the buyer's city when the seller's own city line cannot be read", async () => {
    const lines = [
      'Verkäufer:',
      'Global Supplies Ltd.',
      '153 Victoria Street',
      'GB SWIB 3BN London',
      'Käufer:',
      'Metallbau Leipzig GmbH',
      'Pappelallee 15',
      'DE 12345 Leipzig',
    ];
    const { seller, buyer } = await parties([...lines.map((s, i) => ({ s, x: 60, y: 130 + 12 * i, size: 10 })), ...total]);
    expect(buyer?.buyerPostalAddress?.buyerCity).toBe('Leipzig');
    expect(seller?.sellerPostalAddress?.sellerCity).not.toBe('Leipzig');
    expect(seller?.sellerPostalAddress?.sellerPostCode).not.toBe('12345');
  });
});

describe("an address's lines between its street and its city line", () => {
  const block = (lines: string[]): Text[] => [
    { s: 'Rechnungsempfänger', x: 60, y: 118, size: 8, bold: true },
    ...['Kunden AG Mitte', ...lines, '69876 Frankfurt'].map((s, i) => ({ s, x: 60, y: 130 + 12 * i, size: 10 })),
    ...total,
  ];

  it('are the second and third address lines (BT-51, BT-163), in the order printed', async () => {
    const { buyer } = await parties(block(['Pappelallee 15', 'Hof 3']));
    expect(buyer?.buyerPostalAddress).toMatchObject({
      buyerAddressLine1: 'Pappelallee 15',
      buyerAddressLine2: 'Hof 3',
      buyerCity: 'Frankfurt',
    });
    const three = await parties(block(['456 Buyer St', 'Suite 200', 'Building B']));
    expect(three.buyer?.buyerPostalAddress).toMatchObject({
      buyerAddressLine1: '456 Buyer St',
      buyerAddressLine2: 'Suite 200',
      buyerAddressLine3: 'Building B',
    });
  });

  it('a person printed above the street stays out of them', async () => {
    const { buyer } = await parties(block(['Hans Muster', 'Kundenstraße 15']));
    expect(buyer?.buyerPostalAddress?.buyerAddressLine1).toBe('Kundenstraße 15');
    expect(buyer?.buyerPostalAddress?.buyerAddressLine2).toBeUndefined();
  });
});
