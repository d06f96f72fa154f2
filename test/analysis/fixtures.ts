import { PDFDocument, StandardFonts, rgb } from 'pdf-lib';
import type { PageText, Word } from '../../src/reading/page-text.js';

/**
 * Invoice PDFs drawn for the tests: text placed at given positions (top-left origin, points),
 * the way invoice software lays out letters. Each layout is its own design, not a copy of
 * any real or corpus document.
 */

export interface Text {
  s: string;
  x: number;
  /** Top of the text line. */
  y: number;
  size?: number;
  bold?: boolean;
  /** `x` is the right edge (amount columns). */
  right?: boolean;
  /** Courier, whose word space is as wide as a letter (0.6 em). */
  mono?: boolean;
}

const A4: [number, number] = [595.28, 841.89];

export async function pdfOf(pages: Text[][], size: [number, number] = A4): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const regular = await doc.embedFont(StandardFonts.Helvetica);
  const bold = await doc.embedFont(StandardFonts.HelveticaBold);
  const mono = await doc.embedFont(StandardFonts.Courier);
  for (const texts of pages) {
    const page = doc.addPage(size);
    for (const t of texts) {
      const font = t.mono ? mono : t.bold ? bold : regular;
      const fontSize = t.size ?? 9;
      const x = t.right ? t.x - font.widthOfTextAtSize(t.s, fontSize) : t.x;
      page.drawText(t.s, { x, y: size[1] - t.y - fontSize * 0.8, size: fontSize, font, color: rgb(0, 0, 0) });
    }
  }
  return doc.save();
}

/** A page with drawings but no text at all: what a scan without OCR looks like to the text layer. */
export async function pdfWithoutText(): Promise<Uint8Array> {
  const doc = await PDFDocument.create();
  const page = doc.addPage(A4);
  page.drawRectangle({ x: 50, y: 600, width: 200, height: 100, color: rgb(0.8, 0.8, 0.8) });
  return doc.save();
}

/** German letter, DIN 5008: letterhead right, sender line over the address window, info block, table, VAT per rate. */
export function germanInvoice(): Text[][] {
  const rows: Array<[string, string, string, string, string, string, string, string]> = [
    ['1', 'A-100', 'Betonmischer 120 l', '2', 'Stk', '349,00', '19 %', '698,00'],
    ['2', 'B-220', 'Montage vor Ort', '3,5', 'Std', '65,00', '19 %', '227,50'],
    ['3', 'C-7', 'Kies 0/16', '12,5', 't', '38,40', '7 %', '480,00'],
  ];
  const table: Text[] = [];
  let y = 330;
  for (const [pos, id, name, qty, unit, price, vat, total] of rows) {
    table.push(
      { s: pos, x: 57, y },
      { s: id, x: 80, y },
      { s: name, x: 130, y },
      { s: qty, x: 345, y, right: true },
      { s: unit, x: 352, y },
      { s: price, x: 440, y, right: true },
      { s: vat, x: 480, y, right: true },
      { s: total, x: 538, y, right: true },
    );
    if (pos === '1') table.push({ s: 'inkl. Zubehörpaket', x: 130, y: y + 11 });
    y += pos === '1' ? 28 : 17;
  }
  return [
    [
      { s: 'Musterbau GmbH', x: 360, y: 50, size: 16, bold: true },
      { s: 'Hafenstraße 7', x: 360, y: 72 },
      { s: '20457 Hamburg', x: 360, y: 83 },
      { s: 'Tel. 040 1234567', x: 360, y: 94 },
      { s: 'Musterbau GmbH · Hafenstraße 7 · 20457 Hamburg', x: 57, y: 128, size: 6.5 },
      { s: 'Beispiel AG', x: 57, y: 145, size: 10 },
      { s: 'z. Hd. Frau Erika Muster', x: 57, y: 158, size: 10 },
      { s: 'Lindenweg 12', x: 57, y: 171, size: 10 },
      { s: '50667 Köln', x: 57, y: 184, size: 10 },
      { s: 'Rechnungsnummer:', x: 360, y: 145 },
      { s: 'RE-2024-0815', x: 460, y: 145 },
      { s: 'Rechnungsdatum:', x: 360, y: 157 },
      { s: '14.03.2024', x: 460, y: 157 },
      { s: 'Lieferdatum:', x: 360, y: 169 },
      { s: '12.03.2024', x: 460, y: 169 },
      { s: 'Kundennummer:', x: 360, y: 181 },
      { s: 'K-4711', x: 460, y: 181 },
      { s: 'Ihre Bestellung:', x: 360, y: 193 },
      { s: 'PO-9981', x: 460, y: 193 },
      { s: 'Rechnung', x: 57, y: 260, size: 16, bold: true },
      { s: 'Sehr geehrte Damen und Herren, wir berechnen Ihnen wie folgt:', x: 57, y: 285 },
      { s: 'Pos.', x: 57, y: 312, bold: true },
      { s: 'Art.-Nr.', x: 80, y: 312, bold: true },
      { s: 'Bezeichnung', x: 130, y: 312, bold: true },
      { s: 'Menge', x: 345, y: 312, bold: true, right: true },
      { s: 'Einheit', x: 352, y: 312, bold: true },
      { s: 'Einzelpreis', x: 440, y: 312, bold: true, right: true },
      { s: 'USt.', x: 480, y: 312, bold: true, right: true },
      { s: 'Gesamt', x: 538, y: 312, bold: true, right: true },
      ...table,
      { s: 'Nettobetrag', x: 360, y: 420 },
      { s: '1.405,50', x: 538, y: 420, right: true },
      { s: 'zzgl. 19 % USt. auf 925,50', x: 360, y: 432 },
      { s: '175,85', x: 538, y: 432, right: true },
      { s: 'zzgl. 7 % USt. auf 480,00', x: 360, y: 444 },
      { s: '33,60', x: 538, y: 444, right: true },
      { s: 'Rechnungsbetrag EUR', x: 360, y: 460, bold: true },
      { s: '1.614,95', x: 538, y: 460, right: true, bold: true },
      { s: 'Zahlbar bis 13.04.2024 ohne Abzug.', x: 57, y: 500 },
      { s: 'Musterbau GmbH', x: 57, y: 770, size: 7 },
      { s: 'Hafenstraße 7, 20457 Hamburg', x: 57, y: 779, size: 7 },
      { s: 'Hamburger Sparkasse', x: 230, y: 770, size: 7 },
      { s: 'IBAN DE89 3704 0044 0532 0130 00', x: 230, y: 779, size: 7 },
      { s: 'BIC COBADEFFXXX', x: 230, y: 788, size: 7 },
      { s: 'USt-IdNr.: DE123456788', x: 420, y: 770, size: 7 },
      { s: 'Steuernummer: 22/123/45678', x: 420, y: 779, size: 7 },
    ],
  ];
}

