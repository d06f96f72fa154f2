import { describe, expect, it } from 'vitest';
import { buildDoc } from '../../src/analysis/document.js';
import { analyseInvoice } from '../../src/analysis/index.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { findLineItems } from '../../src/analysis/table.js';
import { keyValueItems } from '../../src/analysis/key-value-items.js';
import { pdfOf, type Text } from './fixtures.js';

/**
 * Item tables as invoice software of other countries and smaller vendors sets them: labels in
 * Italian and Dutch, abbreviated ("Mge.", "Aant."), several labels close enough to be one run
 * of text, labels of more than one word ("Prijs per eenheid", "Descrizione articolo").
 */

/** A cell: text, x (the right edge where `right`), bold for the header. */
type Cell = [string, number, boolean?];

function table(header: Cell[], rows: Cell[][], after: Text[] = [], size = 8): Text[][] {
  const texts: Text[] = [
    { s: 'Beispiel Handel GmbH', x: 60, y: 50, size: 12, bold: true },
    { s: 'Via Roma 1, 00100 Roma', x: 60, y: 66 },
  ];
  let y = 200;
  for (const [s, x, right] of header) texts.push({ s, x, y, size, bold: true, right });
  y += 16;
  for (const row of rows) {
    for (const [s, x, right] of row) texts.push({ s, x, y, size, right });
    y += 14;
  }
  return [[...texts, ...after.map((t) => ({ ...t, y: y + t.y }))]];
}

async function rowsOf(pages: Text[][]) {
  return findLineItems(buildDoc(await extractTextLayer(await pdfOf(pages)))).rows;
}

describe('item table headers in other languages and abbreviations', () => {
  it('reads an Italian table whose labels run together ("Descrizione articolo", "Prezzo unitario", "Aliq. IVA", "Imponibile")', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Descrizione articolo', 60],
          ['Quantità', 330, true],
          ['Prezzo unitario', 400, true],
          ['Aliq. IVA', 445, true],
          ['Imponibile', 500, true],
        ],
        [
          [
            ['Olio extravergine 1 l', 60],
            ['12', 330, true],
            ['8,50', 400, true],
            ['10%', 445, true],
            ['102,00', 500, true],
          ],
          [
            ['Trasporto', 60],
            ['1', 330, true],
            ['25,00', 400, true],
            ['22%', 445, true],
            ['25,00', 500, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.quantity, r.unitPrice, r.vatRate, r.amount])).toEqual([
      ['Olio extravergine 1 l', '12', '8.50', '10', '102.00'],
      ['Trasporto', '1', '25.00', '22', '25.00'],
    ]);
  });

  it('reads "Descrizione articolo" as one label in a monospaced font too, whose word space is as wide as a letter', async () => {
    const [page] = table(
      [
        ['N.', 60],
        ['Descrizione articolo', 120],
        ['Quantità', 330, true],
        ['Prezzo', 400, true],
        ['Imponibile', 500, true],
      ],
      [
        [
          ['8000593202', 60],
          ['Canone di servizio A', 120],
          ['1', 330, true],
          ['17,24', 400, true],
          ['17,24', 500, true],
        ],
        [
          ['8000612340', 60],
          ['Canone di servizio B', 120],
          ['2', 330, true],
          ['5,21', 400, true],
          ['10,42', 500, true],
        ],
      ],
    );
    const rows = await rowsOf([page!.map((t) => ({ ...t, mono: true }))]);
    // "articolo" alone names an article number column: the letter under it would be read as one.
    expect(rows.map((r) => [r.name, r.quantity, r.amount])).toEqual([
      ['Canone di servizio A', '1', '17.24'],
      ['Canone di servizio B', '2', '10.42'],
    ]);
  });

  it('reads a Dutch table with "Aant.", "Prijs per eenheid" and "Totaal" set closely', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Nr.', 60],
          ['Omschrijving', 78],
          ['Aant.', 360, true],
          ['Prijs per eenheid', 450, true],
          ['Totaal', 500, true],
        ],
        [
          [
            ['1', 60],
            ['Bureaustoel', 78],
            ['4 st', 360, true],
            ['129,00', 450, true],
            ['516,00', 500, true],
          ],
          [
            ['2', 60],
            ['Montage', 78],
            ['2 uur', 360, true],
            ['45,00', 450, true],
            ['90,00', 500, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.position, r.name, r.quantity, r.unitPrice, r.amount])).toEqual([
      ['1', 'Bureaustoel', '4', '129.00', '516.00'],
      ['2', 'Montage', '2', '45.00', '90.00'],
    ]);
  });

  it('reads a corrected invoice with "Mge." and "Netto" columns and negative quantities, units beside the quantity', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Beschreibung', 60],
          ['Mge.', 440, true],
          ['Preis', 480, true],
          ['Netto', 520, true],
        ],
        [
          [
            ['Druckerpapier A4', 60],
            ['-3,00 Pck', 440, true],
            ['4,20', 480, true],
            ['-12,60', 520, true],
          ],
          [
            ['Toner schwarz', 60],
            ['-1,00 Stk', 440, true],
            ['39,90', 480, true],
            ['-39,90', 520, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.quantity, r.unit, r.unitPrice, r.amount])).toEqual([
      ['Druckerpapier A4', '-3.00', undefined, '4.20', '-12.60'],
      ['Toner schwarz', '-1.00', 'C62', '39.90', '-39.90'],
    ]);
  });
});

describe('labels qualified by the word before them, and prices stepped down under the item', () => {
  it('reads "Unit Price" and "Total Price" as one label each, "Item" over running numbers as the position, and the price after its discount', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Item', 76],
          ['Product', 103],
          ['Quantity', 298],
          ['Unit Price', 375],
          ['Tax', 453],
          ['Total Price', 505],
        ],
        [
          [
            ['1', 76],
            ['GG-SCRW-A4-01 - High-Grade Screws', 103],
            ['5 kg', 334, true],
            ['€20.00', 414, true],
            ['19%', 467, true],
            ['€90.00', 548, true],
          ],
          [['- €2.00', 414, true]],
          [['= €18.00', 414, true]],
          [
            ['2', 76],
            ['GG-BRKT-STD-05 - Standard Brackets', 103],
            ['9 kg', 334, true],
            ['€5.00', 414, true],
            ['19%', 467, true],
            ['€45.00', 548, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.position, r.itemId, r.name, r.quantity, r.unitPrice, r.amount])).toEqual([
      ['1', 'GG-SCRW-A4-01', 'High-Grade Screws', '5', '18.00', '90.00'],
      ['2', 'GG-BRKT-STD-05', 'Standard Brackets', '9', '5.00', '45.00'],
    ]);
  });
});

