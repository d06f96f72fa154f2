import { describe, expect, it } from 'vitest';
import { amountCurrenciesIn, countryOfLine, currenciesIn, documentTypeOf, unitCode, vatCategoryOf } from '../../src/analysis/codes.js';
import { dayMonthOrder, printedAmbiguously, scanDates } from '../../src/analysis/dates.js';
import { ibanValid, scanBics, scanIbans, scanVatIds, vatIdChecked } from '../../src/analysis/identifiers.js';
import { inferDecimalMark, parseDigits, scanNumbers } from '../../src/analysis/numbers.js';
import { parseAddress, parseCityLine } from '../../src/analysis/parties.js';
import { classifyTotal } from '../../src/analysis/totals.js';
import { fold } from '../../src/analysis/text.js';

const values = (text: string, mark: ',' | '.') => scanNumbers(text, mark).map((n) => (n.percent ? `${n.value}%` : n.value));

describe('amounts', () => {
  it('reads German, English, French and Swiss notation', () => {
    expect(values('1.234,56', ',')).toEqual(['1234.56']);
    expect(values('1,234.56', '.')).toEqual(['1234.56']);
    expect(values('1 234,56 €', ',')).toEqual(['1234.56']);
    expect(values("1'234.50", '.')).toEqual(['1234.50']);
    expect(values('12.345.678,90', ',')).toEqual(['12345678.90']);
  });

  it('reads signs in front, behind and as parentheses, and keeps percentages apart', () => {
    expect(values('-2,00 2,00- (3.50) 19 % 16,7%', ',')).toEqual(['-2.00', '-2.00', '-3.50', '19%', '16.7%']);
  });

  it('decides a lone separator before three digits by the document’s decimal mark', () => {
    expect(parseDigits('1.234', ',')?.value).toBe('1234');
    expect(parseDigits('1.234', '.')?.value).toBe('1.234');
    expect(parseDigits('1,5', '.')?.value).toBe('1.5');
    expect(parseDigits('1.23.45', ',')).toBeUndefined();
  });

  it('reads an amount a currency code marks, a space apart, as money whatever its decimals ("11718.8 EUR", "EUR 12.50")', () => {
    const marked = (text: string) => scanNumbers(text, '.').map((n) => [n.value, n.symbol]);
    expect(marked('11718.8 EUR  2382 EUR  EUR 12.50')).toEqual([
      ['11718.8', 'EUR'],
      ['2382', 'EUR'],
      ['12.50', 'EUR'],
    ]);
    // A code run into a word marks nothing ("100 EURO", "20 USDT").
    expect(marked('100 EURO 20 USDT')).toEqual([
      ['100', undefined],
      ['20', undefined],
    ]);
  });

  it('leaves dates, identifiers and words alone', () => {
    expect(values('05.03.2018 DE123456789 3m 100ml', ',')).toEqual([]);
  });

  it('infers the decimal mark from how money is printed', () => {
    expect(inferDecimalMark(['Summe 1.234,56', 'USt 19,00'])).toBe(',');
    expect(inferDecimalMark(['Total 1,234.56', 'VAT 19.00'])).toBe('.');
  });
});