/** English invoice: letterhead left, "Bill to" block, labels in a right-hand column, written-out dates, € before amounts. */
export function englishInvoice(): Text[][] {
  return [
    [
      { s: 'Northwind Traders B.V.', x: 50, y: 50, size: 14, bold: true },
      { s: 'Keizersgracht 100', x: 50, y: 70 },
      { s: '1015 CS Amsterdam', x: 50, y: 81 },
      { s: 'Netherlands', x: 50, y: 92 },
      { s: 'INVOICE', x: 545, y: 50, size: 22, bold: true, right: true },
      { s: 'Invoice No.', x: 380, y: 90 },
      { s: 'INV-2024-0042', x: 545, y: 90, right: true },
      { s: 'Invoice Date', x: 380, y: 102 },
      { s: 'March 5, 2024', x: 545, y: 102, right: true },
      { s: 'Due Date', x: 380, y: 114 },
      { s: 'April 4, 2024', x: 545, y: 114, right: true },
      { s: 'PO Number', x: 380, y: 126 },
      { s: 'PO-77', x: 545, y: 126, right: true },
      { s: 'Bill to:', x: 50, y: 150, bold: true },
      { s: 'Acme Corporation', x: 50, y: 163 },
      { s: 'Attn: Accounts Payable', x: 50, y: 174 },
      { s: 'Rue de la Loi 200', x: 50, y: 185 },
      { s: '1040 Brussels', x: 50, y: 196 },
      { s: 'Belgium', x: 50, y: 207 },
      { s: 'VAT number: BE0403170701', x: 50, y: 218 },
      { s: 'Description', x: 50, y: 260, bold: true },
      { s: 'Qty', x: 340, y: 260, bold: true, right: true },
      { s: 'Unit Price', x: 440, y: 260, bold: true, right: true },
      { s: 'Amount', x: 545, y: 260, bold: true, right: true },
      { s: 'Consulting services', x: 50, y: 280 },
      { s: '10', x: 340, y: 280, right: true },
      { s: '€120.00', x: 440, y: 280, right: true },
      { s: '€1,200.00', x: 545, y: 280, right: true },
      { s: 'Travel expenses', x: 50, y: 296 },
      { s: '1', x: 340, y: 296, right: true },
      { s: '€85.50', x: 440, y: 296, right: true },
      { s: '€85.50', x: 545, y: 296, right: true },
      { s: 'Software licence (annual)', x: 50, y: 312 },
      { s: '3', x: 340, y: 312, right: true },
      { s: '€299.00', x: 440, y: 312, right: true },
      { s: '€897.00', x: 545, y: 312, right: true },
      { s: 'Subtotal', x: 380, y: 345 },
      { s: '€2,182.50', x: 545, y: 345, right: true },
      { s: 'VAT 21%', x: 380, y: 358 },
      { s: '€458.33', x: 545, y: 358, right: true },
      { s: 'Total', x: 380, y: 371, bold: true },
      { s: '€2,640.83', x: 545, y: 371, right: true, bold: true },
      { s: 'Amount paid', x: 380, y: 384 },
      { s: '€500.00', x: 545, y: 384, right: true },
      { s: 'Balance due', x: 380, y: 397, bold: true },
      { s: '€2,140.83', x: 545, y: 397, right: true, bold: true },
      { s: 'Please pay by bank transfer to IBAN NL91 ABNA 0417 1643 00, BIC ABNANL2A.', x: 50, y: 440 },
      { s: 'VAT ID: NL810433941B01', x: 50, y: 452 },
    ],
  ];
}