describe('running numbers under a header that names no position', () => {
  it('takes the number before an article code as the position ("Art." over "1", "Produit" over "GG-SCRW-A4-01 - High-Grade Screws")', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Art.', 76],
          ['Produit', 103],
          ['Quantité', 298],
          ['Prix unitaire', 375],
          ['Prix total', 505],
        ],
        [
          [
            ['1', 76],
            ['GG-SCRW-A4-01 - High-Grade Screws', 103],
            ['5 kg', 334, true],
            ['20,00 €', 414, true],
            ['100,00 €', 548, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.position, r.itemId, r.name])).toEqual([['1', 'GG-SCRW-A4-01', 'High-Grade Screws']]);
  });
});

describe('items printed as blocks of labelled values (the XRechnung visualisation)', () => {
  it('reads each block opened by "Position:" by its labels, two pairs to a line', async () => {
    const at = (s: string, x: number, y: number, right = false): Text => ({ s, x, y, size: 9, right });
    const block = (y: number, pos: string, name: string, qty: string, price: string, amount: string): Text[] => [
      at('Position:', 62, y),
      at(pos, 136, y),
      at('Preiseinzelheiten', 62, y + 30),
      at('Menge', 62, y + 46),
      at(qty, 300, y + 46, true),
      at('Einheit', 62, y + 58),
      at('HUR (hour)', 300, y + 58, true),
      at('Preis pro Einheit (netto)', 62, y + 72),
      at(price, 300, y + 72, true),
      at('Umsatzsteuer:', 329, y + 72),
      at('S (Standard rate)', 403, y + 72),
      at('Gesamtpreis (netto)', 62, y + 86),
      at(amount, 300, y + 86, true),
      at('Umsatzsteuersatz:', 329, y + 94),
      at('19,00%', 403, y + 94),
      at('Bezeichnung:', 62, y + 130),
      at(name, 136, y + 130),
    ];
    const page = [
      at('Rechnungspositionen', 57, 100),
      ...block(130, '1', 'Erbrachte Dienstleistungen', '1.0000', '99', '99,00'),
      ...block(300, '2', 'Beratung', '2.0000', '50', '100,00'),
      at('Nettobetrag', 62, 480),
      at('199,00', 300, 480, true),
    ];
    const doc = buildDoc(await extractTextLayer(await pdfOf([page])));
    const { rows, lineSum, lines } = keyValueItems(doc);
    // The totals line after the last item is no line of it: the totals reader keeps it.
    expect(lines.has(`1:${doc.pages[0]!.lines.at(-1)!.index}`)).toBe(false);
    expect(
      rows.map((r) => [r.position, r.name, r.quantity, r.unit, r.unitPrice, r.amount, r.vatRate, r.vatCategory, r.arithmetic]),
    ).toEqual([
      ['1', 'Erbrachte Dienstleistungen', '1.0000', 'HUR', '99', '99.00', '19', 'S', true],
      ['2', 'Beratung', '2.0000', 'HUR', '50', '100.00', '19', 'S', true],
    ]);
    expect(lineSum).toBe('199.00');
  });

  it('leaves a unit no code is read from for a person, and holds blocks none of which was read whole for printed items', async () => {
    const at = (s: string, x: number, y: number, right = false): Text => ({ s, x, y, size: 9, right });
    const block = (y: number, unit: string, amount: string[]): Text[] => [
      at('Position:', 62, y),
      at('1', 136, y),
      at('Menge', 62, y + 46),
      at('1.0000', 300, y + 46, true),
      at('Einheit', 62, y + 58),
      ...(unit ? [at(unit, 300, y + 58, true)] : []),
      ...(amount.length ? [at('Gesamtpreis (netto)', 62, y + 86), at(amount[0]!, 300, y + 86, true)] : []),
      at('Bezeichnung:', 62, y + 130),
      at('Beamer-Deckenhalterung', 136, y + 130),
    ];
    // A scan that lost the code of "H87 (piece)": the unit is printed, and "one" would be a guess.
    const misread = keyValueItems(buildDoc(await extractTextLayer(await pdfOf([block(130, '(piece', ['122,50'])]))));
    expect(misread.rows.map((r) => [r.unit, r.unitPrinted])).toEqual([[undefined, '(piece']]);
    // One that lost the unit's value beside its label ("KGM" read onto no line).
    const lost = keyValueItems(buildDoc(await extractTextLayer(await pdfOf([block(130, '', ['122,50'])]))));
    expect(lost.rows.map((r) => [r.unit, r.unitPrinted])).toEqual([[undefined, '']]);
    // A scan that lost every amount: no line is read, and none may be made up from the totals.
    const { unread } = analyseInvoice(await extractTextLayer(await pdfOf([block(130, 'H87 (piece)', [])])), { withLineItems: true });
    expect(unread).toContain('BG-25');
  });

  it('holds a unit a scan did not read for printed where the page prints units, and only on a scan', async () => {
    const at = (s: string, x: number, y: number, right = false): Text => ({ s, x, y, size: 9, right });
    // The block's unit row lost whole ("Einheit  H87 (piece)" read onto no line); "Preis pro Einheit" still names units.
    const page = [
      at('Position:', 62, 130),
      at('1', 136, 130),
      at('Menge', 62, 176),
      at('2.0000', 300, 176, true),
      at('Preis pro Einheit (netto)', 62, 202),
      at('5,00', 300, 202, true),
      at('Gesamtpreis (netto)', 62, 216),
      at('10,00', 300, 216, true),
      at('Bezeichnung:', 62, 260),
      at('Beamer-Deckenhalterung', 136, 260),
    ];
    const text = await extractTextLayer(await pdfOf([page]));
    const path = 'invoiceLine[0].invoicedQuantityUnitOfMeasureCode';
    expect(analyseInvoice(text, { withLineItems: true }).candidates?.[path]).toBeUndefined();
    const scan = text.map((p) => ({ ...p, source: 'ocr' as const, words: p.words.map((w) => ({ ...w, confidence: 0.95 })) }));
    expect(analyseInvoice(scan, { withLineItems: true }).candidates?.[path]).toEqual([]);
  });

  it('reads English blocks opened by "Identifier:" under the item\'s number, over a page break, though their labels pass for a table header', async () => {
    const at = (s: string, x: number, y: number, right = false): Text => ({ s, x, y, size: 9, right });
    const opening = (y: number, pos: string): Text[] => [at(pos, 62, y), at('Identifier:', 62, y + 14), at(pos, 136, y + 14)];
    const prices = (y: number, qty: string, price: string, amount: string): Text[] => [
      at('Price details', 62, y),
      at('Quantity', 62, y + 16),
      at(qty, 300, y + 16, true),
      at('Discount (net):', 329, y + 16),
      at('0,50', 430, y + 16),
      at('Unit', 62, y + 30),
      at('H87 (piece)', 300, y + 30, true),
      at('List price (net):', 329, y + 30),
      at('5', 430, y + 30),
      at('Price per unit (net)', 62, y + 44),
      at(price, 300, y + 44, true),
      at('VAT rate:', 329, y + 44),
      at('19.00%', 430, y + 44),
      at('Total price (net)', 62, y + 58),
      at(amount, 300, y + 58, true),
    ];
    const named = (y: number, name: string): Text[] => [at('Item information', 62, y), at('Name:', 62, y + 14), at(name, 136, y + 14)];
    const pages = [
      [at('Details', 57, 100), ...opening(130, '1'), ...prices(170, '2.0000', '4.5', '9.00'), ...named(250, 'Kabel'), ...opening(700, '2')],
      [...prices(80, '1.0000', '12', '12.00'), ...named(160, 'Stecker')],
    ];
    const doc = buildDoc(await extractTextLayer(await pdfOf(pages)));
    expect(keyValueItems(doc).rows.map((r) => [r.position, r.name, r.quantity, r.unitPrice, r.amount])).toEqual([
      ['1', 'Kabel', '2.0000', '4.5', '9.00'],
      ['2', 'Stecker', '1.0000', '12', '12.00'],
    ]);
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf(pages)), { withLineItems: true });
    expect(invoice.invoiceLine?.map((l) => [l.itemInformation.itemName, l.invoiceLineNetAmount])).toEqual([
      ['Kabel', '9.00'],
      ['Stecker', '12.00'],
    ]);
  });
});

