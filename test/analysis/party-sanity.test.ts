import { describe, expect, it } from 'vitest';
import { analyseInvoice, analyseWithEvidence } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { sameParty } from '../../src/analysis/parties.js';
import { germanInvoice, pdfOf, type Text } from './fixtures.js';

/** The invoice read from one page, without line items. */
async function headerOf(page: Text[]) {
  return analyseInvoice(await extractTextLayer(await pdfOf([page])), { withLineItems: false }).invoice;
}

/** A French subscriber invoice: logo-only letterhead, the address window on the right, a table of account facts on the left. */
const subscriberInvoice: Text[] = [
  { s: 'Service Abonnés', x: 40, y: 85 },
  { s: '75371 Paris Cedex 08', x: 40, y: 94 },
  { s: 'Marie Lefèvre', x: 300, y: 152, size: 10 },
  { s: '12 rue des Tilleuls', x: 300, y: 164, size: 10 },
  { s: '69100 Villeurbanne', x: 300, y: 176, size: 10 },
  { s: 'Adresse email de contact', x: 40, y: 255 },
  { s: 'marie.lefevre@example.org', x: 40, y: 264 },
  { s: 'Adresse de l’installation', x: 255, y: 285 },
  { s: '12 rue des Tilleuls', x: 255, y: 294 },
  { s: '69100 Villeurbanne', x: 255, y: 303 },
  { s: 'Facture n° 562044387 du 02/07/2024', x: 40, y: 330 },
  { s: 'Total facture TTC', x: 360, y: 400 },
  { s: '29,99', x: 538, y: 400, right: true },
];

describe('telling seller and buyer apart', () => {
  it("never takes a heading over an address for a party's name, and finds the window beside it", async () => {
    const invoice = await headerOf(subscriberInvoice);
    expect(invoice.buyer?.buyerName).toBe('Marie Lefèvre');
    // One address cannot be both parties': the subscriber is not also the seller.
    expect(invoice.seller?.sellerName).not.toBe('Marie Lefèvre');
    // An e-mail printed in the middle of the page, outside the seller's block, is not the seller's contact.
    expect(invoice.seller?.sellerContact?.sellerContactEmailAddress).toBeUndefined();
  });

  it('keeps two parties with two names at one address apart (neighbours in one building)', async () => {
    const page: Text[] = [
      { s: 'Hafenkontor Weber GmbH', x: 40, y: 40, size: 12 },
      { s: 'Speicherstraße 4', x: 40, y: 54 },
      { s: '20457 Hamburg', x: 40, y: 66 },
      { s: 'Client', x: 300, y: 140 },
      { s: 'Reederei Albers KG', x: 300, y: 152 },
      { s: 'Speicherstraße 4', x: 300, y: 164 },
      { s: '20457 Hamburg', x: 300, y: 176 },
      { s: 'Facture n° 2024-118 du 02/07/2024', x: 40, y: 330 },
      { s: 'Total facture TTC', x: 360, y: 400 },
      { s: '119,00', x: 538, y: 400, right: true },
    ];
    const invoice = await headerOf(page);
    expect(invoice.seller?.sellerName).toBe('Hafenkontor Weber GmbH');
    expect(invoice.buyer?.buyerName).toBe('Reederei Albers KG');
  });

  it("takes the name at the top for a seller's block that prints only an address, without the title set on its line", async () => {
    const page: Text[] = [
      { s: 'Neumann Gebäudeservice GmbH & Co. KG RECHNUNG', x: 48, y: 26, size: 19 },
      { s: 'Rechnungsempfänger', x: 48, y: 100 },
      { s: 'Rechnungssteller', x: 214, y: 100 },
      { s: 'Roth Bürotechnik KG', x: 48, y: 114 },
      { s: 'Mühlenweg 28', x: 214, y: 114 },
      { s: 'Bahnhofstraße 105', x: 48, y: 128 },
      { s: '10623 Stuttgart', x: 214, y: 128 },
      { s: '24103 Kiel', x: 48, y: 142 },
      { s: 'Belegnummer: 0000123456', x: 384, y: 100 },
      { s: 'Gesamtbetrag', x: 360, y: 400 },
      { s: '119,00', x: 538, y: 400, right: true },
    ];
    const invoice = await headerOf(page);
    expect(invoice.seller?.sellerName).toBe('Neumann Gebäudeservice GmbH & Co. KG');
    expect(invoice.buyer?.buyerName).toBe('Roth Bürotechnik KG');
  });

  it('keeps a letterhead whose wide first line spans the buyer block beside its lower lines', () => {
    // Boxes as the layout measures them: the letterhead's name runs across to x 386, the buyer block starts at x 308 below it.
    const line = (text: string, x0: number, x1: number, top: number) => ({
      page: 1,
      line: 0,
      words: [],
      text,
      offsets: [],
      x0,
      x1,
      top,
      bottom: top + 11,
      height: 11,
    });
    const segments = [
      line('Hartmann Softwareentwicklung GmbH & Co. KG', 40, 386, 40),
      line('Hauptstraße 120', 40, 112, 63),
      line('Germania', 40, 83, 106),
      line('P.IVA: ATU56580989', 40, 141, 116),
    ];
    const letterhead = { page: 1, segments, x0: 40, x1: 386, top: 40, bottom: 127 };
    const buyer = { name: 'Hartmann Haustechnik GmbH', page: 1, top: 116, bottom: 190, x0: 308, x1: 461 };
    expect(sameParty(letterhead, buyer)).toBe(false);
    expect(sameParty({ ...letterhead, segments: [...segments, line('Hartmann Haustechnik GmbH', 308, 461, 116)] }, buyer)).toBe(true);
  });
});

