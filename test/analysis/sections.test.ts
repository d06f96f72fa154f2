import { describe, expect, it } from 'vitest';
import { analyseInvoice } from '../../src/analysis/index.js';
import { isLabelText, isNameFragment } from '../../src/analysis/party-names.js';
import type { Segment } from '../../src/analysis/layout.js';
import { labelRole } from '../../src/analysis/sections.js';
import { PARTY_LABEL_TEXTS } from '../../src/analysis/lexicon.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { pdfOf, type Text } from './fixtures.js';

/**
 * The layout of the readable renderings German and French tools print: a heading per party, a
 * label column on the left and a value column on the right. Read across its sections, the buyer
 * got the seller's name and the seller the buyer's VAT id.
 */
function readableRendering(buyerAddress: string[] = ['Kundenstraße 15', '69876 Frankfurt']): Text[] {
  const rows: Array<[string, string]> = [];
  const out: Text[] = [{ s: 'Handelsrechnung (380) Nr. 471102 vom 15.11.2024', x: 50, y: 120, size: 12, bold: true }];
  let y = 170;
  const section = (heading: string, pairs: Array<[string, string]>) => {
    out.push({ s: heading, x: 50, y, size: 11, bold: true });
    y += 16;
    for (const [label, value] of pairs) {
      out.push({ s: label, x: 50, y, size: 10 }, { s: value, x: 300, y, size: 10 });
      y += 14;
    }
    y += 30;
    rows.push(...pairs);
  };
  section('Verkäufer', [
    ['Nummer:', '549910'],
    ['Name:', 'Lieferant GmbH'],
    ['Anschrift:', 'Lieferantenstraße 20'],
    ['', '80333 München'],
    ['USt.-Id.-Nr.:', 'DE123456789'],
  ]);
  section('Käufer/Leistungsempfänger', [
    ['Nummer:', 'GE2020211'],
    ['Name:', 'Kunden AG Mitte'],
    ...buyerAddress.map((line, i): [string, string] => [i === 0 ? 'Anschrift:' : '', line]),
    ['USt.-Id.-Nr.:', 'DE136695976'],
  ]);
  out.push({ s: 'Gesamtbetrag brutto', x: 50, y, size: 10 }, { s: '529,87', x: 300, y, size: 10 });
  return out.filter((t) => t.s !== '');
}

/** A form of label–value pairs under section headings, two pairs to a line where a row has four cells. */
function form(title: string, sections: Array<[string, Array<[string, string, string?, string?]>]>): Text[] {
  const out: Text[] = [{ s: title, x: 40, y: 80, size: 12, bold: true }];
  let y = 120;
  for (const [heading, rows] of sections) {
    out.push({ s: heading, x: 40, y, size: 11, bold: true });
    y += 22;
    for (const [label, value, label2, value2] of rows) {
      out.push({ s: label, x: 40, y, size: 9 }, { s: value, x: 130, y, size: 9 });
      if (label2 && value2) out.push({ s: label2, x: 330, y, size: 9 }, { s: value2, x: 420, y, size: 9 });
      y += 13;
    }
    y += 30;
  }
  return out;
}