describe('a price for more than one unit', () => {
  it('takes the quantity printed with the item as the price base where quantity × price ÷ base is the amount, and only there', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Pos', 60],
          ['Bezeichnung', 90],
          ['Menge', 330, true],
          ['Preis', 420, true],
          ['Gesamt', 520, true],
        ],
        [
          [
            ['1', 60],
            ['Schrauben (3 kg)', 90],
            ['9 kg', 330, true],
            ['15,00', 420, true],
            ['45,00', 520, true],
          ],
          [
            ['2', 60],
            ['Dübel (5 kg)', 90],
            ['9 kg', 330, true],
            ['15,00', 420, true],
            ['45,00', 520, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.priceBase, r.priceBaseUnit, r.arithmetic])).toEqual([
      ['3', 'KGM', true],
      [undefined, undefined, false],
    ]);
  });
});

describe('a column of references under a header the reader does not know', () => {
  it('goes on with a name on the line where a reference stands left of it, as where none does', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Pos', 60],
          ['Referenzen', 90],
          ['Beschreibung', 190],
          ['Nettopreis', 330, true],
          ['Menge', 380, true],
          ['Betrag', 520, true],
        ],
        [
          [
            ['1', 60],
            ['FALTENBEUTEL 16x6x28', 190],
            ['0,0105', 330, true],
            ['3.500 Stk', 380, true],
            ['36,75', 520, true],
          ],
          [
            ['2001015001325', 90],
            ['CM', 190],
          ],
          [
            ['2', 60],
            ['Kommissionierer Lager', 190],
            ['10,5000', 330, true],
            ['28 Std', 380, true],
            ['294,00', 520, true],
          ],
          [
            ['4260331811362', 90],
            ['1250032 D. Muster', 190],
          ],
        ],
      ),
    );
    expect(rows.map((r) => r.name)).toEqual(['FALTENBEUTEL 16x6x28 CM', 'Kommissionierer Lager 1250032 D. Muster']);
  });
});

/** Position, product, quantity, price and total, as the price-base layouts print them. */
const productHeader: Cell[] = [
  ['Pos', 60],
  ['Product', 90],
  ['Quantity', 330, true],
  ['Price', 420, true],
  ['Total', 520, true],
];

describe('a price base printed after the name', () => {
  it('ends the name at its price base, over the lines a wide column broke it into, and leaves the base out of it', async () => {
    const rows = await rowsOf(
      table(productHeader, [
        [
          ['1', 60],
          ['Premium Schrauben (1 kg)', 90],
          ['5 kg', 330, true],
          ['20.00', 420, true],
          ['100.00', 520, true],
        ],
        [
          ['2', 60],
          ['Standard Mounting', 90],
          ['9 kg', 330, true],
          ['15.00', 420, true],
          ['45.00', 520, true],
        ],
        [['Brackets (3 kg)', 90]],
        [
          ['3', 60],
          ['Kabelrolle (50 m)', 90],
          ['2 Stk', 330, true],
          ['30.00', 420, true],
          ['60.00', 520, true],
        ],
      ]),
    );
    expect(rows.map((r) => [r.name, r.description, r.priceBase, r.nameSet])).toEqual([
      ['Premium Schrauben', undefined, undefined, 'alone'],
      ['Standard Mounting Brackets', undefined, '3', 'joined'],
      // Fifty metres is what a piece holds, not what the price is for.
      ['Kabelrolle (50 m)', undefined, undefined, 'alone'],
    ]);
  });

  it("leaves such a name open where the line's arithmetic does not tell whether it is the price's base", async () => {
    const rows = await rowsOf(
      table(productHeader, [
        [
          ['1', 60],
          ['Premium Schrauben (1 kg)', 90],
          ['5 kg', 330, true],
          ['20.00', 420, true],
          ['90.00', 520, true],
        ],
      ]),
    );
    expect(rows.map((r) => [r.name, r.nameSet, r.nameAlternatives])).toEqual([['Premium Schrauben (1 kg)', 'open', ['Premium Schrauben']]]);
  });
});

describe('a name that runs on under the next column header', () => {
  it('keeps the words set at its own word spacing in the name, though they stand under the quantity header', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Artikelbezeichnung', 60],
          ['Menge', 150],
          ['Preis', 420, true],
          ['Gesamt', 520, true],
        ],
        [
          [
            ['Mischpalette Joghurt Karton 3 x 20', 60],
            ['2', 250, true],
            ['29,10', 420, true],
            ['58,20', 520, true],
          ],
          [
            ['Kommissionierer 1250032 D. Muster', 60],
            ['27,5', 250, true],
            ['10,50', 420, true],
            ['288,75', 520, true],
          ],
          [
            ['Transport', 60],
            ['1', 250, true],
            ['25,00', 420, true],
            ['25,00', 520, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.quantity])).toEqual([
      ['Mischpalette Joghurt Karton 3 x 20', '2'],
      ['Kommissionierer 1250032 D. Muster', '27.5'],
      ['Transport', '1'],
    ]);
  });
});