describe('the registered name', () => {
  it('completes a legal form the letterhead abbreviates from the footer, spelled as registered where a scan misread it', async () => {
    const page = germanInvoice()[0]!.map((t) => ({
      ...t,
      s: t.s.replace('Musterbau GmbH', t.y > 700 ? 'Musterbau UG (haftungsbeschrankt)' : 'Musterbau UG'),
    }));
    const invoice = await headerOf(page);
    expect(invoice.seller?.sellerName).toBe('Musterbau UG (haftungsbeschränkt)');
  });
});

describe('a seller the page names twice', () => {
  const withFooterName = (name: string, address = 'Hafenstraße 7, 20457 Hamburg') =>
    germanInvoice().map((page) =>
      page.map((t) => (t.y === 770 && t.s === 'Musterbau GmbH' ? { ...t, s: name } : t.y === 779 && t.x === 57 ? { ...t, s: address } : t)),
    );
  const read = async (pages: Text[][]) => analyseWithEvidence(await extractTextLayer(await pdfOf(pages)), { withLineItems: false });

  it('holds the name open, offering the other, where another company is named over the same street', async () => {
    for (const other of ['Hafenbau GmbH', 'Bau GmbH']) {
      const result = await read(withFooterName(other));
      expect(result.invoice.seller?.sellerName).toBe('Musterbau GmbH');
      expect(result.evidence['seller.sellerName']).toMatch(/:named-twice$/);
      expect(result.fieldConfidence['seller.sellerName']).toBeLessThanOrEqual(0.5);
      expect(result.candidates?.['seller.sellerName']).toContain(other);
    }
  });

  it('takes another company at the same street in another town for a neighbour of another town', async () => {
    const result = await read(withFooterName('Hafenbau GmbH', 'Hafenstraße 7, 80331 München'));
    expect(result.evidence['seller.sellerName']).not.toMatch(/:named-twice$/);
  });

  it('takes a name that differs only by its legal form, a line of the name, and the same name, for one name', async () => {
    for (const name of ['Musterbau GmbH', 'Musterbau GmbH & Co. KG', 'Musterbau Hamburg GmbH']) {
      const result = await read(withFooterName(name));
      expect(result.evidence['seller.sellerName']).not.toMatch(/:named-twice$/);
      expect(result.fieldConfidence['seller.sellerName']).toBeGreaterThan(0.6);
    }
  });
});