describe('dates', () => {
  const iso = (text: string, order: 'DMY' | 'MDY' = 'DMY') => scanDates(text, order).map((d) => d.iso);

  it('reads numeric, ISO and written-out dates in German, English, French and Dutch', () => {
    expect(iso('05.03.2018')).toEqual(['2018-03-05']);
    expect(iso('5.3.18')).toEqual(['2018-03-05']);
    expect(iso('2018-03-05')).toEqual(['2018-03-05']);
    expect(iso('5. März 2018')).toEqual(['2018-03-05']);
    expect(iso('5 mars 2018')).toEqual(['2018-03-05']);
    expect(iso('March 5, 2018')).toEqual(['2018-03-05']);
    expect(iso('August 3 , 2014')).toEqual(['2014-08-03']);
    expect(iso('19 april 2014')).toEqual(['2014-04-19']);
  });

  it('reads slash dates in the document’s order and refuses impossible ones', () => {
    expect(iso('03/11/2017', 'DMY')).toEqual(['2017-11-03']);
    expect(iso('03/11/2017', 'MDY')).toEqual(['2017-03-11']);
    expect(iso('31.02.2018')).toEqual([]);
    expect(dayMonthOrder(['11/03/2017', 'paid 11/17/2017'])).toEqual({ order: 'MDY', settled: true });
    expect(dayMonthOrder(['13/03/2017'])).toEqual({ order: 'DMY', settled: true });
  });

  it('knows when no slash date settles the order, and which dates would then read otherwise', () => {
    expect(dayMonthOrder(['Invoice date 03/11/2017', 'Due 03/12/2017'])).toEqual({ order: 'DMY', settled: false });
    expect(dayMonthOrder(['03/11/2017', '13/11/2017']).settled).toBe(true);
    expect(dayMonthOrder(['05.03.2018']).settled).toBe(false);
    expect(printedAmbiguously('Invoice date 03/11/2017', '2017-11-03')).toBe(true);
    expect(printedAmbiguously('Invoice date 3/11/17', '2017-11-03')).toBe(true);
    // The same day and month either way, a day over 12, or dots: one reading only.
    expect(printedAmbiguously('Invoice date 11/11/2017', '2017-11-11')).toBe(false);
    expect(printedAmbiguously('Invoice date 13/11/2017', '2017-11-13')).toBe(false);
    expect(printedAmbiguously('Rechnungsdatum 03.11.2017', '2017-11-03')).toBe(false);
  });
});

describe('identifiers', () => {
  it('finds IBANs printed in groups and checks their digits', () => {
    expect(scanIbans('IBAN DE89 3704 0044 0532 0130 00 BIC COBADEFFXXX').map((m) => [m.value, m.checked])).toEqual([
      ['DE89370400440532013000', true],
    ]);
    expect(ibanValid('DE89370400440532013001')).toBe(false);
    expect(scanIbans('NL91ABNA0417164300')[0]?.value).toBe('NL91ABNA0417164300');
  });

  it('finds BICs with a valid country', () => {
    expect(scanBics('BIC: GENODEF1M04').map((m) => m.value)).toEqual(['GENODEF1M04']);
    expect(scanBics('ABCDXYZZ')).toEqual([]);
  });

  it('checks VAT identifiers where the scheme has check digits', () => {
    expect(vatIdChecked('DE123456788')).toBe(true);
    expect(vatIdChecked('DE123456789')).toBe(false);
    expect(vatIdChecked('FR32123456789')).toBe(true);
    expect(vatIdChecked('ATU12345675')).toBe(true);
    expect(vatIdChecked('NL810433941B01')).toBe(true);
    expect(vatIdChecked('BE0403170701')).toBe(true);
    expect(scanVatIds('USt-IdNr.: DE 123 456 788').map((m) => m.value)).toEqual(['DE123456788']);
    expect(scanVatIds('CHE-123.456.789 MWST').map((m) => m.value)).toEqual(['CHE123456789MWST']);
  });

  it('reads digits a scan turned into look-alike letters only where the check digits then verify', () => {
    expect(scanVatIds('VAT ID: DEI 36695976 Page 1/1')).toEqual([{ start: 8, end: 20, value: 'DE136695976', checked: true }]);
    expect(scanVatIds('UID ATU1234567S').map((m) => m.value)).toEqual(['ATU12345675']);
    // The same letters where the digits would not verify stay unread, and no scheme without check digits is repaired.
    expect(scanVatIds('VAT ID: DEI 36695977')).toEqual([]);
    expect(scanVatIds('VAT ID: DKI2345678')).toEqual([]);
  });
});

