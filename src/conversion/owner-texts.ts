/**
 * What a refused conversion tells the owner of the invoice, in the language the invoice is
 * written in (German, else English): which details to print on the invoice, in the words of a
 * bookkeeper, with the business term for whoever maps them.
 */

export type OwnerLanguage = 'de' | 'en';

/** The owner's language from the analysed page's (src/analysis/implied.ts pageLanguage). */
export const ownerLanguage = (pageLanguage: string | undefined): OwnerLanguage => (pageLanguage === 'de' ? 'de' : 'en');

type Pair = readonly [en: string, de: string];

/** Each business term a conversion may miss, as the detail to add to the invoice. */
const DETAILS: Readonly<Record<string, Pair>> = {
  'BT-1': ['the invoice number', 'die Rechnungsnummer'],
  'BT-2': ['the invoice date', 'das Rechnungsdatum'],
  'BT-5': ['the currency', 'die Währung'],
  'BT-9': [
    'the due date or the payment terms (e.g. "payable within 14 days")',
    'das Fälligkeitsdatum oder die Zahlungsbedingungen (z. B. „zahlbar innerhalb von 14 Tagen“)',
  ],
  'BT-27': ["the seller's name", 'der Name des Verkäufers'],
  'BT-30': ["the seller's VAT ID or company registration number", 'die USt-IdNr. oder Handelsregisternummer des Verkäufers'],
  'BT-31': ["the seller's VAT ID or tax number", 'die USt-IdNr. oder Steuernummer des Verkäufers'],
  'BT-37': ["the seller's city", 'der Ort des Verkäufers'],
  'BT-38': ["the seller's post code", 'die Postleitzahl des Verkäufers'],
  'BT-40': ["the seller's country", 'das Land des Verkäufers'],
  'BT-42': ["the seller's telephone number", 'die Telefonnummer des Verkäufers'],
  'BT-43': ["the seller's e-mail address", 'die E-Mail-Adresse des Verkäufers'],
  'BT-44': ["the buyer's name", 'der Name des Käufers'],
  'BT-52': ["the buyer's city", 'der Ort des Käufers'],
  'BT-53': ["the buyer's post code", 'die Postleitzahl des Käufers'],
  'BT-55': ["the buyer's country", 'das Land des Käufers'],
  'BT-72': ['the delivery date or service period', 'das Liefer- oder Leistungsdatum bzw. der Leistungszeitraum'],
  'BT-81': ['the payment details (an IBAN)', 'die Zahlungsangaben (eine IBAN)'],
  'BT-109': ['the net total', 'der Nettobetrag'],
  'BT-112': ['the total including VAT', 'der Gesamtbetrag (brutto)'],
  'BT-118': [
    'why a rate carries no VAT (exempt, reverse charge, intra-community supply, export)',
    'der Grund, warum ein Satz keine Umsatzsteuer trägt (steuerfrei, Reverse Charge, innergemeinschaftliche Lieferung, Ausfuhr)',
  ],
  'BG-23': [
    'the VAT breakdown (rate, net amount and VAT per rate)',
    'die Aufschlüsselung der Umsatzsteuer (Satz, Nettobetrag und Steuer je Satz)',
  ],
  'BG-25': ['the invoice lines', 'die Rechnungspositionen'],
  'BT-131': ['the net amount of the line', 'der Nettobetrag der Position'],
  'BT-151': ['the VAT rate of the line', 'der Umsatzsteuersatz der Position'],
  'BT-153': ['the name of the item', 'die Bezeichnung der Position'],
};

const pick = (pair: Pair, lang: OwnerLanguage) => (lang === 'de' ? pair[1] : pair[0]);

export function detailOf(bt: string, lang: OwnerLanguage): string {
  const pair = DETAILS[bt];
  return pair ? pick(pair, lang) : bt;
}