describe('a name whose next line prints figures', () => {
  it('leaves a name open under a line of its words that runs on into the columns of figures', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Description', 60],
          ['Qty', 300, true],
          ['Price', 380, true],
          ['Amount', 460, true],
        ],
        [
          [
            ['APX-001 - Industrial', 60],
            ['5', 300, true],
            ['20,00', 380, true],
            ['90,00', 460, true],
          ],
          [
            ['Grade Fasteners (1 kg)', 60],
            ['- 1,00', 380, true],
          ],
          [
            ['Premium Filter Cartridges', 60],
            ['2', 300, true],
            ['15,00', 380, true],
            ['30,00', 460, true],
          ],
        ],
        [],
        11,
      ),
    );
    expect(rows.map((r) => [r.name, r.nameSet, r.nameAlternatives])).toEqual([
      ['Industrial', 'open', ['Industrial Grade Fasteners (1 kg)']],
      ['Premium Filter Cartridges', 'alone', undefined],
    ]);
  });
});

describe('a name that is an article number', () => {
  it('leaves open a name read from an article number line alone: the name itself stands elsewhere', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Description', 60],
          ['Qty', 300, true],
          ['Price', 380, true],
          ['Amount', 460, true],
        ],
        [
          [
            ['GTIN 4012345001235', 60],
            ['20', 300, true],
            ['9,90', 380, true],
            ['198,00', 460, true],
          ],
          [
            ['Ordner A4', 60],
            ['4', 300, true],
            ['2,50', 380, true],
            ['10,00', 460, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => r.nameSet)).toEqual(['open', 'alone']);
  });

  it('leaves open a name printed after article numbers, with the words after them as the other candidate', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Beschreibung', 60],
          ['Menge', 300, true],
          ['Preis', 380, true],
          ['Betrag', 460, true],
        ],
        [
          [
            ['GTIN 4123456000014 Zitronensäure', 60],
            ['5', 300, true],
            ['1,00', 380, true],
            ['5,00', 460, true],
          ],
          [
            ['Ordner A4', 60],
            ['4', 300, true],
            ['2,50', 380, true],
            ['10,00', 460, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.nameSet, r.nameAlternatives?.[0]])).toEqual([
      ['GTIN 4123456000014 Zitronensäure', 'open', 'Zitronensäure'],
      ['Ordner A4', 'alone', undefined],
    ]);
  });
});

describe('an amount printed a little below its row', () => {
  it('takes the amount from the line below where quantity × price comes to it, and only there', async () => {
    const header: Cell[] = [
      ['Pos', 60],
      ['Beschreibung', 150],
      ['Nettopreis', 375, true],
      ['Menge', 423, true],
      ['Steuersatz', 471, true],
      ['Nettobetrag', 534, true],
    ];
    const item = (pos: string, name: string, price: string, qty: string, amount: string): Cell[][] => [
      [
        [pos, 60],
        [name, 150],
        [price, 375, true],
        [qty, 423, true],
        ['19 %', 471, true],
      ],
      [
        ['4012345001235', 90],
        [amount, 534, true],
      ],
    ];
    const rows = await rowsOf(
      table(header, [...item('1', 'Trennblätter A4', '9,9000', '20 Stk', '198,00'), ...item('2', 'Ordner', '2,5000', '4 Stk', '10,00')]),
    );
    expect(rows.map((r) => [r.position, r.name, r.quantity, r.unitPrice, r.amount])).toEqual([
      ['1', 'Trennblätter A4', '20', '9.9000', '198.00'],
      ['2', 'Ordner', '4', '2.5000', '10.00'],
    ]);
    const off = await rowsOf(table(header, item('1', 'Trennblätter A4', '9,9000', '20 Stk', '199,00')));
    expect(off.map((r) => r.amount)).not.toContain('199.00');
  });

  it("never takes a total set right under a line with a number in the quantity column as that line's amount", async () => {
    const header: Cell[] = [
      ['Beschreibung', 60],
      ['Menge', 330, true],
      ['Preis', 420, true],
      ['Gesamt', 520, true],
    ];
    const rows = await rowsOf(
      table(header, [
        [
          ['Beratung', 60],
          ['3', 330, true],
          ['45,00', 420, true],
          ['135,00', 520, true],
        ],
        [
          ['Leistungszeitraum: Januar', 60],
          ['1.', 330, true],
        ],
        [
          ['Gesamtbetrag Netto', 60],
          ['135,00', 520, true],
        ],
      ]),
    );
    expect(rows.map((r) => [r.name, r.amount])).toEqual([['Beratung', '135.00']]);
  });
});

describe('cells of neighbouring columns', () => {
  it('never reads two numbers a column gap apart as one space-grouped number, while "4 743,75" stays one', async () => {
    // The quantity column's header names no kind the reader knows ("Hrs"): its numbers fall into the price column's band.
    const rows = await rowsOf(
      table(
        [
          ['Item', 60],
          ['Hrs', 380, true],
          ['Rate', 440, true],
          ['Amount', 520, true],
        ],
        [
          [
            ['Consulting', 60],
            ['33', 380, true],
            ['143,75', 440, true],
            ['4 743,75', 520, true],
          ],
          [
            ['Travel', 60],
            ['12', 380, true],
            ['12,50', 440, true],
            ['150,00', 520, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.quantity, r.unitPrice, r.amount])).toEqual([
      ['Consulting', '33', '143.75', '4743.75'],
      ['Travel', '12', '12.50', '150.00'],
    ]);
  });

  it('reads a quantity with its unit and the price beside it as two values, when they share one column', async () => {
    // The title above the header ("… No. …") joins "Qty Unit" and "Price" into one column: "-120 h" and "85.00 €" both fall into it, a unit between the numbers.
    const item = (pos: string, name: string, qty: string, price: string, amount: string): Cell[] => [
      [pos, 64],
      [name, 79],
      [qty, 276],
      [price, 379, true],
      ['0 % AE', 393],
      ['0.00 €', 468, true],
      [amount, 535, true],
    ];
    const rows = await rowsOf(
      table(
        [
          ['#', 64],
          ['Description', 79],
          ['Qty Unit', 278],
          ['Price', 339],
          ['Tax', 415],
          ['Amount', 484],
        ],
        [item('1', 'Design', '-120 h', '85.00 €', '-10,200.00 €'), item('2', 'Penetration test', '-11 h', '195.00 €', '-2,145.00 €')],
        [
          { s: 'Corrected invoice No. 1234567890', x: 185, y: -68, size: 11 },
          { s: 'for invoice No. 1234567889 from 12 Sep 2024', x: 200, y: -56, size: 9 },
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.quantity, r.unit, r.unitPrice, r.amount, r.arithmetic])).toEqual([
      ['Design', '-120', 'HUR', '85.00', '-10200.00', true],
      ['Penetration test', '-11', 'HUR', '195.00', '-2145.00', true],
    ]);
  });

  it('keeps a space-grouped amount wider than its column one number, though its first group stands nearer the price column', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Libellé', 60],
          ['Qté', 330, true],
          ['P.U. HT', 420, true],
          ['Total HT', 540, true],
        ],
        [
          [
            ['Véhicule classe Z', 60],
            ['30', 330, true],
            ['158 125,00 EUR', 420, true],
            ['4 743 750,00 EUR', 540, true],
          ],
        ],
        [],
        11,
      ),
    );
    expect(rows.map((r) => [r.name, r.quantity, r.unitPrice, r.amount])).toEqual([['Véhicule classe Z', '30', '158125.00', '4743750.00']]);
  });
});