describe('codes', () => {
  it("counts a currency symbol as the amounts' currency only where it marks an amount or a column", () => {
    // A scan reads stray marks between a position number and an article number as "$".
    expect(amountCurrenciesIn('1 $ 1 KR3M 55T01 Kunstrasen grün 3m breit 3,00 m² 4,00 12,00 19', ',')).toEqual([]);
    expect(amountCurrenciesIn('Total $4.11 / 12.00 $ / 4.11 €', '.').sort()).toEqual(['EUR', 'USD', 'USD']);
    expect(amountCurrenciesIn('Einzel/€  Gesamt (€)  Preis in £  Betrag EUR', ',').sort()).toEqual(['EUR', 'EUR', 'EUR', 'GBP']);
    // A label's value keeps its symbol: that is currenciesIn.
    expect(currenciesIn('Währung: €')).toEqual(['EUR']);
  });

  it('normalises currencies, countries, units, VAT categories and document types', () => {
    expect(currenciesIn('1.234,56 € / USD 12.00 / 3 Euro')).toEqual(['EUR', 'USD', 'EUR']);
    expect(countryOfLine('Deutschland')).toBe('DE');
    expect(countryOfLine('Deutschland / Germany')).toBe('DE');
    expect(countryOfLine('Pays-Bas')).toBe('NL');
    // Countries as Italian and Dutch invoices name them.
    expect(['Germania', 'Paesi Bassi', 'Regno Unito', 'Verenigd Koninkrijk', 'Denemarken'].map(countryOfLine)).toEqual([
      'DE',
      'NL',
      'GB',
      'GB',
      'DK',
    ]);
    expect(['Stk.', 'Std', 'kg', 'm²', 'Liter(s)', 'pauschal'].map(unitCode)).toEqual(['C62', 'HUR', 'KGM', 'MTK', 'LTR', 'LS']);
    expect(vatCategoryOf('0', 'Steuerschuldnerschaft des Leistungsempfängers')).toBe('AE');
    expect(vatCategoryOf('0', 'livraison intracommunautaire')).toBe('K');
    // Germany's zero rate for solar installations names its category; so does zero rating in English.
    expect(
      ['Nullsteuersatz gemäß § 12 Abs. 3 UStG.', 'Photovoltaikanlage (§ 12 Abs. 3 UStG)', 'Zero-rated supply'].map((t) =>
        vatCategoryOf('0', t),
      ),
    ).toEqual(['Z', 'Z', 'Z']);
    // Dutch, Italian and Spanish notes; "la presente fattura" and "uitvoering" name no exemption or export.
    expect(
      ['Vrijgesteld van btw.', 'Operazione esente IVA.', 'Factura exenta de IVA', 'Btw verlegd.', 'Inversione contabile.'].map((t) =>
        vatCategoryOf('0', t),
      ),
    ).toEqual(['E', 'E', 'E', 'AE', 'AE']);
    expect(['Uitvoer, 0% btw', 'Intracommunautaire levering', 'Operazione fuori campo IVA'].map((t) => vatCategoryOf('0', t))).toEqual([
      'G',
      'K',
      'O',
    ]);
    expect(['La presente fattura', 'Uitvoering van werkzaamheden', 'Afspraak verlegd'].map((t) => vatCategoryOf('0', t))).toEqual([
      undefined,
      undefined,
      undefined,
    ]);
    expect(vatCategoryOf('19', '')).toBe('S');
    // A bare 0 % says nothing of why: exempt, reverse charge, export, zero rated and outside the scope all print it.
    expect(vatCategoryOf('0', 'USt. 0 %')).toBeUndefined();
    expect(documentTypeOf('Gutschrift')).toBe('381');
    expect(documentTypeOf('Korrigierte Rechnung RE-2025-00101-K1')).toBe('384');
    expect(documentTypeOf('Berichtigte Rechnung')).toBe('384');
    expect(documentTypeOf('Gutschrift (Selbstfakturierung)')).toBe('389');
    expect(documentTypeOf('Rechnungskor rektur')).toBe('384');
    expect(documentTypeOf('Facture')).toBe('380');
  });
});

