import { describe, expect, it } from 'vitest';
import { buildDoc } from '../../src/analysis/document.js';
import { findLineItems } from '../../src/analysis/table.js';
import type { Word } from '../../src/reading/page-text.js';
import { ocrLine as line, ocrPage as scan } from './fixtures.js';

/**
 * Line-item tables as scans deliver them: amounts with a lost or misread decimal separator,
 * prices garbled into whole numbers, numbers split after the decimal mark, a sentence set
 * right under the header. Pages are OCR words with confidences.
 */

/** A table row: cells at the header's x positions (right-aligned numbers end where their header ends). */
function row(y: number, cells: Array<[number, string]>): Word[] {
  return cells.flatMap(([x, t]) => line(y, x, t));
}

const header = (y: number, withPos = true) => [
  ...(withPos ? line(y, 200, 'Pos') : []),
  ...line(y, 400, 'Beschreibung'),
  ...line(y, 1200, 'Menge'),
  ...line(y, 1600, 'Preis'),
  ...line(y, 2100, 'Betrag'),
];

const totals = (y: number, net: string) => [...line(y, 1200, 'Rechnungssumme netto'), ...line(y, 2100, net)];

const items = (words: Word[]) => findLineItems(buildDoc(scan(words))).rows;

describe('line items on scans', () => {
  it('keeps the columns when a sentence naming a "Nr." is set right under the header', () => {
    const rows = items([
      ...header(1000),
      ...line(1040, 200, 'Wir erlauben uns Ihnen folgende Positionen aus der Lieferung Nr. 2013-51112 in Rechnung zu stellen:'),
      ...row(1100, [
        [200, '1'],
        [400, 'Trennblätter A4'],
        [1200, '20'],
        [1600, '9,90'],
        [2100, '198,00'],
      ]),
      ...row(1160, [
        [200, '2'],
        [400, 'Joghurt Banane'],
        [1200, '50'],
        [1600, '5,50'],
        [2100, '275,00'],
      ]),
      ...totals(1300, '473,00'),
    ]);
    expect(rows.map((r) => [r.name, r.quantity, r.unitPrice, r.amount])).toEqual([
      ['Trennblätter A4', '20', '9.90', '198.00'],
      ['Joghurt Banane', '50', '5.50', '275.00'],
    ]);
  });

  it("goes on with a name where the scan ran the header's words together and an article number stands left of the name", () => {
    // "Pos" read as "Reue" and run into "Beschreibung": the position and article numbers stand under
    // the description's header. The name column is narrow: "A4" and "Banane" had no room above.
    const rows = items([
      ...line(1000, 200, 'Reue Beschreibung'),
      ...line(1000, 900, 'Menge'),
      ...line(1000, 1600, 'Preis'),
      ...line(1000, 2100, 'Betrag'),
      ...row(1100, [
        [220, '1'],
        [640, 'Trennblätter'],
        [900, '20'],
        [1600, '9,90'],
        [2100, '198,00'],
      ]),
      ...row(1140, [
        [280, 'TB100A4'],
        [640, 'A4'],
      ]),
      ...row(1200, [
        [220, '2'],
        [640, 'Joghurt'],
        [900, '50'],
        [1600, '5,50'],
        [2100, '275,00'],
      ]),
      ...row(1240, [
        [280, 'ARNR2'],
        [640, 'Banane'],
      ]),
      ...totals(1400, '473,00'),
    ]);
    expect(rows.map((r) => [r.name, r.amount])).toEqual([
      ['Trennblätter A4', '198.00'],
      ['Joghurt Banane', '275.00'],
    ]);
  });

  it('knows the items printed under a header whose stacked labels it garbled, where it read no row', () => {
    // As a scan of the ZUGFeRD visualisation reads it: the amount column's title stacked above the
    // others, "Art-Nr" / "(Art)" under them garbled to no label, the rows' quantities and a price garbled.
    const page = (rows: Word[]) => [
      ...line(900, 2020, 'Positions-'),
      ...line(940, 2118, 'betrag'),
      ...row(1000, [
        [220, 'POS'],
        [630, 'Beschreibung'],
        [1020, 'Nettopreis'],
        [1490, 'Menge'],
        [1830, 'USt.'],
      ]),
      ...line(1040, 308, '3 -t-Nr'),
      ...row(1080, [
        [320, '(Art)'],
        [2170, 'USt.'],
      ]),
      ...rows,
      ...line(1400, 210, 'Zahlungsbedingungen:'),
    ];
    const rows = [
      ...row(1130, [
        [250, '1'],
        [630, 'Grundpreis'],
        [1100, '3, 9000'],
        [1490, 'Ps Stk'],
        [1860, 'SR'],
        [2170, '3,90'],
      ]),
      ...row(1180, [
        [250, '2'],
        [630, 'Stadtfahrt'],
        [1100, '2,0000'],
        [1440, 'HE StK'],
        [1860, '7%'],
        [2150, '13,00'],
      ]),
    ];
    const table = findLineItems(buildDoc(scan(page(rows))));
    expect([table.rows.length, table.rowsPrinted]).toEqual([0, true]);
    // The empty table a booking aid prints is no table of items.
    expect(findLineItems(buildDoc(scan(page([])))).rowsPrinted).toBeUndefined();
  });

  it('takes the unlabelled word column for the names where the scan garbled their label', () => {
    const rows = items([
      ...line(1000, 220, '#'),
      ...line(1000, 300, 'F__puon'),
      ...line(1000, 1200, 'Qty'),
      ...line(1000, 1600, 'Price'),
      ...line(1000, 1800, 'Tax'),
      ...line(1000, 2100, 'Amount'),
      ...row(1100, [
        [220, '1'],
        [300, 'Design'],
        [1200, '120'],
        [1600, '85.00'],
        [2100, '10,200.00'],
      ]),
      ...row(1160, [
        [220, '2'],
        [300, 'Hotel room'],
        [1200, '3'],
        [1600, '187.50'],
        [2100, '562.50'],
      ]),
      // A subtotal row, read with a tax amount garbled beside it, closes the items.
      { text: 'Subtotal', x: 190, y: 1240, width: 150, height: 30, confidence: 0.95 },
      ...row(1240, [
        [1800, '42.28C'],
        [2100, '10,762.50'],
      ]),
      // A charge on the document, its first word out in the running numbers' margin.
      ...row(1300, [
        [190, 'Freight'],
        [300, 'costs'],
        [1600, '47.90'],
        [2100, '47.90'],
      ]),
    ]);
    expect(rows.map((r) => [r.name, r.quantity, r.unitPrice, r.amount])).toEqual([
      ['Design', '120', '85.00', '10200.00'],
      ['Hotel room', '3', '187.50', '562.50'],
    ]);
  });

  it('stacks a header over a line of stray marks the scan read beside it', () => {
    const rows = items([
      // "Positions- / betrag" heads the amounts two lines above the other labels.
      ...line(1000, 2060, 'Positions-'),
      ...line(1041, 2060, 'betrag'),
      // Specks read as ": £", a line of their own at the height of the labels.
      { text: ':', x: 813, y: 1074, width: 6, height: 12, confidence: 0.45 },
      { text: '£', x: 1226, y: 1076, width: 8, height: 8, confidence: 0.82 },
      ...line(1072, 200, 'Pos'),
      ...line(1072, 400, 'Beschreibung'),
      ...line(1072, 1200, 'Nettopreis'),
      ...line(1072, 1600, 'Menge'),
      ...row(1200, [
        [200, '1'],
        [400, 'Navigationssystem'],
        [1200, '5,0400'],
        [1600, '2 Stk'],
        [2100, '10,08'],
      ]),
      ...row(1300, [
        [200, '2'],
        [400, 'Vollkasko'],
        [1200, '23,1000'],
        [1600, '2 Stk'],
        [2100, '46,20'],
      ]),
      ...totals(1400, '56,28'),
    ]);
    expect(rows.map((r) => [r.name, r.quantity, r.unitPrice, r.amount])).toEqual([
      ['Navigationssystem', '2', '5.0400', '10.08'],
      ['Vollkasko', '2', '23.1000', '46.20'],
    ]);
  });

  it('leaves the table rule a scan reads as "|" beside a name out of the name', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [380, '|'],
        [400, 'Trennblätter A4'],
        [1200, '20'],
        [1600, '9,90'],
        [2100, '198,00'],
      ]),
      ...row(1160, [
        [200, '2'],
        [400, 'Joghurt Banane |'],
        [1200, '50'],
        [1600, '5,50'],
        [2100, '275,00'],
      ]),
      ...totals(1300, '473,00'),
    ]);
    expect(rows.map((r) => r.name)).toEqual(['Trennblätter A4', 'Joghurt Banane']);
  });

  it('takes one times the amount as one piece at that price when the price header is unreadable', () => {
    // "Nettopreis" read as "wem": price and quantity both fall under "Menge".
    const rows = items([
      ...line(1000, 200, 'Pos'),
      ...line(1000, 400, 'Beschreibung'),
      ...line(1000, 1157, 'wem'),
      ...line(1000, 1440, 'Menge'),
      ...line(1000, 2100, 'Nettobetrag'),
      ...row(1100, [
        [200, '1'],
        [400, 'Übernachtung'],
        [1194, '158,88'],
        [1440, '1'],
        [2100, '158,88'],
      ]),
      ...row(1160, [
        [200, '2'],
        [400, 'Frühstück'],
        [1194, '11,76'],
        [1440, '1'],
        [2100, '11,76'],
      ]),
      ...totals(1300, '170,64'),
    ]);
    expect(rows.map((r) => [r.quantity, r.unitPrice, r.amount])).toEqual([
      ['1', '158.88', '158.88'],
      ['1', '11.76', '11.76'],
    ]);
  });

  it('reads an amount with a lost or misread decimal separator when quantity × price gives its digits', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Trennblätter A4'],
        [1200, '20'],
        [1600, '9,90'],
        [2100, '198,00'],
      ]),
      ...row(1160, [
        [200, '2'],
        [400, 'Joghurt Banane'],
        [1200, '50'],
        [1600, '5,50'],
        [2100, '27500'],
      ]),
      ...row(1220, [
        [200, '3'],
        [400, 'Miettage'],
        [1200, '2'],
        [1600, '86,55'],
        [2100, '173510'],
      ]),
      ...row(1280, [
        [200, '4'],
        [400, 'Verpflegung'],
        [1200, '1'],
        [1600, '11,76'],
        [2100, '1X776'],
      ]),
      ...totals(1400, '658,60'),
    ]);
    expect(rows.map((r) => [r.name, r.amount, r.arithmetic])).toEqual([
      ['Trennblätter A4', '198.00', true],
      ['Joghurt Banane', '275.00', true],
      ['Miettage', '173.10', true],
      ['Verpflegung', '11.76', true],
    ]);
  });

  it('does not invent an amount the printed digits do not support', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Trennblätter A4'],
        [1200, '20'],
        [1600, '9,90'],
        [2100, '198,00'],
      ]),
      ...row(1160, [
        [200, '2'],
        [400, 'Joghurt Banane'],
        [1200, '50'],
        [1600, '5,50'],
        [2100, '31800'],
      ]),
      ...totals(1300, '198,00'),
    ]);
    expect(rows.map((r) => r.name)).toEqual(['Trennblätter A4']);
  });

  it('joins a number the scan split after its decimal mark', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Übernachtung'],
        [1200, '1'],
        [1600, '158, 88'],
        [2100, '158, 88'],
      ]),
      ...totals(1300, '158,88'),
    ]);
    expect(rows.map((r) => [r.unitPrice, r.amount])).toEqual([['158.88', '158.88']]);
  });

  it('takes a price garbled into a whole number from amount ÷ quantity', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Vollkasko'],
        [1200, '2'],
        [1600, '23500'],
        [2100, '46,20'],
      ]),
      ...totals(1300, '46,20'),
    ]);
    expect(rows.map((r) => [r.quantity, r.unitPrice, r.amount, r.arithmetic])).toEqual([['2', '23.10', '46.20', true]]);
  });

  it('takes a price whose decimal point the scan lost beside its currency sign from amount ÷ quantity, though per 100 units it would multiply out', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '2'],
        [400, 'Druckerpapier'],
        [1200, '2'],
        [1600, '762€'],
        [2100, '15,24'],
      ]),
      // Credited, the same: quantity and amount negative, the price not.
      ...row(1160, [
        [200, '3'],
        [400, 'Toner'],
        [1200, '-3'],
        [1600, '1250€'],
        [2100, '-37,50'],
      ]),
      ...totals(1300, '-22,26'),
    ]);
    expect(rows.map((r) => [r.quantity, r.unitPrice, r.amount, r.arithmetic])).toEqual([
      ['2', '7.62', '15.24', true],
      ['-3', '12.50', '-37.50', true],
    ]);
  });

  it('takes such a price apart from a quantity the scan set in the price column before it', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '2'],
        [400, 'Druckerpapier'],
        [1420, '-2 pcs'],
        [1600, '762€'],
        [2100, '-15,24'],
      ]),
      ...totals(1300, '-15,24'),
    ]);
    expect(rows.map((r) => [r.quantity, r.unitPrice, r.amount])).toEqual([['-2', '7.62', '-15.24']]);
  });

  it('reads a running number before the name as the position when the header has no position column', () => {
    const rows = items([
      ...header(1000, false),
      ...row(1100, [
        [250, '3'],
        [400, 'Vollkasko'],
        [1200, '2'],
        [1600, '23,10'],
        [2100, '46,20'],
      ]),
      ...totals(1300, '46,20'),
    ]);
    expect(rows.map((r) => [r.position, r.name])).toEqual([['3', 'Vollkasko']]);
  });

  it('reads a percentage set left of the VAT column (skew, "7 % VAT" split) as the rate, not the quantity', () => {
    const rows = items([
      ...line(1000, 200, 'Pos'),
      ...line(1000, 400, 'Beschreibung'),
      ...line(1000, 1000, 'Preis'),
      ...line(1000, 1400, 'Menge'),
      ...line(1000, 1800, 'Steuer'),
      ...line(1000, 2100, 'Betrag'),
      ...row(1100, [
        [200, '1'],
        [400, 'Trennblätter'],
        [1000, '9,90'],
        [1380, '20 Stk'],
        [1550, '19 % VAT'],
        [2100, '198,00'],
      ]),
      ...row(1160, [
        [200, '2'],
        [400, 'Joghurt'],
        [1000, '5,50'],
        [1380, '50 Stk'],
        [1560, '7'],
        [1620, '% VAT'],
        [2100, '275,00'],
      ]),
      ...totals(1300, '473,00'),
    ]);
    expect(rows.map((r) => [r.quantity, r.vatRate])).toEqual([
      ['20', '19'],
      ['50', '7'],
    ]);
  });

  it('takes a quantity the scan garbled from amount ÷ price', () => {
    const rows = items([
      ...line(1000, 200, 'Pos'),
      ...line(1000, 400, 'Beschreibung'),
      ...line(1000, 1000, 'Preis'),
      ...line(1000, 1400, 'Menge'),
      ...line(1000, 2100, 'Betrag'),
      ...row(1100, [
        [200, '3'],
        [400, 'Fahrtkosten'],
        [1000, '23,36'],
        [1400, 'Tis tk'],
        [2100, '46,72'],
      ]),
      ...totals(1300, '46,72'),
    ]);
    expect(rows.map((r) => [r.quantity, r.unitPrice, r.amount])).toEqual([['2', '23.36', '46.72']]);
  });

  it('goes on past a note naming a tax amount outside the amount column', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Haftpflicht'],
        [1200, '1'],
        [1600, '80,00'],
        [2100, '80,00'],
      ]),
      ...row(1140, [
        [400, 'Enthält 19% Versicherungssteuer ='],
        [1550, '12,77 €'],
      ]),
      ...row(1200, [
        [200, '2'],
        [400, 'Vollkasko'],
        [1200, '1'],
        [1600, '140,00'],
        [2100, '140,00'],
      ]),
      ...totals(1300, '220,00'),
    ]);
    expect(rows.map((r) => [r.name, r.amount])).toEqual([
      ['Haftpflicht', '80.00'],
      ['Vollkasko', '140.00'],
    ]);
  });

  it('reads units the scan glued to a number or misread by a letter, and leaves an unreadable one open', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Schweinesteak'],
        [1200, '5 S5kg'],
        [1600, '5,50'],
        [2100, '27,50'],
      ]),
      ...row(1160, [
        [200, '2'],
        [400, 'Pfand'],
        [1200, '20 Sfk'],
        [1600, '2,77'],
        [2100, '55,40'],
      ]),
      ...row(1220, [
        [200, '3'],
        [400, 'Kunstrasen'],
        [1200, '3 m?'],
        [1600, '3,33'],
        [2100, '10,00'],
      ]),
      ...totals(1300, '92,90'),
    ]);
    expect(rows.map((r) => [r.name, r.unit])).toEqual([
      ['Schweinesteak', 'KGM'],
      ['Pfand', 'C62'],
      ['Kunstrasen', undefined],
    ]);
  });

  it('repairs a garbled price even where it happens to multiply out per 1000 units, and a lost quantity of one', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Selbstbeteiligung'],
        [1200, '2'],
        [1600, '15555'],
        [2100, '31,10'],
      ]),
      ...row(1160, [
        [200, '2'],
        [400, 'Fahrtkosten'],
        [1200, '18k'],
        [1600, '23736'],
        [2100, '23,36'],
      ]),
      ...totals(1300, '54,46'),
    ]);
    expect(rows.map((r) => [r.quantity, r.unitPrice, r.amount])).toEqual([
      ['2', '15.55', '31.10'],
      ['1', '23.36', '23.36'],
    ]);
  });

  it('reads on past labelled notes under an item and stops at a section heading after the items', () => {
    const words = [
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Windschutzscheibe'],
        [1200, '10 Stk'],
        [1600, '100,00'],
        [2100, '1000,00'],
      ]),
      ...row(1140, [
        [400, 'Preisbasismenge:'],
        [1000, 'Preisbasismenge:'],
        [1700, 'Kein Ausweis der'],
      ]),
      ...row(1180, [
        [400, 'Preisbasismenge:'],
        [700, '1 Stk'],
        [1700, 'Umsatzsteuer bei'],
      ]),
      ...row(1220, [
        [400, '1 Stk'],
        [1000, 'Preisbasismenge:'],
      ]),
      ...row(1300, [
        [200, '2'],
        [400, 'Stoßfänger'],
        [1200, '10 Stk'],
        [1600, '100,00'],
        [2100, '1000,00'],
      ]),
      ...row(1500, [[200, 'Zahlungsbedingungen:']]),
      ...row(1600, [
        [200, 'Kein Ausweis der Umsatzsteuer bei'],
        [1200, '2000,00'],
        [1600, '0'],
        [2100, '0,00'],
      ]),
    ];
    expect(items(words).map((r) => [r.name, r.amount])).toEqual([
      ['Windschutzscheibe', '1000.00'],
      ['Stoßfänger', '1000.00'],
    ]);
  });

  it('keeps a row whose name and quantity the scan garbled when price and amount divide evenly', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, '4-'],
        [1200, 'LASER'],
        [1600, '8,41'],
        [2100, '8,41'],
      ]),
      ...row(1140, [[400, 'Fahrten-Karte']]),
      ...totals(1300, '8,41'),
    ]);
    expect(rows.map((r) => [r.quantity, r.unitPrice, r.amount])).toEqual([['1', '8.41', '8.41']]);
  });

  it('takes a negative quantity the scan garbled from a credited amount ÷ price', () => {
    const rows = items([
      ...header(1000),
      ...row(1100, [
        [200, '1'],
        [400, 'Zitronensäure'],
        [1200, '-S Stk'],
        [1600, '1,00'],
        [2100, '-5,00'],
      ]),
      ...totals(1300, '-5,00'),
    ]);
    expect(rows.map((r) => [r.quantity, r.unitPrice, r.amount])).toEqual([['-5', '1.00', '-5.00']]);
  });

  it('does not stack a dated field line right above the header onto its columns', () => {
    const rows = items([
      ...line(960, 240, 'Leistungsdatum vom 07.10.2015'),
      ...line(1000, 250, 'Menge'),
      ...line(1000, 500, 'Produkt'),
      ...line(1000, 1200, 'USt.'),
      ...line(1000, 1450, 'Preis'),
      ...line(1000, 1750, 'Gesamtbetrag'),
      ...row(1100, [
        [250, '400,00'],
        [500, 'Luftballon: Bunt, ca. 500ml'],
        [1200, '19%'],
        [1450, '0,79 €'],
        [1750, '316,00 €'],
      ]),
      ...totals(1300, '316,00'),
    ]);
    expect(rows.map((r) => [r.name, r.quantity, r.unit, r.vatRate])).toEqual([['Luftballon', '400.00', undefined, '19']]);
  });
});
