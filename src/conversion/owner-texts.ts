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
  'BT-3': ['the document type (invoice or credit note)', 'die Art des Dokuments (Rechnung oder Gutschrift)'],
  'BT-5': ['the currency', 'die Währung'],
  'BT-9': [
    'the due date or the payment terms (e.g. "payable within 14 days")',
    'das Fälligkeitsdatum oder die Zahlungsbedingungen (z. B. „zahlbar innerhalb von 14 Tagen“)',
  ],
  'BT-10': ["the buyer's reference", 'die Käuferreferenz'],
  'BT-12': ['the contract reference', 'die Vertragsnummer'],
  'BT-13': ['the order number', 'die Bestellnummer'],
  'BT-20': ['the payment terms', 'die Zahlungsbedingungen'],
  'BT-27': ["the seller's name", 'der Name des Verkäufers'],
  'BT-30': ["the seller's VAT ID or company registration number", 'die USt-IdNr. oder Handelsregisternummer des Verkäufers'],
  'BT-31': ["the seller's VAT ID or tax number", 'die USt-IdNr. oder Steuernummer des Verkäufers'],
  'BT-32': ["the seller's tax number", 'die Steuernummer des Verkäufers'],
  'BT-35': ["the seller's street address", 'die Straße des Verkäufers'],
  'BT-37': ["the seller's city", 'der Ort des Verkäufers'],
  'BT-38': ["the seller's post code", 'die Postleitzahl des Verkäufers'],
  'BT-40': ["the seller's country", 'das Land des Verkäufers'],
  'BT-42': ["the seller's telephone number", 'die Telefonnummer des Verkäufers'],
  'BT-43': ["the seller's e-mail address", 'die E-Mail-Adresse des Verkäufers'],
  'BT-44': ["the buyer's name", 'der Name des Käufers'],
  'BT-46': ["the buyer's customer number", 'die Kundennummer des Käufers'],
  'BT-48': ["the buyer's VAT ID", 'die USt-IdNr. des Käufers'],
  'BT-50': ["the buyer's street address", 'die Straße des Käufers'],
  'BT-52': ["the buyer's city", 'der Ort des Käufers'],
  'BT-53': ["the buyer's post code", 'die Postleitzahl des Käufers'],
  'BT-55': ["the buyer's country", 'das Land des Käufers'],
  'BT-72': ['the delivery date or service period', 'das Liefer- oder Leistungsdatum bzw. der Leistungszeitraum'],
  'BT-73': ['the start of the invoicing period', 'der Beginn des Abrechnungszeitraums'],
  'BT-74': ['the end of the invoicing period', 'das Ende des Abrechnungszeitraums'],
  'BT-81': ['the payment details (an IBAN)', 'die Zahlungsangaben (eine IBAN)'],
  'BT-84': ["the seller's IBAN", 'die IBAN des Verkäufers'],
  'BT-86': ["the seller's bank code (BIC)", 'der BIC der Bank des Verkäufers'],
  'BT-106': ['the sum of the line amounts', 'die Summe der Positionsbeträge'],
  'BT-109': ['the net total', 'der Nettobetrag'],
  'BT-110': ['the VAT total', 'der Umsatzsteuerbetrag'],
  'BT-112': ['the total including VAT', 'der Gesamtbetrag (brutto)'],
  'BT-113': ['the amount already paid', 'der bereits gezahlte Betrag'],
  'BT-115': ['the amount due', 'der fällige Betrag'],
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

/** A detail read from the page, but not surely enough to write it into an e-invoice unconfirmed. */
export function unconfirmedMessage(bt: string, lang: OwnerLanguage): string {
  return capitalise(
    pick(
      [
        `${detailOf(bt, lang)} (${bt}) was read, but not with enough certainty to write it into an e-invoice; please confirm it`,
        `${detailOf(bt, lang)} (${bt}) wurde gelesen, aber nicht sicher genug, um es ungeprüft in eine E-Rechnung zu schreiben; bitte bestätigen Sie die Angabe`,
      ],
      lang,
    ),
  );
}