describe('addresses', () => {
  it('reads post code lines of several countries and tells streets from cities', () => {
    expect(parseCityLine('D-63571 Gelnhausen')).toEqual({ postcode: '63571', city: 'Gelnhausen', country: 'DE' });
    expect(parseCityLine('3012 CN Rotterdam')).toEqual({ postcode: '3012 CN', city: 'Rotterdam' });
    expect(parseCityLine('Fremont, CA 94538')).toEqual({ postcode: '94538', city: 'Fremont', country: 'US' });
    expect(parseCityLine('1242 chemin de l’olive')).toBeUndefined();
    // A city with a slash or hyphen is printed whole; only a country after it is split off.
    expect(parseCityLine('2502 Biel/Bienne')).toEqual({ postcode: '2502', city: 'Biel/Bienne' });
    expect(parseCityLine('01067 Dresden-Neustadt')).toEqual({ postcode: '01067', city: 'Dresden-Neustadt' });
    expect(parseCityLine('80333 München - Deutschland')).toEqual({ postcode: '80333', city: 'München', country: 'DE' });
    // Six-digit post codes (India, China, Romania, Singapore …) and Irish Eircodes.
    expect(parseCityLine('654321 Musterort')).toEqual({ postcode: '654321', city: 'Musterort' });
    expect(parseCityLine('D02 XA00 Dublin')).toEqual({ postcode: 'D02 XA00', city: 'Dublin', country: 'IE' });
    // A Dutch post code whose city wrapped to the next line is no post code "1016" in a city "GB".
    expect(parseCityLine('1016 GB')).toBeUndefined();
  });

  it('reads a country line with a region or its code in brackets', () => {
    expect(countryOfLine('Ireland - LEINSTER')).toBe('IE');
    expect(countryOfLine('DE (Deutschland)')).toBe('DE');
    expect(countryOfLine('Germany - BUYER STATE')).toBe('DE');
    expect(countryOfLine('Musterstadt')).toBeUndefined();
  });

  it('keeps a name that begins with a contact or identifier word ("Apex", "Telekom", "Webasto")', () => {
    for (const name of ['Apex Solutions Ltd.', 'Telekom Deutschland GmbH', 'Webasto SE', 'Bankhaus Löbbecke AG', 'Faxwerk KG'])
      expect(parseAddress([name, '123 Business Road', 'EC1A 1BB London'])?.name, name).toBe(name);
    expect(
      parseAddress(['Kunde GmbH', 'Tel.: 0123 456', 'Fax 0123 457', 'Bankverbindung: Sparkasse', 'Hauptweg 1', '10115 Berlin']),
    ).toMatchObject({
      name: 'Kunde GmbH',
      line1: 'Hauptweg 1',
    });
  });

  it('never takes a label whose value stands apart ("Name:") for a line of the address', () => {
    expect(parseAddress(['Nummer: 4711', 'Name:', 'Anschrift:', 'Teststr. 1', '55232 Teststadt'])?.name).not.toMatch(/:$/);
    expect(parseAddress(['Name:', 'ACME GmbH', 'Hauptweg 1', '10115 Berlin'])?.name).toBe('ACME GmbH');
  });

  it('splits an address block into name, street, post code, city and country', () => {
    expect(parseAddress(['Herrn', 'Max Mustermann', 'Musterstr. 11', '12346 Bad Musterhausen', 'Deutschland'])).toEqual({
      name: 'Herrn\nMax Mustermann',
      line1: 'Musterstr. 11',
      postcode: '12346',
      city: 'Bad Musterhausen',
      country: 'DE',
    });
    expect(parseAddress(['Kunde GmbH', 'Kunden-Nr.: 4711', 'Tel. 0123 456', 'Hauptweg 1', '10115 Berlin'])).toEqual({
      name: 'Kunde GmbH',
      identifier: '4711',
      line1: 'Hauptweg 1',
      postcode: '10115',
      city: 'Berlin',
    });
  });

  it.each([
    [
      ['Metallbau Leipzig GmbH & Co. KG', 'Hof 3', 'Pappelallee 15', '12345 Leipzig'],
      ['Pappelallee 15', 'Hof 3'],
    ],
    [
      ['Stadtwerke Kiel', 'Gebäude 4', 'Berliner Str. 2', '24103 Kiel'],
      ['Berliner Str. 2', 'Gebäude 4'],
    ],
    // Printed after the street, the addition stays the second line; a contact person above it is none.
    [
      ['Buyer Company', 'Hans Muster', '456 Buyer Street', 'Suite 200', 'Building B', '67890 Buyer City'],
      ['456 Buyer Street', 'Suite 200', 'Building B'],
    ],
  ])(
    'takes the street for the main address line where an addition is printed above it, as DIN 5008 sets it: %j',
    (rows, [line1, line2, line3]) => {
      const address = parseAddress(rows);
      expect([address?.line1, address?.line2, address?.line3]).toEqual([line1, line2, line3]);
    },
  );

  it('takes no row of a form for an address line: no label carried in, a post code and its town in rows of their own one city line', () => {
    const rows = ['ACME GmbH', 'Adresszeile 1: Musterstraße 1', 'PLZ: 01234', 'Ort: Berlin', 'Ländercode: DE (Deutschland)'];
    expect(JSON.stringify(parseAddress(rows))).not.toMatch(/(?:Adresszeile 1|PLZ|Ort):/);
    // A party's number in a row of its own stays its identifier.
    expect(parseAddress(['Nummer: GE2020211', 'Kunden AG Mitte', 'Kundenstraße 15', '69876 Frankfurt'])).toMatchObject({
      identifier: 'GE2020211',
      line1: 'Kundenstraße 15',
    });
    expect(parseAddress(['ACME GmbH', 'Musterstraße 1', '01234', 'Berlin'])).toMatchObject({
      line1: 'Musterstraße 1',
      postcode: '01234',
      city: 'Berlin',
    });
  });

  it('takes the country named after a region line, not the region whose code is also a country', () => {
    // Canton Bern ("BE") is not Belgium; Sachsen names no country, Deutschland does.
    expect(parseAddress(['Seeland Präzisionsteile AG', 'Rue du Lac 12', '2502 Biel/Bienne', 'BE', 'Schweiz'])).toMatchObject({
      city: 'Biel/Bienne',
      country: 'CH',
    });
    expect(parseAddress(['Elektro Brandt KG', 'Karl-Heine-Straße 88', '04229 Leipzig', 'Sachsen', 'Deutschland'])).toMatchObject({
      city: 'Leipzig',
      country: 'DE',
    });
    expect(parseAddress(['Hofladen Kern', 'Am Anger 3', '99084 Erfurt', 'Deutschland'])).toMatchObject({ city: 'Erfurt', country: 'DE' });
    expect(parseAddress(['Maison Dupont', '3 rue de Rivoli', '75001 Paris', 'BE'])).toMatchObject({ country: 'BE' });
  });
});