/** French invoice: sender line on top, labelled buyer block on the right, amounts as 1 234,56 €. */
export function frenchInvoice(): Text[][] {
  const row = (y: number, name: string, qty: string, price: string, amount: string): Text[] => [
    { s: name, x: 40, y },
    { s: qty, x: 320, y, right: true },
    { s: price, x: 410, y, right: true },
    { s: '20 %', x: 460, y, right: true },
    { s: amount, x: 555, y, right: true },
  ];
  return [
    [
      { s: 'Atelier Lumière SAS - 14 rue des Lilas - 69003 Lyon - France', x: 40, y: 40, size: 8 },
      { s: 'Facture n° F-2024-117', x: 40, y: 90, size: 15, bold: true },
      { s: 'Date de facture : 02/04/2024', x: 40, y: 120 },
      { s: "Date d'échéance : 02/05/2024", x: 40, y: 132 },
      { s: 'Facturé à', x: 330, y: 120, bold: true },
      { s: 'Boulangerie Dupont', x: 330, y: 133 },
      { s: '8 place du Marché', x: 330, y: 144 },
      { s: '13001 Marseille', x: 330, y: 155 },
      { s: 'Désignation', x: 40, y: 200, bold: true },
      { s: 'Quantité', x: 320, y: 200, bold: true, right: true },
      { s: 'Prix unitaire HT', x: 410, y: 200, bold: true, right: true },
      { s: 'TVA', x: 460, y: 200, bold: true, right: true },
      { s: 'Montant HT', x: 555, y: 200, bold: true, right: true },
      ...row(220, 'Lampe de bureau', '4', '89,90 €', '359,60 €'),
      ...row(235, 'Abat-jour lin', '10', '24,50 €', '245,00 €'),
      ...row(250, 'Installation atelier', '1', '1 250,00 €', '1 250,00 €'),
      { s: 'Total HT', x: 400, y: 290 },
      { s: '1 854,60 €', x: 555, y: 290, right: true },
      { s: 'TVA 20 %', x: 400, y: 303 },
      { s: '370,92 €', x: 555, y: 303, right: true },
      { s: 'Total TTC', x: 400, y: 316, bold: true },
      { s: '2 225,52 €', x: 555, y: 316, right: true, bold: true },
      { s: 'Net à payer', x: 400, y: 332, bold: true },
      { s: '2 225,52 €', x: 555, y: 332, right: true, bold: true },
      { s: 'TVA intracommunautaire : FR32123456789', x: 40, y: 760, size: 7 },
      { s: 'IBAN : FR76 3000 6000 0112 3456 7890 189', x: 40, y: 770, size: 7 },
    ],
  ];
}