describe('names as printed', () => {
  const header: Cell[] = [
    ['Description', 60],
    ['Qty', 300, true],
    ['Price', 380, true],
    ['Amount', 460, true],
  ];

  it('keeps a percentage in a name as printed ("Transport 25 %"), while a rate cell "19 %" is still a rate', async () => {
    const rows = await rowsOf(
      table(
        [...header, ['VAT', 520, true]],
        [
          [
            ['Transport 25 %', 60],
            ['1', 300, true],
            ['400.00', 380, true],
            ['400.00', 460, true],
            ['19 %', 520, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.vatRate])).toEqual([['Transport 25 %', '19']]);
  });

  it('ends a name at the colon that announces its description on the line below', async () => {
    const narrow: Cell[] = [
      ['Description', 60],
      ['Qty', 240, true],
      ['Price', 380, true],
      ['Amount', 460, true],
    ];
    const rows = await rowsOf(
      table(narrow, [
        [
          ['Wartung Heizungsanlage pro:', 60],
          ['2', 240, true],
          ['75.00', 380, true],
          ['150.00', 460, true],
        ],
        [['Stunde, inkl. Anfahrt', 60]],
      ]),
    );
    expect(rows.map((r) => [r.name, r.description])).toEqual([['Wartung Heizungsanlage pro', 'Stunde, inkl. Anfahrt']]);
  });

  it('goes on with a name on a line that opens with a parenthesis, up to its colon, in a column wide enough for both', async () => {
    // Set at the line spacing, as 11-point text on 14-point lines.
    const rows = await rowsOf(
      table(
        header,
        [
          [
            ['Künstlerische Gestaltung', 60],
            ['1', 300, true],
            ['160.00', 380, true],
            ['160.00', 460, true],
          ],
          [['(Stunde): Einer', 60]],
          [['Beispielrechnung', 60]],
          [
            ['Luftballon', 60],
            ['400', 300, true],
            ['0.79', 380, true],
            ['316.00', 460, true],
          ],
          [['Bunt, ca. 500ml', 60]],
        ],
        [],
        11,
      ),
    );
    expect(rows.map((r) => [r.name, r.description, r.nameSet])).toEqual([
      ['Künstlerische Gestaltung (Stunde)', 'Einer\nBeispielrechnung', 'colon'],
      // A line set like the name's own under it may be either: open, for a person to confirm.
      ['Luftballon', 'Bunt, ca. 500ml', 'open'],
    ]);
  });

  it('goes on with a name on the lines below while the line above had no room for their first word, but not with a "label: value" note', async () => {
    const narrow: Cell[] = [
      ['Description', 60],
      ['Qty', 240, true],
      ['Price', 380, true],
      ['Amount', 460, true],
    ];
    const rows = await rowsOf(
      table(narrow, [
        [
          ['Paketierung der Anwendung Kofax 10.2 für', 60],
          ['1', 240, true],
          ['980.00', 380, true],
          ['980.00', 460, true],
        ],
        [['180 Geräte und Notebooks', 60]],
        [
          ['Installation und Konfiguration aller neuen', 60],
          ['2', 240, true],
          ['120.00', 380, true],
          ['240.00', 460, true],
        ],
        [['Arbeitsplätze im Rechenzentrum', 60]],
        [
          ['Schulung', 60],
          ['1', 240, true],
          ['300.00', 380, true],
          ['300.00', 460, true],
        ],
        [['Termin: 12.03.2024', 60]],
      ]),
    );
    expect(rows.map((r) => [r.name, r.description])).toEqual([
      ['Paketierung der Anwendung Kofax 10.2 für 180 Geräte und Notebooks', undefined],
      ['Installation und Konfiguration aller neuen Arbeitsplätze im Rechenzentrum', undefined],
      ['Schulung', 'Termin: 12.03.2024'],
    ]);
  });

  it('joins a name a narrow column broke over several lines, a hyphenated word without a space, and stops at a line that had room', async () => {
    // As the ZUGFeRD "readable rendering" stylesheets print items: a narrow name column, the price column close beside it.
    const narrow: Cell[] = [
      ['Beschreibung', 60],
      ['Nettopreis', 170, true],
      ['Menge', 220, true],
      ['Entgelt', 300, true],
    ];
    const rows = await rowsOf(
      table(narrow, [
        [
          ['Kfz-', 60],
          ['67,22', 170, true],
          ['1 Stk', 220, true],
          ['67,22', 300, true],
        ],
        [['Haftpflicht', 60]],
        [['Regio R9', 60]],
        [
          ['Trennblätter', 60],
          ['9,90', 170, true],
          ['20 Stk', 220, true],
          ['198,00', 300, true],
        ],
        [['A4', 60]],
        [
          ['Joghurt', 60],
          ['5,50', 170, true],
          ['50 Stk', 220, true],
          ['275,00', 300, true],
        ],
        [['Banane', 60]],
      ]),
    );
    expect(rows.map((r) => r.name)).toEqual(['Kfz-Haftpflicht Regio R9', 'Trennblätter A4', 'Joghurt Banane']);
    // What a person may confirm instead, should the lines joined be a description after all.
    expect(rows.map((r) => [r.nameSet, r.nameAlternatives])).toEqual([
      ['joined', ['Kfz-']],
      ['joined', ['Trennblätter']],
      ['joined', ['Joghurt']],
    ]);
  });

  it("keeps the dash that opens a name's next line, though its edge touches the article number column", async () => {
    const stacked: Cell[] = [
      ['Art-Nr', 20],
      ['Beschreibung', 80],
      ['Nettopreis', 190, true],
      ['Entgelt', 260, true],
    ];
    const rows = await rowsOf(
      table(stacked, [
        [
          ['Navigationssystem', 45],
          ['5,04', 190, true],
          ['10,08', 260, true],
        ],
        [['- Garantie', 45]],
      ]),
    );
    expect(rows.map((r) => [r.name, r.description])).toEqual([['Navigationssystem - Garantie', undefined]]);
  });

  it('goes on with a name whose next line prints an amount within its words, but ends the item at a labelled amount', async () => {
    const narrow: Cell[] = [
      ['Beschreibung', 60],
      ['Nettopreis', 240, true],
      ['Menge', 290, true],
      ['Entgelt', 350, true],
    ];
    // The name's second line set at the line spacing right under it, as the ZUGFeRD stylesheets do.
    const rows = await rowsOf(
      table(
        narrow,
        [
          [
            ['Wartezeit je angefangene Minute', 60],
            ['0,50', 240, true],
            ['4 min', 290, true],
            ['2,00', 350, true],
          ],
          [
            ['Stadtfahrt -', 60],
            ['2,00', 240, true],
            ['6 km', 290, true],
            ['12,00', 350, true],
          ],
        ],
        [
          { s: '2,00 Euro je Kilometer', x: 60, y: -4, size: 8 },
          { s: 'Bruttopreis : 2,00', x: 70, y: 6, size: 8 },
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.description])).toEqual([
      ['Wartezeit je angefangene Minute', undefined],
      ['Stadtfahrt - 2,00 Euro je Kilometer', undefined],
    ]);
  });

  it('keeps the lines under a name in a column far wider than its text as the description: nothing there was broken', async () => {
    const wide: Cell[] = [
      ['Beschreibung', 60],
      ['Menge', 400, true],
      ['Preis', 460, true],
      ['Betrag', 530, true],
    ];
    const rows = await rowsOf(
      table(wide, [
        [
          ['Small Business StandardExchange 2010', 60],
          ['1', 400, true],
          ['3,89', 460, true],
          ['3,89', 530, true],
        ],
        [['Grundgebühr pro Einheit', 60]],
        [
          ['Small Business QualityExchange 2010', 60],
          ['1', 400, true],
          ['5,39', 460, true],
          ['5,39', 530, true],
        ],
        [['Grundgebühr pro Einheit', 60]],
      ]),
    );
    expect(rows.map((r) => [r.name, r.description])).toEqual([
      ['Small Business StandardExchange 2010', 'Grundgebühr pro Einheit'],
      ['Small Business QualityExchange 2010', 'Grundgebühr pro Einheit'],
    ]);
  });
});

describe('rows that are not items', () => {
  const header: Cell[] = [
    ['Description', 60],
    ['Qty', 380, true],
    ['Price', 440, true],
    ['Amount', 520, true],
  ];
  const items: Cell[][] = [
    [
      ['Desk lamp', 60],
      ['2', 380, true],
      ['40.00', 440, true],
      ['80.00', 520, true],
    ],
    [
      ['Shelf', 60],
      ['1', 380, true],
      ['120.00', 440, true],
      ['120.00', 520, true],
    ],
  ];

  it('ends the items at a Dutch VAT table ("Tarief  Grondslag  Btw  Bruto") set right under them', async () => {
    const breakdown: Text[] = [
      { s: 'Btw-specificatie', x: 200, y: 6, bold: true },
      ...(
        [
          ['Tarief', 'Grondslag', 'Btw', 'Bruto'],
          ['7%', '40,00', '2,80', '42,80'],
          ['19%', '160,00', '30,40', '190,40'],
          ['Totaal', '200,00', '33,20', '233,20'],
        ] as const
      ).flatMap((row, r) => row.map((s, c) => ({ s, x: c === 0 ? 200 : 300 + 75 * c, y: 20 + 12 * r, right: c > 0 }))),
    ];
    const rows = await rowsOf(table(header, items, breakdown));
    expect(rows.map((r) => [r.name, r.amount])).toEqual([
      ['Desk lamp', '80.00'],
      ['Shelf', '120.00'],
    ]);
  });

  it('reads on past a labelled note under an item whose value names columns ("Product Identification:  GTIN - Global Trade Item Number: …")', async () => {
    const item = (n: string, name: string, qty: string, price: string, amount: string): Cell[] => [
      [n, 60],
      [name, 80],
      [qty, 285, true],
      [price, 351, true],
      ['19%', 482, true],
      [amount, 548, true],
    ];
    const rows = await rowsOf(
      table(
        [
          ['Item Product', 60],
          ['Quantity', 285, true],
          ['Unit Price', 351, true],
          ['Tax', 482, true],
          ['Total Price', 548, true],
        ],
        [
          item('1', 'Industrial Fasteners', '5 kg', '€18.00', '€90.00'),
          [
            ['Product Identification:', 80],
            ['GTIN - Global Trade Item Number:', 195],
            // Its own run of text, a word space after the label (122 points wide), as wide as the line under it.
            ['GTIN01234567890123', 319],
          ],
          [['Buyer Product ID: TECH-REQ-789', 195]],
          item('2', 'Filter Cartridges', '2 kg', '€22.50', '€45.00'),
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.amount])).toEqual([
      ['Industrial Fasteners', '90.00'],
      ['Filter Cartridges', '45.00'],
    ]);
  });

  it('ends the items at a row whose amount is their sum, whatever its label, and reads no totals row as an item', async () => {
    const totals: Text[] = [
      { s: 'Sum of lines', x: 300, y: 10 },
      { s: '200.00', x: 520, y: 10, right: true },
      { s: 'Freight', x: 300, y: 22 },
      { s: '15.00', x: 520, y: 22, right: true },
      { s: 'Amount due', x: 300, y: 34 },
      { s: '253.70', x: 520, y: 34, right: true },
    ];
    const table1 = findLineItems(buildDoc(await extractTextLayer(await pdfOf(table(header, items, totals)))));
    expect(table1.rows.map((r) => [r.name, r.amount])).toEqual([
      ['Desk lamp', '80.00'],
      ['Shelf', '120.00'],
    ]);
    expect(table1.lineSum).toBe('200.00');
  });

  it('ends the items at a row labelled as their total whose amount is their sum, and reads the adjustments and VAT rows under it as no items', async () => {
    const rows: Cell[][] = [
      ...items,
      [
        ['Totaal regels', 60],
        ['200.00', 520, true],
      ],
      [
        ['Afslag', 60],
        ['-10.00', 520, true],
      ],
      [
        ['Toeslag', 60],
        ['5.00', 520, true],
      ],
      [
        ['Btw 19%', 60],
        ['37.05', 520, true],
      ],
    ];
    const read = findLineItems(buildDoc(await extractTextLayer(await pdfOf(table(header, rows)))));
    expect(read.rows.map((r) => r.name)).toEqual(['Desk lamp', 'Shelf']);
    expect(read.lineSum).toBe('200.00');
  });

  it('leaves out charges set under an item when the items without them add up to the printed total', async () => {
    const withCharge: Cell[][] = [
      items[0]!,
      [
        ['Assembly', 70],
        ['10.00', 520, true],
      ],
      items[1]!,
    ];
    const totals: Text[] = [
      { s: 'Total excl. VAT', x: 300, y: 10 },
      { s: '200.00', x: 520, y: 10, right: true },
    ];
    const read = findLineItems(buildDoc(await extractTextLayer(await pdfOf(table(header, withCharge, totals)))));
    expect(read.rows.map((r) => r.name)).toEqual(['Desk lamp', 'Shelf']);
    expect(read.lineSum).toBe('200.00');
  });

  it('reads rows without a table header where some rows print their price apart too: the amounts are counted from the right', async () => {
    const rows: Cell[][] = [
      [
        ['Nougat 250g 8 unit(s)', 60],
        ['4.55 € 10 %', 330],
        ['32.76', 540, true],
      ],
      [
        ['Biscuits 300g 20 unit(s)', 60],
        ['3.20 €', 380, true],
        ['64.00', 540, true],
      ],
      [
        ['Olive oil 100 litre(s)', 60],
        ['19.80 €', 380, true],
        ['1980.00', 540, true],
      ],
      [
        ['Total', 60],
        ['2076.76', 540, true],
      ],
    ];
    const read = findLineItems(buildDoc(await extractTextLayer(await pdfOf(table([], rows)))));
    expect(read.rows.map((r) => r.amount)).toEqual(['32.76', '64.00', '1980.00']);
    expect(read.lineSum).toBe('2076.76');
  });

  it("reads rows without a table header that print net, VAT and gross amounts: the net one is the item's, the numbers are not its name", async () => {
    const rows: Cell[][] = [
      [
        ['Subscriptions and options', 60],
        ['24.99', 380, true],
        ['5.00', 460, true],
        ['29.99', 540, true],
      ],
      [
        ['Calls', 60],
        ['0.00', 380, true],
        ['0.00', 460, true],
        ['0.00', 540, true],
      ],
      [
        ['Total', 60],
        ['24.99', 380, true],
        ['5.00', 460, true],
        ['29.99', 540, true],
      ],
    ];
    const read = findLineItems(buildDoc(await extractTextLayer(await pdfOf(table([], rows)))));
    expect(read.rows.map((r) => [r.name, r.amount])).toEqual([
      ['Subscriptions and options', '24.99'],
      ['Calls', '0.00'],
    ]);
    expect(read.lineSum).toBe('24.99');
  });
});

describe('a name that starts left of its header', () => {
  it('opens the name with a short word set under the end of the article number header ("TGA" / "Obermonteur/Monteur")', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Pos', 50],
          ['Art-Nr-Kunde', 81],
          ['Beschreibung', 151],
          ['Nettopreis', 300, true],
          ['Menge', 380, true],
          ['Entgelt', 460, true],
        ],
        [
          [
            ['1', 50],
            ['TGA', 135],
            ['43,20', 300, true],
            ['3 Std', 380, true],
            ['129,60', 460, true],
          ],
          [['Obermonteur/Monteur', 135]],
          [
            ['2', 50],
            ['AB-77', 81],
            ['Beamer-Deckenhalterung', 151],
            ['122,50', 300, true],
            ['1 Stk', 380, true],
            ['122,50', 460, true],
          ],
        ],
        [],
        10,
      ),
    );
    expect(rows.map((r) => [r.name, r.itemId])).toEqual([
      ['TGA Obermonteur/Monteur', undefined],
      ['Beamer-Deckenhalterung', 'AB-77'],
    ]);
  });
});