describe('address blocks', () => {
  it('takes no party label a block took in for the name (a scan sets "Cessionario / committente" on the block\'s line)', () => {
    expect(parseAddress(['Cessionario / committente', 'Hartmann Verlag GmbH', 'Lindenallee 112', '98765 Frankfurt am Main'])).toMatchObject(
      { name: 'Hartmann Verlag GmbH', line1: 'Lindenallee 112', postcode: '98765' },
    );
    // Nor the first word of one that the scan split off ("Billed" | "to").
    expect(parseAddress(['Billed', 'Schulte Beratung e.K.', 'Hauptstraße 1', '10115 Berlin'])).toMatchObject({
      name: 'Schulte Beratung e.K.',
      line1: 'Hauptstraße 1',
    });
  });
});

describe('labels of the totals box', () => {
  it('classifies Italian, Dutch, English, French and German totals labels by what they total', () => {
    const first = (label: string) => classifyTotal(fold(label))[0];
    expect(['Totale righe', 'Totaal regels', 'Sum of lines', 'Items total'].map(first)).toEqual([
      'lineTotal',
      'lineTotal',
      'lineTotal',
      'lineTotal',
    ]);
    expect(['Totale imponibile', 'Imponibile', 'Total without VAT', 'Total sans TVA'].map(first)).toEqual([
      'netTotal',
      'netTotal',
      'netTotal',
      'netTotal',
    ]);
    expect(['Total with VAT', 'Total with tax'].map(first)).toEqual(['grossTotal', 'grossTotal']);
    expect(['Totale imposta', 'Totale IVA'].map(first)).toEqual(['vatTotal', 'vatTotal']);
    expect(['Totale documento', 'Totale IVA inclusa', 'Factuurbedrag', 'Total toutes taxes comprises'].map(first)).toEqual([
      'grossTotal',
      'grossTotal',
      'grossTotal',
      'grossTotal',
    ]);
    expect(['Acconto', 'Già pagato', 'Aanbetaling', 'Voldaan', 'Less payments'].map(first)).toEqual([
      'paid',
      'paid',
      'paid',
      'paid',
      'paid',
    ]);
    // "Importo" holds "porto" (postage): a word inside another word is not a charge.
    expect(
      ['Importo dovuto', 'Netto a pagare', 'Totale da pagare', 'Openstaand bedrag', 'Fälliger Betrag', 'Please pay'].map(first),
    ).toEqual(['due', 'due', 'due', 'due', 'due', 'due']);
    expect(['Rundung', 'Rundungsbetrag', 'Rounding', 'Arrondi'].map(first)).toEqual(['rounding', 'rounding', 'rounding', 'rounding']);
  });
});