describe('party sections', () => {
  it('reads each party from its own section of a readable rendering', async () => {
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([readableRendering()])), { withLineItems: false });
    expect(invoice.seller?.sellerName).toBe('Lieferant GmbH');
    expect(invoice.buyer?.buyerName).toBe('Kunden AG Mitte');
    expect(invoice.seller?.sellerVatIdentifier).toBe('DE123456789');
    expect(invoice.buyer?.buyerVatIdentifier).toBe('DE136695976');
  });

  it('keeps an address\'s last line with it where the next label follows at the line spacing ("Hof 3" / "DE 12345 Leipzig" / "USt.-Id.-Nr.:")', async () => {
    const pages = [readableRendering(['Pappelallee 15', 'Hof 3', 'DE 12345 Leipzig'])];
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf(pages)), { withLineItems: false });
    expect(invoice.buyer?.buyerPostalAddress).toMatchObject({
      buyerAddressLine1: 'Pappelallee 15',
      buyerAddressLine2: 'Hof 3',
      buyerPostCode: '12345',
      buyerCity: 'Leipzig',
    });
    expect(invoice.buyer?.buyerVatIdentifier).toBe('DE136695976');
  });

  it('takes a heading joining two names of one role, or qualified, as that role', async () => {
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([readableRendering()])), { withLineItems: false });
    expect(invoice.buyer?.buyerName).not.toBe('Lieferant GmbH');
    for (const heading of ['Käufer/Leistungsempfänger', 'Abweichender Warenempfänger', 'Rechnungsempfänger / Kunde'])
      expect(isLabelText(heading), heading).toBe(true);
  });

  it('takes a name printed with its label on one line ("Name: Lieferant GmbH") without the label', async () => {
    const inline = readableRendering().map((t) =>
      t.s === 'Name:' ? { ...t, s: `Name: ${t.y < 300 ? 'Lieferant GmbH' : 'Kunden AG Mitte'}` } : t,
    );
    const page = inline.filter((t) => !(t.x === 300 && /^(?:Lieferant GmbH|Kunden AG Mitte)$/.test(t.s)));
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([page])), { withLineItems: false });
    expect(invoice.seller?.sellerName).toBe('Lieferant GmbH');
    expect(invoice.buyer?.buyerName).toBe('Kunden AG Mitte');
  });

  it('reads a form of label–value pairs in two columns under "Informationen zum …" headings', async () => {
    const out = form('Daten der E-Rechnung', [
      [
        'Informationen zum Käufer',
        [
          ['Name:', 'Untertänigster Leistungsempfänger', 'Ländercode:', 'AT (Österreich)'],
          ['Adresszeile 1:', 'Party Street 1', 'Telefon:', '+431234567'],
          ['PLZ:', '1010'],
          ['Ort:', 'Wien'],
        ],
      ],
      [
        'Informationen zum Verkäufer',
        [
          ['Firmenname:', 'Hochwürdiger Leistungserbringer', 'Ländercode:', 'DE (Deutschland)'],
          ['Adresszeile 1:', 'Fun Street 1', 'E-Mail-Adresse:', 'hero@example.org'],
          ['PLZ:', '12345'],
          ['Ort:', 'Glückstadt'],
        ],
      ],
      [
        'Rechnungsdaten',
        [
          ['Rechnungsnummer:', '12345'],
          ['Rechnungsdatum:', '21.10.2015'],
        ],
      ],
    ]);
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([out])), { withLineItems: false });
    expect(invoice.seller).toMatchObject({
      sellerName: 'Hochwürdiger Leistungserbringer',
      sellerPostalAddress: {
        sellerAddressLine1: 'Fun Street 1',
        sellerPostCode: '12345',
        sellerCity: 'Glückstadt',
        sellerCountryCode: 'DE',
      },
    });
    expect(invoice.buyer).toMatchObject({
      buyerName: 'Untertänigster Leistungsempfänger',
      buyerPostalAddress: { buyerAddressLine1: 'Party Street 1', buyerPostCode: '1010', buyerCity: 'Wien', buyerCountryCode: 'AT' },
    });
  });

  it('reads the English form too: "Location:" is the city and "Identifier:" the party\'s identifier under a party\'s heading', async () => {
    const out = form('Overview', [
      [
        'Information about the buyer',
        [
          ['Name:', 'Kunden AG Mitte'],
          ['Address line 1:', 'Kundenstraße 15'],
          ['ZIP:', '69876'],
          ['Location:', 'Frankfurt'],
          ['Identifier:', 'GE2020211'],
        ],
      ],
      [
        'Information about the seller',
        [
          ['Company name:', 'Lieferant GmbH'],
          ['Address line 1:', 'Lieferantenstraße 20'],
          ['ZIP:', '80333'],
          ['Location:', 'München'],
        ],
      ],
    ]);
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([out])), { withLineItems: false });
    expect(invoice.buyer).toMatchObject({ buyerIdentifier: 'GE2020211', buyerPostalAddress: { buyerCity: 'Frankfurt' } });
    expect(invoice.seller?.sellerPostalAddress?.sellerCity).toBe('München');
  });

  it('reads a form whose party names are role words ("Rechnungssteller") by its labels, no label carried into a value', async () => {
    const out = form('Daten der E-Rechnung', [
      [
        'Informationen zum Käufer',
        [
          ['Name:', 'Rechnungsempfänger', 'Kennung:', '123456789'],
          ['Adresszeile 1:', 'Musterstraße 2', 'Schema der Kennung:', 'XR03'],
          ['PLZ:', '01234'],
          ['Ort:', 'Berlin'],
        ],
      ],
      [
        'Informationen zum Verkäufer',
        [
          ['Firmenname:', 'Rechnungssteller', 'Kennung:', '987654321'],
          ['Adresszeile 1:', 'Musterstraße 1', 'Schema der Kennung:', 'XR03'],
          ['PLZ:', '01234', 'Name:', 'Max Mustermann'],
          ['Ort:', 'Berlin', 'Telefon:', '+49 000 001 0001'],
          ['Ländercode:', 'DE (Deutschland)'],
        ],
      ],
    ]);
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([out])), { withLineItems: false });
    expect(invoice.seller?.sellerPostalAddress).toMatchObject({
      sellerAddressLine1: 'Musterstraße 1',
      sellerPostCode: '01234',
      sellerCity: 'Berlin',
    });
    expect(invoice.buyer?.buyerPostalAddress).toMatchObject({
      buyerAddressLine1: 'Musterstraße 2',
      buyerPostCode: '01234',
      buyerCity: 'Berlin',
    });
    expect(JSON.stringify([invoice.seller, invoice.buyer])).not.toMatch(/(?:Adresszeile 1|PLZ|Ort):/);
  });

  it('reads a name of two lines set around its label, and the address lines below theirs', async () => {
    // [label, value, y]: a value without a label goes on a line of its own.
    const rows: Array<[string, string, number]> = [
      ['Verkäufer', '', 160],
      ['Nummer:', '549910', 178],
      ['', 'MVM Musterhafter', 196],
      ['Name:', 'Versicherungsverein Musterstadt a.G.', 208],
      ['Anschrift:', 'Musterstr. 12', 238],
      ['', 'DE 12345 Musterstadt', 256],
      ['USt.-Id.-Nr.:', 'DE234567891', 274],
      ['Käufer/Leistungsempfänger', '', 326],
      ['', 'Herrn', 343],
      ['Name:', 'Max Mustermann', 355],
      ['Anschrift:', 'Musterstr. 11', 385],
      ['', 'DE 12346 Bad Musterhausen', 403],
    ];
    const out: Text[] = [
      { s: 'Rechnung des Versicherers (575) Nr. 2018-1 vom 11.03.2018', x: 50, y: 100, size: 12, bold: true },
      ...rows.flatMap(([label, value, y]) => [
        ...(label ? [{ s: label, x: 50, y, size: 10 }] : []),
        ...(value ? [{ s: value, x: 260, y, size: 10 }] : []),
      ]),
    ];
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf([out])), { withLineItems: false });
    expect(invoice.seller?.sellerName).toBe('MVM Musterhafter Versicherungsverein Musterstadt a.G.');
    expect(invoice.seller?.sellerIdentifier).toEqual(['549910']);
    expect(invoice.buyer?.buyerName).toBe('Herrn Max Mustermann');
    expect(invoice.buyer?.buyerPostalAddress).toMatchObject({ buyerAddressLine1: 'Musterstr. 11', buyerCity: 'Bad Musterhausen' });
    expect(invoice.seller?.sellerVatIdentifier).toBe('DE234567891');
    expect(invoice.buyer?.buyerVatIdentifier).toBeUndefined();
  });

  it('reads two joined headings of one role with letters a scan misread, and no mix of roles', () => {
    const seg = (text: string) => ({ text }) as Segment;
    expect(labelRole(seg('Kaufer/Leistungsempfinger'), true)?.role).toBe('buyer');
    expect(labelRole(seg('Kaufer/Leistungsempfinger'), false)).toBeUndefined();
    expect(labelRole(seg('Kaufer/Lieferant'), true)).toBeUndefined();
  });

  it('never takes a label, a heading or a placeholder for a value', () => {
    const labels = Object.values(PARTY_LABEL_TEXTS).flat();
    for (const label of [...labels, ...labels.map((l) => `${l}:`), ...labels.map((l) => l.toUpperCase())])
      expect(isLabelText(label), label).toBe(true);
    for (const text of [
      'Name:',
      'SELLER TRADE NAME',
      'Buyer contact name',
      'LOGO LE FOURNISSEUR',
      'Firmenname',
      'Raison sociale :',
      'Leistungsadresse',
      'Informationen zum Verkäufer',
      'Details of the buyer',
      "Informations sur l'acheteur",
    ])
      expect(isLabelText(text), text).toBe(true);
    for (const name of ['Lieferant GmbH', 'Kunden AG Mitte', 'Seller Company', 'Customer Care Solutions GmbH', 'Au bon moulin'])
      expect(isLabelText(name), name).toBe(false);
  });

  it('never takes a legal form that only closes names for a name, alone or opening a cut sender line', () => {
    for (const text of ['Inc.', 'GmbH', 'Ltd', '& Co. KG', 'GmbH - Musterstraße -', 'LLC, 12 Main Street'])
      expect(isNameFragment(text), text).toBe(true);
    for (const name of [
      'Muster GmbH',
      'SARL Au bon moulin',
      'SAS Dupont',
      'Incredible Foods',
      'Corporate Design Studio',
      'Kunden AG Mitte',
    ])
      expect(isNameFragment(name), name).toBe(false);
  });
});