describe('a name whose cell may hold more than was read', () => {
  const header: Text[] = [
    { s: 'Pos', x: 50, y: 200, bold: true },
    { s: 'Beschreibung', x: 150, y: 200, bold: true },
    { s: 'Nettopreis', x: 300, y: 200, bold: true, right: true },
    { s: 'Menge', x: 380, y: 200, bold: true, right: true },
    { s: 'Nettobetrag', x: 500, y: 200, bold: true, right: true },
  ];
  const row = (y: number, pos: string, name: string, price: string, qty: string, amount?: string): Text[] => [
    { s: pos, x: 50, y },
    { s: name, x: 150, y },
    { s: price, x: 300, y, right: true },
    { s: qty, x: 380, y, right: true },
    ...(amount ? [{ s: amount, x: 500, y, right: true }] : []),
  ];
  const letterhead: Text[] = [{ s: 'Versicherung Muster AG', x: 50, y: 50, size: 12, bold: true }];

  it('goes on with the lines set flush under it at the top of the next page, for a person to confirm ("Kfz-" / "Haftpflicht")', async () => {
    const pages = (top: Text[]): Text[][] => [
      [...letterhead, ...header, ...row(220, '1', 'Vollkasko', '117,65', '1', '117,65'), ...row(800, '2', 'Kfz-', '67,22', '1', '67,22')],
      [...top, ...row(110, '3', 'Schutzbrief', '10,00', '1', '10,00')],
    ];
    const broken = await rowsOf(
      pages([
        { s: 'Haftpflicht', x: 150, y: 60 },
        { s: 'SF25 (30 %)', x: 150, y: 72 },
      ]),
    );
    expect(broken.map((r) => [r.name, r.nameSet, r.nameAlternatives])).toEqual([
      ['Vollkasko', 'alone', undefined],
      ['Kfz-Haftpflicht SF25 (30 %)', 'open', ['Kfz-']],
      ['Schutzbrief', 'alone', undefined],
    ]);
    // A line at the top of the page that is not set under the name (a running head) ends it.
    const head = await rowsOf(pages([{ s: 'Seite 2 von 2 zur Rechnung 4711', x: 60, y: 60 }]));
    expect(head.map((r) => [r.name, r.nameSet])).toEqual([
      ['Vollkasko', 'alone'],
      ['Kfz-', 'alone'],
      ['Schutzbrief', 'alone'],
    ]);
  });

  it('is left open where the line above printed the quantity and price but no amount', async () => {
    const rows = await rowsOf([
      [
        ...letterhead,
        ...header,
        ...row(220, '1', 'Kfz-Haftpflicht SF25', '67,2244', '1'),
        { s: 'Regio R9', x: 150, y: 230 },
        { s: '80,00', x: 500, y: 230, right: true },
      ],
    ]);
    expect(rows.map((r) => [r.name, r.nameSet])).toEqual([['Regio R9', 'open']]);
  });
});