/** One missing detail as a field message: what to add, and where when it belongs to a line or a rate. */
export function missingMessage(bt: string, lang: OwnerLanguage, where?: { line?: number; rate?: string }): string {
  const place =
    where?.line !== undefined
      ? pick([`line ${where.line}: `, `Position ${where.line}: `], lang)
      : where?.rate !== undefined
        ? pick([`${where.rate} % rate: `, `Satz ${where.rate} %: `], lang)
        : '';
  const text = pick(
    [
      `${detailOf(bt, lang)} (${bt}) is not on the invoice; please add it`,
      `${detailOf(bt, lang)} (${bt}) fehlt auf der Rechnung; bitte ergänzen`,
    ],
    lang,
  );
  return place ? `${place}${text}` : capitalise(text);
}

/** A detail the scan shows, but too unclearly to put into an e-invoice. */
export function uncertainMessage(bt: string, lang: OwnerLanguage): string {
  return capitalise(
    pick(
      [
        `${detailOf(bt, lang)} (${bt}) could not be read reliably from the scan; please send a clearer scan or the PDF`,
        `${detailOf(bt, lang)} (${bt}) ist im Scan nicht sicher lesbar; bitte senden Sie einen deutlicheren Scan oder das PDF`,
      ],
      lang,
    ),
  );
}

/** A printed total that its parts do not give, in the owner's words. */
export function mismatchMessage(
  bt: string,
  printed: string,
  computed: string,
  how: { en: string; de: string },
  lang: OwnerLanguage,
  line?: number,
): string {
  if (lang === 'de') {
    const place = line !== undefined ? `Position ${line}: ` : '';
    return `${place}${bt} ist mit ${printed} angegeben, ${how.de} aber ${computed}`;
  }
  return `${line !== undefined ? `line ${line}: ` : ''}${bt} printed as ${printed}, but ${how.en} ${computed}`;
}

/** The refusal's userMessage: what is wrong and what to do, naming the details. */
export function refusalSummary(code: string, bts: string[], lang: OwnerLanguage): string | undefined {
  const details = [...new Set(bts)].map((bt) => detailOf(bt, lang));
  switch (code) {
    case 'FIELDS_MISSING':
      return pick(
        [
          `Mandatory details are missing on the invoice: ${details.join('; ')}. Please add them to the invoice and send it again.`,
          `Auf der Rechnung fehlen Pflichtangaben: ${details.join('; ')}. Bitte ergänzen Sie sie und senden Sie die Rechnung erneut.`,
        ],
        lang,
      );
    case 'FIELDS_UNCERTAIN':
      return pick(
        [
          `Some mandatory details could not be read reliably from the scan: ${details.join('; ')}. Please send a clearer scan (300 dpi) or the original PDF.`,
          `Einige Pflichtangaben sind im Scan nicht sicher lesbar: ${details.join('; ')}. Bitte senden Sie einen deutlicheren Scan (300 dpi) oder das Original-PDF.`,
        ],
        lang,
      );
    case 'TOTALS_MISMATCH':
      return pick(
        [
          `The totals printed on the invoice do not match its lines (${[...new Set(bts)].join(', ')}); no e-invoice was created. Please check the amounts, or send a clearer copy.`,
          `Die Summen auf der Rechnung passen nicht zu den Positionen (${[...new Set(bts)].join(', ')}); es wurde keine E-Rechnung erstellt. Bitte prüfen Sie die Beträge oder senden Sie eine besser lesbare Kopie.`,
        ],
        lang,
      );
    case 'ZUGFERD_INVALID':
      return pick(
        [
          `The e-invoice built from the invoice breaks rules of the standard (${bts.join(', ')}); no e-invoice was delivered. Please check the invoice's details against these rules.`,
          `Die aus der Rechnung erstellte E-Rechnung verletzt Regeln der Norm (${bts.join(', ')}); es wurde keine E-Rechnung ausgeliefert. Bitte prüfen Sie die Angaben der Rechnung anhand dieser Regeln.`,
        ],
        lang,
      );
    default:
      return undefined;
  }
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