/** The userMessage of a refusal for values read without enough certainty: nothing was written, and what to confirm. */
export function unconfirmedSummary(bts: string[], lang: OwnerLanguage): string {
  const details = [...new Set(bts)].map((bt) => detailOf(bt, lang));
  return pick(
    [
      `Some details could not be read with enough certainty: ${details.join('; ')}. No e-invoice was created, so that no wrong value is written into it. Please confirm these details.`,
      `Einige Angaben konnten nicht sicher genug gelesen werden: ${details.join('; ')}. Es wurde keine E-Rechnung erstellt, damit kein falscher Wert hineingeschrieben wird. Bitte bestätigen Sie diese Angaben.`,
    ],
    lang,
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

/** How a date stands to the other it conflicts with. */
type DateOrder = 'before' | 'after' | 'year-after' | 'year-before';

const DATE_ORDER: Readonly<Record<DateOrder, Pair>> = {
  before: ['is before', 'ist früher als'],
  after: ['is after', 'ist später als'],
  'year-after': ['is more than a year after', 'ist mehr als ein Jahr später als'],
  'year-before': ['is more than a year before', 'ist mehr als ein Jahr früher als'],
};

/** The dates a conflict names (BT-9's detail asks for terms as well, which do not conflict). */
const DATES: Readonly<Record<string, Pair>> = {
  'BT-2': ['the invoice date', 'das Rechnungsdatum'],
  'BT-9': ['the due date', 'das Fälligkeitsdatum'],
  'BT-72': ['the delivery date', 'das Lieferdatum'],
};
const dateOf = (bt: string, lang: OwnerLanguage) => (DATES[bt] ? pick(DATES[bt], lang) : detailOf(bt, lang));

/** Two values read from the invoice that cannot both be right (src/conversion/cross-checks.ts). */
export type Conflict =
  | { kind: 'same-as-other-party'; bt: string; otherBt: string; value: string }
  | { kind: 'not-a-name'; bt: string; value: string; why: 'no-letters' | 'label' | 'title' | 'placeholder' }
  | { kind: 'sign'; bt: string; value: string; typeCode: '380' | '381' }
  | { kind: 'date-order'; bt: string; value: string; otherBt: string; otherValue: string; why: DateOrder }
  | { kind: 'correction-without-invoice'; bt: string; value: string };

const NOT_A_NAME: Readonly<Record<Extract<Conflict, { kind: 'not-a-name' }>['why'], Pair>> = {
  'no-letters': ['has no letters, so it is no name', 'enthält keine Buchstaben, ist also kein Name'],
  label: ['is a label or heading of the invoice, not a name', 'ist eine Beschriftung oder Überschrift der Rechnung, kein Name'],
  title: ["is the document's title, not a name", 'ist der Titel des Dokuments, kein Name'],
  placeholder: [
    'is a placeholder word (such as "logo" or "supplier"), not a name',
    'ist ein Platzhalter (wie „Logo“ oder „Lieferant“), kein Name',
  ],
};

/** One conflict as a field message: both values, and what to check on the invoice. */
export function conflictMessage(c: Conflict, lang: OwnerLanguage): string {
  const own = `${detailOf(c.bt, lang)} (${c.bt})`;
  switch (c.kind) {
    case 'same-as-other-party':
      return capitalise(
        pick(
          [
            `${own} is the same as ${detailOf(c.otherBt, lang)} (${c.otherBt}): "${c.value}"; one was probably read from the other party's block. Please check who is seller and who is buyer on the invoice`,
            `${own} und ${detailOf(c.otherBt, lang)} (${c.otherBt}) sind gleich: „${c.value}“; vermutlich wurde eine Angabe aus dem Block der anderen Partei gelesen. Bitte prüfen Sie, wer auf der Rechnung Verkäufer und wer Käufer ist`,
          ],
          lang,
        ),
      );
    case 'not-a-name':
      return capitalise(
        pick(
          [
            `${own} was read as "${c.value}", which ${NOT_A_NAME[c.why][0]}. Please print the name clearly on the invoice`,
            `${own} wurde als „${c.value}“ gelesen; das ${NOT_A_NAME[c.why][1]}. Bitte drucken Sie den Namen deutlich auf die Rechnung`,
          ],
          lang,
        ),
      );
    case 'sign':
      return c.typeCode === '381'
        ? pick(
            [
              `The invoice is a credit note, but ${detailOf(c.bt, lang)} (${c.bt}) is negative (${c.value}); a credit note states positive amounts. Please check the document type and the signs`,
              `Das Dokument ist eine Gutschrift, aber ${detailOf(c.bt, lang)} (${c.bt}) ist negativ (${c.value}); eine Gutschrift weist positive Beträge aus. Bitte prüfen Sie die Dokumentart und die Vorzeichen`,
            ],
            lang,
          )
        : pick(
            [
              `The invoice is titled as an invoice, but ${detailOf(c.bt, lang)} (${c.bt}) is negative (${c.value}). If it is a credit note, please title it "Credit note"`,
              `Das Dokument ist als Rechnung bezeichnet, aber ${detailOf(c.bt, lang)} (${c.bt}) ist negativ (${c.value}). Ist es eine Gutschrift, bezeichnen Sie es bitte als „Gutschrift“`,
            ],
            lang,
          );
    case 'correction-without-invoice':
      return pick(
        [
          `The invoice is titled as a correction and was read as a corrected invoice (${c.value}), but no number of the invoice it corrects (BT-25) was read. Please confirm the document type, and print the number of the corrected invoice if it is one`,
          `Das Dokument ist als Korrektur bezeichnet und wurde als korrigierte Rechnung (${c.value}) gelesen, aber die Nummer der korrigierten Rechnung (BT-25) wurde nicht gelesen. Bitte bestätigen Sie die Dokumentart und drucken Sie, falls es eine ist, die Nummer der korrigierten Rechnung`,
        ],
        lang,
      );
    case 'date-order': {
      const other = `${dateOf(c.otherBt, lang)} (${c.otherBt}, ${c.otherValue})`;
      const relation = pick(DATE_ORDER[c.why], lang);
      return capitalise(
        pick(
          [
            `${dateOf(c.bt, lang)} (${c.bt}, ${c.value}) ${relation} ${other}; one of the dates was probably misread. Please check both dates on the invoice`,
            `${dateOf(c.bt, lang)} (${c.bt}, ${c.value}) ${relation} ${other}; vermutlich wurde eines der Daten falsch gelesen. Bitte prüfen Sie beide Daten auf der Rechnung`,
          ],
          lang,
        ),
      );
    }
  }
}

/** The userMessage of a refusal for values that contradict each other: nothing was written, and what to check. */
export function conflictSummary(bts: string[], lang: OwnerLanguage): string {
  const details = [...new Set(bts)].map((bt) => dateOf(bt, lang));
  return pick(
    [
      `Some details read from the invoice contradict each other: ${details.join('; ')}. No e-invoice was created, so that no wrong value is written into it. Please check these details on the invoice and send it again.`,
      `Einige aus der Rechnung gelesene Angaben widersprechen sich: ${details.join('; ')}. Es wurde keine E-Rechnung erstellt, damit kein falscher Wert hineingeschrieben wird. Bitte prüfen Sie diese Angaben auf der Rechnung und senden Sie sie erneut.`,
    ],
    lang,
  );
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