describe('a unit word no code is known for', () => {
  it('is kept as printed, not read as no unit ("1 Monat(" cut from "Monat(e)")', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Bezeichnung', 60],
          ['Menge Einheit', 330, true],
          ['Einzelpreis', 420, true],
          ['Betrag', 500, true],
        ],
        [
          [
            ['Fernwartung', 60],
            ['1 Monat(', 330, true],
            ['149,00', 420, true],
            ['149,00', 500, true],
          ],
          [
            ['Reinigung', 60],
            ['6 Std.', 330, true],
            ['58,00', 420, true],
            ['348,00', 500, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.unit, r.unitPrinted])).toEqual([
      ['Fernwartung', undefined, 'Monat('],
      ['Reinigung', 'HUR', undefined],
    ]);
  });
});

describe('a table that prints no unit', () => {
  it('takes the unit the name of the item gives ("(Stunde)", "pro Liter") and leaves the others unread, not "one"', async () => {
    const pages = table(
      [
        ['Menge', 60],
        ['Produkt', 120],
        ['Einzelpreis', 420, true],
        ['Summe', 500, true],
      ],
      [
        [
          ['1,00', 60],
          ['Künstlerische Gestaltung (Stunde)', 120],
          ['160,00', 420, true],
          ['160,00', 500, true],
        ],
        [
          ['200,00', 60],
          ['Heiße Luft pro Liter', 120],
          ['0,10', 420, true],
          ['20,00', 500, true],
        ],
        [
          ['3,00', 60],
          ['Schrauben (1 kg)', 120],
          ['9,00', 420, true],
          ['27,00', 500, true],
        ],
      ],
    );
    const { invoice } = analyseInvoice(await extractTextLayer(await pdfOf(pages)), { withLineItems: true });
    expect(invoice.invoiceLine?.map((l) => [l.itemInformation.itemName, l.invoicedQuantityUnitOfMeasureCode])).toEqual([
      ['Künstlerische Gestaltung (Stunde)', 'HUR'],
      ['Heiße Luft pro Liter', 'LTR'],
      ['Schrauben (1 kg)', undefined],
    ]);
  });
});