/** Two pages of items: the header repeats on page 2, totals follow the last item. */
export function longGermanInvoice(items = 40): {
  pages: Text[][];
  net: string;
  rows: Array<{ name: string; qty: string; price: string; amount: string }>;
} {
  const rows = Array.from({ length: items }, (_, i) => {
    const qty = (i % 5) + 1;
    const cents = 1000 + i * 137;
    return {
      name: `Ersatzteil Typ ${String.fromCharCode(65 + (i % 26))}${i}`,
      qty: String(qty),
      price: (cents / 100).toFixed(2),
      amount: ((qty * cents) / 100).toFixed(2),
    };
  });
  const de = (v: string) => v.replace('.', ',');
  const header = (y: number): Text[] => [
    { s: 'Pos', x: 50, y, bold: true },
    { s: 'Beschreibung', x: 80, y, bold: true },
    { s: 'Anzahl', x: 360, y, bold: true, right: true },
    { s: 'E-Preis', x: 450, y, bold: true, right: true },
    { s: 'Betrag', x: 545, y, bold: true, right: true },
  ];
  const pages: Text[][] = [
    [
      { s: 'Teilehandel Nord KG', x: 50, y: 40, size: 14, bold: true },
      { s: 'Teilehandel Nord KG | Am Deich 3 | 26122 Oldenburg', x: 50, y: 110, size: 6.5 },
      { s: 'Werkstatt Süd GmbH', x: 50, y: 125, size: 10 },
      { s: 'Bergstraße 44', x: 50, y: 138, size: 10 },
      { s: '80331 München', x: 50, y: 151, size: 10 },
      { s: 'Rechnung Nr. 2024/771', x: 50, y: 200, size: 13, bold: true },
      { s: 'Datum: 30.06.2024', x: 400, y: 200 },
      ...header(240),
    ],
    [...header(60)],
  ];
  let page = 0;
  let y = 258;
  rows.forEach((r, i) => {
    if (y > 760) {
      pages[0]!.push({ s: 'Übertrag auf Seite 2', x: 80, y: 780 });
      page = 1;
      y = 78;
    }
    pages[page]!.push(
      { s: String(i + 1), x: 50, y },
      { s: r.name, x: 80, y },
      { s: r.qty, x: 360, y, right: true },
      { s: de(r.price), x: 450, y, right: true },
      { s: de(r.amount), x: 545, y, right: true },
    );
    y += 13;
  });
  const net = rows.reduce((s, r) => s + Math.round(Number(r.amount) * 100), 0);
  const vat = Math.round(net * 0.19);
  const money = (c: number) => (c / 100).toFixed(2);
  const deMoney = (c: number) =>
    money(c)
      .replace(/\B(?=(\d{3})+\.)/g, '.')
      .replace(/\.(\d{2})$/, ',$1');
  pages[1]!.push(
    { s: 'Summe netto', x: 380, y: y + 20 },
    { s: deMoney(net), x: 545, y: y + 20, right: true },
    { s: 'USt. 19 %', x: 380, y: y + 33 },
    { s: deMoney(vat), x: 545, y: y + 33, right: true },
    { s: 'Gesamtbetrag', x: 380, y: y + 46, bold: true },
    { s: deMoney(net + vat), x: 545, y: y + 46, right: true, bold: true },
  );
  return { pages, net: money(net), rows };
}

/** Items without a table header: a premium notice listing covers with their amounts and the sum below. */
export function premiumNotice(): Text[][] {
  return [
    [
      { s: 'Hanse Versicherung AG', x: 60, y: 50, size: 13, bold: true },
      { s: 'Hanse Versicherung AG · Wallring 5 · 20095 Hamburg', x: 60, y: 120, size: 6.5 },
      { s: 'Frau', x: 60, y: 135, size: 10 },
      { s: 'Petra Beispiel', x: 60, y: 148, size: 10 },
      { s: 'Ahornweg 3', x: 60, y: 161, size: 10 },
      { s: '24103 Kiel', x: 60, y: 174, size: 10 },
      { s: 'Beitragsrechnung Nr. BR-2024-0042', x: 60, y: 250, size: 12, bold: true },
      { s: 'Datum: 02.01.2024', x: 400, y: 250 },
      { s: 'Hausratversicherung Tarif Komfort', x: 60, y: 300 },
      { s: '84,00 €', x: 520, y: 300, right: true },
      { s: 'Glasbruch-Zusatz', x: 60, y: 313 },
      { s: '12,50 €', x: 520, y: 313, right: true },
      { s: 'Fahrradschutz bis 1.500 €', x: 60, y: 326 },
      { s: '23,50 €', x: 520, y: 326, right: true },
      { s: 'Jahresbeitrag', x: 60, y: 345, bold: true },
      { s: '120,00 €', x: 520, y: 345, right: true, bold: true },
    ],
  ];
}

/** One OCR line: words laid out from `x`, 10 px per character, on a 30 px high line at `y`. */
export function ocrLine(y: number, x: number, text: string, confidence = 0.95): Word[] {
  const words: Word[] = [];
  let at = x;
  for (const t of text.split(' ')) {
    words.push({ text: t, x: at, y, width: t.length * 10, height: 30, confidence });
    at += t.length * 10 + 12;
  }
  return words;
}

/** One A4 page at 300 dpi as the OCR path hands it over. */
export const ocrPage = (words: Word[]): PageText[] => [{ page: 1, width: 2480, height: 3508, words, source: 'ocr' }];

/** The totals of one invoice the XML's renderings print (a sample of the XRechnung testsuite), as read. */
export const RENDERED_TOTALS = {
  sumOfInvoiceLineNetAmount: '180.76',
  sumOfAllowancesOnDocumentLevel: '9.07',
  sumOfChargesOnDocumentLevel: '5.80',
  invoiceTotalAmountWithoutVat: '177.49',
  invoiceTotalVatAmount: '20.16',
  invoiceTotalAmountWithVat: '197.65',
};