describe('a name with a comma before a number', () => {
  it('keeps its words as printed ("A4, 80 g/m²" is no number cut after its decimal mark)', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Bezeichnung', 60],
          ['Menge', 330, true],
          ['Einzelpreis', 420, true],
          ['Betrag', 500, true],
        ],
        [
          [
            ['Kopierpapier A4, 80 g/m², 500 Blatt', 60],
            ['20', 330, true],
            ['4,79', 420, true],
            ['95,80', 500, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => r.name)).toEqual(['Kopierpapier A4, 80 g/m², 500 Blatt']);
  });
});

describe('a price for a hundred pieces', () => {
  it('reads the price base the amount bears out, and the name line beside the note of it ("je Packung" beside "je 100 Stk.")', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Bezeichnung', 60],
          ['Menge', 280, true],
          ['Einzelpreis', 380, true],
          ['Betrag', 460, true],
        ],
        [
          [
            ['Briefumschläge DIN lang, 100 Stück', 60],
            ['2.500 Stk.', 280, true],
            ['3,80', 380, true],
            ['95,00', 460, true],
          ],
          [
            ['je Packung', 60],
            ['je 100 Stk.', 380, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.quantity, r.unitPrice, r.priceBase, r.amount])).toEqual([
      ['Briefumschläge DIN lang, 100 Stück je Packung', '2500', '3.80', '100', '95.00'],
    ]);
  });
});

describe('a name over lines of its own cell, in a table that prints descriptions apart (the AWV stylesheet)', () => {
  const header: Text[] = [
    { s: 'Pos', x: 50, y: 200, bold: true },
    { s: 'Beschreibung', x: 110, y: 200, bold: true },
    { s: 'Nettopreis', x: 250, y: 200, bold: true, right: true },
    { s: 'Menge', x: 330, y: 200, bold: true, right: true },
    { s: 'Entgelt', x: 500, y: 200, bold: true, right: true },
  ];
  const item = (y: number, name: string, price: string, qty: string, amount: string): Text[] => [
    { s: name, x: 110, y },
    { s: price, x: 250, y, right: true },
    { s: qty, x: 330, y, right: true },
    { s: amount, x: 500, y, right: true },
  ];
  /** An item over its article numbers and, where given, a description; then one whose name has a line of its own ("Pfand" / "Mehrweg"). */
  const pages = (description: (y: number) => Text[]): Text[][] => [
    [
      { s: 'Lieferant GmbH', x: 50, y: 50, size: 12, bold: true },
      ...header,
      ...item(220, 'Mineralwasser Medium', '5,49', '20', '109,80'),
      { s: 'GTRWA5', x: 50, y: 230 },
      { s: '4000001234561', x: 50, y: 240 },
      ...description(252),
      ...item(290, 'Pfand', '2,77', '20', '55,40'),
      { s: 'PFA5', x: 50, y: 300 },
      { s: 'Mehrweg', x: 110, y: 300 },
      { s: '4000001234578', x: 50, y: 310 },
    ],
  ];

  it('joins a line at the name\'s spacing to it where a description stands apart, under the article numbers ("Pfand" / "Mehrweg")', async () => {
    const rows = await rowsOf(pages((y) => [{ s: 'Aus regionaler Quelle', x: 110, y }]));
    expect(rows.map((r) => [r.name, r.description, r.nameSet])).toEqual([
      ['Mineralwasser Medium', 'Aus regionaler Quelle', 'described'],
      ['Pfand Mehrweg', undefined, 'cell'],
    ]);
  });

  it('leaves it a guess where no description is printed apart, or one stands right under a name', async () => {
    const none = await rowsOf(pages(() => []));
    expect(none.map((r) => [r.name, r.nameSet])).toEqual([
      ['Mineralwasser Medium', 'alone'],
      ['Pfand Mehrweg', 'spaced'],
    ]);
    // "Herkunft: …" right under a name opens its description there: the table sets descriptions under names.
    const under = await rowsOf([
      [
        ...pages((y) => [{ s: 'Aus regionaler Quelle', x: 110, y }])[0]!,
        ...item(340, 'Leergut', '1,50', '2', '3,00'),
        { s: 'Herkunft: Deutschland', x: 110, y: 350 },
      ],
    ]);
    expect(under.map((r) => r.nameSet)).toEqual(['described', 'spaced', 'described']);
  });
});

describe("an adjustment's word opening a table", () => {
  it('reads a first row worded as an adjustment as an item: there is no item above it to adjust ("Abschlag Monat", an instalment)', async () => {
    const rows = await rowsOf(
      table(
        [
          ['Beschreibung', 60],
          ['Menge', 330, true],
          ['Betrag', 500, true],
        ],
        [
          [
            ['Abschlag Monat', 60],
            ['1', 330, true],
            ['29,95', 500, true],
          ],
          [
            ['Minderleistungen Vormonat', 60],
            ['-19', 330, true],
            ['-19,00', 500, true],
          ],
          [
            ['Rabatt', 60],
            ['1', 330, true],
            ['-1,00', 500, true],
          ],
        ],
      ),
    );
    expect(rows.map((r) => [r.name, r.amount])).toEqual([
      ['Abschlag Monat', '29.95'],
      ['Minderleistungen Vormonat', '-19.00'],
    ]);
  });
});
