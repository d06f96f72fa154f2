import { UNIT_CODES_ALLOWED } from './unit-codes.js';
import { scanNumbers, type DecimalMark } from './numbers.js';
import { fold } from './text.js';

/**
 * Printed words → the code lists EN 16931 uses: ISO 4217 currencies, ISO 3166 countries,
 * UN/ECE Recommendation 20 units, UNTDID 5305 VAT categories, UNTDID 1001 document types.
 */

const ISO_CURRENCIES = new Set(
  'EUR USD GBP CHF SEK NOK DKK PLN CZK HUF RON BGN HRK ISK JPY CNY HKD SGD AUD NZD CAD MXN BRL INR ZAR TRY RUB UAH ILS AED'.split(' '),
);
const CURRENCY_SYMBOLS: Readonly<Record<string, string>> = { '€': 'EUR', $: 'USD', '£': 'GBP', '¥': 'JPY' };

/** Currency codes and symbols in a text, in order; "Euro" counts as EUR. */
export function currenciesIn(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z])([A-Z]{3})(?![A-Za-z])|([€$£¥])|(?<![\p{L}])([Ee]uros?)(?![\p{L}])/gu)) {
    if (m[1] && ISO_CURRENCIES.has(m[1])) out.push(m[1]);
    else if (m[2]) out.push(CURRENCY_SYMBOLS[m[2]]!);
    else if (m[3]) out.push('EUR');
  }
  return out;
}

/** "Betrag (€)", "Einzel/€", "Preis in €": a symbol as a column's unit. */
const COLUMN_UNIT = /(?:[/(]|\bin)\s*([€$£¥])/giu;

/**
 * The currencies a page's amounts are printed in: codes and words as `currenciesIn`, but a
 * symbol only where it marks an amount ("4,11 €", "$4.11") or a column ("Betrag (€)"). A scan
 * reads stray marks as "$" or "€" between a position number and an article number; counted, two
 * of them outvote the one "EUR" of a page.
 */
export function amountCurrenciesIn(text: string, mark: DecimalMark): string[] {
  // A code beside an amount ("11718.8 EUR") is counted with the page's other codes.
  const amounts = scanNumbers(text, mark).flatMap((n) => {
    const code = n.symbol && CURRENCY_SYMBOLS[n.symbol];
    return code && n.decimals >= 2 ? [code] : [];
  });
  const columns = [...text.matchAll(COLUMN_UNIT)].map((m) => CURRENCY_SYMBOLS[m[1]!]!);
  return [...currenciesIn(text.replace(/[€$£¥]/gu, ' ')), ...amounts, ...columns];
}

const COUNTRY_NAMES: ReadonlyArray<[string, string[]]> = [
  ['DE', ['deutschland', 'germany', 'allemagne', 'duitsland', 'germania', 'alemania', 'bundesrepublik deutschland', 'brd']],
  ['AT', ['osterreich', 'oesterreich', 'austria', 'autriche', 'oostenrijk']],
  ['CH', ['schweiz', 'switzerland', 'suisse', 'svizzera', 'zwitserland']],
  ['FR', ['france', 'frankreich', 'frankrijk', 'francia']],
  ['ES', ['spain', 'spanien', 'espagne', 'espana', 'spanje', 'spagna']],
  ['IT', ['italy', 'italien', 'italie', 'italia', 'italie']],
  ['NL', ['netherlands', 'the netherlands', 'niederlande', 'pays-bas', 'nederland', 'holland', 'paesi bassi', 'olanda']],
  ['BE', ['belgium', 'belgien', 'belgique', 'belgie', 'belgio']],
  ['LU', ['luxembourg', 'luxemburg', 'lussemburgo']],
  [
    'GB',
    [
      'united kingdom',
      'uk',
      'great britain',
      'grossbritannien',
      'vereinigtes konigreich',
      'royaume-uni',
      'regno unito',
      'verenigd koninkrijk',
      'england',
    ],
  ],
  ['IE', ['ireland', 'irland', 'irlande', 'irlanda', 'ierland']],
  ['US', ['usa', 'united states', 'united states of america', 'vereinigte staaten', 'etats-unis', 'stati uniti', 'verenigde staten']],
  ['PL', ['poland', 'polen', 'pologne', 'polonia']],
  ['CZ', ['czech republic', 'czechia', 'tschechien', 'republique tcheque', 'repubblica ceca', 'tsjechie']],
  ['DK', ['denmark', 'danemark', 'danimarca', 'denemarken']],
  ['SE', ['sweden', 'schweden', 'suede', 'svezia', 'zweden']],
  ['NO', ['norway', 'norwegen', 'norvege', 'norvegia', 'noorwegen']],
  ['FI', ['finland', 'finnland', 'finlande', 'finlandia']],
  ['PT', ['portugal', 'portogallo']],
  ['GR', ['greece', 'griechenland', 'grece', 'grecia', 'griekenland']],
  ['HU', ['hungary', 'ungarn', 'hongrie', 'ungheria', 'hongarije']],
  ['HK', ['hong kong', 'hongkong']],
  ['CN', ['china', 'chine']],
  ['JP', ['japan', 'japon']],
  ['CA', ['canada', 'kanada']],
  ['MC', ['monaco']],
  // France's overseas departments have ISO codes of their own, which EN 16931 invoices use.
  ['RE', ['reunion', 'la reunion', 'ile de la reunion']],
  ['GP', ['guadeloupe']],
  ['MQ', ['martinique']],
  ['GF', ['guyane', 'guyane francaise', 'french guiana']],
  ['YT', ['mayotte']],
  ['LI', ['liechtenstein']],
];
const COUNTRY_OF = new Map(COUNTRY_NAMES.flatMap(([code, names]) => names.map((n) => [n, code] as const)));
const COUNTRY_CODES = new Set(COUNTRY_NAMES.map(([c]) => c));

/**
 * The member states, with France's overseas departments and Monaco, which French VAT law
 * covers too: a seller registered anywhere else charges no EU VAT.
 */
export const EU_VAT_AREA: ReadonlySet<string> = new Set([
  'AT',
  'BE',
  'BG',
  'CY',
  'CZ',
  'DE',
  'DK',
  'EE',
  'ES',
  'FI',
  'FR',
  'GR',
  'HR',
  'HU',
  'IE',
  'IT',
  'LT',
  'LU',
  'LV',
  'MT',
  'NL',
  'PL',
  'PT',
  'RO',
  'SE',
  'SI',
  'SK',
  'GP',
  'MQ',
  'GF',
  'RE',
  'YT',
  'MC',
]);

/** A whole line naming a country ("Deutschland", "Germany", "DE"), or undefined. */
export function countryOfLine(text: string): string | undefined {
  const key = fold(text)
    .replace(/[.,;]+$/, '')
    .trim();
  if (COUNTRY_OF.has(key)) return COUNTRY_OF.get(key);
  if (/^[A-Z]{2}$/.test(text.trim()) && COUNTRY_CODES.has(text.trim())) return text.trim();
  // "Deutschland / Germany", "DE (Deutschland)", "Ireland - LEINSTER": a part names it, in words or as its code.
  for (const part of text.split(/\s*[/|()]\s*|\s+[-\u2013]\s+/)) {
    const k = fold(part)
      .replace(/[.,;]+$/, '')
      .trim();
    if (COUNTRY_OF.has(k)) return COUNTRY_OF.get(k);
    if (/^[A-Z]{2}$/.test(part.trim()) && COUNTRY_CODES.has(part.trim())) return part.trim();
  }
  return undefined;
}

/** Letter prefixes of post codes ("D-80333", "F-75001", "CH-8001") used before the EU harmonised ISO ones. */
const POSTCODE_PREFIX: Readonly<Record<string, string>> = {
  D: 'DE',
  A: 'AT',
  F: 'FR',
  B: 'BE',
  L: 'LU',
  I: 'IT',
  E: 'ES',
  NL: 'NL',
  CH: 'CH',
  FL: 'LI',
  P: 'PT',
  DK: 'DK',
  S: 'SE',
  N: 'NO',
  PL: 'PL',
  CZ: 'CZ',
};

export function countryOfPostcodePrefix(prefix: string): string | undefined {
  const p = prefix.toUpperCase();
  return POSTCODE_PREFIX[p] ?? (COUNTRY_CODES.has(p) ? p : undefined);
}

/** The code pieces are read as: C62 ("one"), the code most e-invoices use for them, though some use H87 or XPP. */
export const UNIT_PIECE = 'C62';

/** Printed unit → UN/ECE Rec. 20. Pieces are C62 ("one"), the code most e-invoices use for them. */
const UNITS: ReadonlyArray<[string, string[]]> = [
  [
    'C62',
    [
      'stk',
      'stck',
      'stuck',
      'st',
      'pcs',
      'pc',
      'piece',
      'pieces',
      'pce',
      'unit',
      'units',
      'unit(s)',
      'unite',
      'unites',
      'unite(s)',
      'u',
      'ea',
      'each',
      'anzahl',
      'stueck',
      'stuks',
      'stuk',
      'pz',
      'pezzi',
      'pezzo',
    ],
  ],
  ['H87', ['piece(s)']],
  ['KGM', ['kg', 'kilogramm', 'kilogram', 'kilogrammes', 'kilo']],
  ['GRM', ['g', 'gramm', 'gram', 'grammes']],
  ['TNE', ['t', 'tonne', 'tonnen', 'tonnes']],
  ['LTR', ['l', 'ltr', 'liter', 'litre', 'litres', 'liters', 'liter(s)', 'litre(s)', 'litri', 'litro']],
  ['MLT', ['ml']],
  ['MTR', ['m', 'meter', 'metre', 'metres', 'lfm']],
  ['MTK', ['m2', 'm²', 'qm', 'quadratmeter', 'sqm', 'mq']],
  ['MTQ', ['m3', 'm³', 'cbm', 'kubikmeter', 'mc']],
  ['KMT', ['km', 'kilometer']],
  ['HUR', ['h', 'std', 'stunde', 'stunden', 'std.', 'hour', 'hours', 'hr', 'hrs', 'heure', 'heures', 'uur', 'ore', 'ora']],
  ['MIN', ['min', 'minute', 'minuten', 'minutes']],
  ['DAY', ['tag', 'tage', 'day', 'days', 'jour', 'jours', 'dag', 'dagen', 'giorno', 'giorni', 'gg']],
  ['WEE', ['woche', 'wochen', 'week', 'weeks', 'semaine']],
  ['MON', ['monat', 'monate', 'month', 'months', 'mois', 'maand', 'maanden', 'mnd', 'mon', 'mese', 'mesi']],
  ['ANN', ['jahr', 'jahre', 'year', 'years', 'an', 'annee', 'yr', 'jaar', 'jaren', 'anno', 'anni']],
  ['KWH', ['kwh']],
  ['KWT', ['kw']],
  ['LS', ['pauschal', 'psch', 'pausch', 'pauschale', 'lump sum', 'forfait', 'ls']],
  ['SET', ['set', 'sets', 'satz']],
  ['PR', ['paar', 'pair', 'pairs', 'paire']],
  ['XBX', ['karton', 'box', 'boxes', 'carton']],
  ['XBO', ['flasche', 'flaschen', 'bottle', 'bottles', 'bouteille']],
  ['XPX', ['palette', 'pallet', 'paletten']],
  ['CT', ['kiste', 'kisten', 'crate']],
];
const UNIT_OF = new Map(UNITS.flatMap(([code, names]) => names.map((n) => [n, code] as const)));
const REC20 = /^[A-Z0-9]{2,3}$/;
const UNIT_CODES = new Set(UNITS.map(([c]) => c));

/** A printed unit word, or a printed code, that names a unit this reader knows ("Stk", "kg", "H87"). */
export function knownUnit(text: string): string | undefined {
  const key = fold(text).replace(/\.$/, '').trim();
  if (UNIT_OF.has(key)) return UNIT_OF.get(key);
  const upper = text.trim().toUpperCase();
  return REC20.test(upper) && (UNIT_CODES.has(upper) || /^(H87|C62|EA|XPP|XBX|E48|P1)$/.test(upper)) ? upper : undefined;
}

/**
 * A printed unit as its code: a known word or code, or any code EN 16931 allows printed as such,
 * in capitals ("RM" for reams, "XBC-" as a visualisation sets a crate of bottles). Only as
 * printed: a misread word is repaired to a known one (knownUnit), and "rm" is no "RM".
 */
export function unitCode(text: string): string | undefined {
  const code = text.trim().replace(/-$/, '');
  return knownUnit(text) ?? (REC20.test(code) && UNIT_CODES_ALLOWED.has(code) ? code : undefined);
}

/**
 * The unit an item's name gives where none is printed beside its quantity: a unit word in
 * brackets closing the name, or after "pro", "per", "je", "par" ("Künstlerische Gestaltung
 * (Stunde)", "Heiße Luft pro Liter", "Design (hours)"). A bracketed quantity is the package's
 * size, not the unit ("Schrauben (1 kg)"), and one bracketed capital is a VAT category ("(S)", "(G)").
 */
export function unitNamedIn(name: string): string | undefined {
  const closing = /(?:\(\s*(\p{L}[\p{L}.]+)\s*\)|\b(?:pro|per|je|par)\s+(\p{L}[\p{L}.]+))\s*:?$/u.exec(name.trim());
  const word = closing?.[1] ?? closing?.[2];
  return word === undefined ? undefined : knownUnit(word);
}

/** A VAT category code printed in brackets beside a rate: "VAT (E)", "TVA (AE)". */
export const PRINTED_CATEGORY = /\((S|Z|E|AE|K|G|O|L|M)\)/;
/** …or right after the rate or a VAT word: "0 %AE", "19 %S19", "VAT S19", "VAT AE". */
const CATEGORY_AFTER = /(?:%\s?|\b(?:VAT|USt|MwSt|TVA|BTW|IVA)\s)(S|Z|E|AE|K|G|O|L|M)(?:\d{1,2})?(?![\p{L}\d])/u;

export function printedCategory(text: string): string | undefined {
  return PRINTED_CATEGORY.exec(text)?.[1] ?? CATEGORY_AFTER.exec(text)?.[1];
}

/**
 * Words that tell why a line carries no VAT, by UNTDID 5305 category, in the order they are
 * tried: a reverse-charge note may also call the supply exempt, never the other way round.
 */
export const CATEGORY_WORDS: ReadonlyArray<[category: string, words: RegExp]> = [
  [
    'AE',
    /reverse charge|steuerschuldnerschaft|autoliquidation|leistungsempfanger schuldet|§ ?13b|btw[- ]verlegd|verlegd: btw|verleggingsregeling|inversione contabile|inversion del sujeto pasivo/,
  ],
  ['K', /innergemeinschaftlich|intra-?community|intracommunautaire|intra-?eu|ig-lieferung|intracommunautair|intracomunitari/],
  ['G', /ausfuhr|export|esportazion|\buitvoer\b/],
  ['O', /nicht steuerbar|not subject|hors champ|non soumis|fuori campo|niet onderworpen|no sujet/],
  // Germany's zero rate for solar installations (§ 12 Abs. 3 UStG, since 2023), and zero rating elsewhere.
  ['Z', /nullsteuersatz|nullsatz|§ ?12 abs\.? ?3 ustg|zero[- ]rated|taux (?:de )?(?:tva )?zero|nultarief|aliquota zero/],
  [
    'E',
    /steuerfrei|steuerbefreit|tax exempt|exempt|exonere|exoneration|§ ?4 |umsatzsteuerbefreit|kleinunternehmer|§ ?19 ?(?:abs\.? ?1 )?ustg|franchise en base|vrijgesteld|\besente\b|\bexent[oa]\b/,
  ],
];

/**
 * The category the words of a text give; for a text without such words, S for a positive
 * rate. A 0 % without words is left open: exempt, reverse charge, export, zero rated and
 * outside the scope all print 0 %, and the rest of the page decides (implied.ts).
 */
export function vatCategoryOf(rate: string | undefined, context: string): string | undefined {
  const t = fold(context);
  const named = CATEGORY_WORDS.find(([, words]) => words.test(t))?.[0];
  if (named || rate === undefined) return named;
  return Number(rate) > 0 ? 'S' : undefined;
}

/**
 * Title words → UNTDID 1001, most specific first. Only the kinds a reader can tell apart on
 * the page by their printed name.
 */
const DOCUMENT_TYPES: ReadonlyArray<[string, RegExp]> = [
  ['751', /buchungshilfe|keine rechnung|not an invoice|invoice information for accounting/],
  ['389', /selbst ?ausgestellte rechnung|self-?bill(?:ed|ing)|selbstfakturierung|autofacturation|gutschriftsverfahren|autofattur/],
  ['575', /rechnung des versicherers|versicherungsrechnung|insurer'?s invoice|facture d'assureur/],
  ['387', /mietrechnung|hire invoice|rental invoice|facture de location/],
  ['386', /vorauszahlungsrechnung|anzahlungsrechnung|prepayment invoice|facture d'acompte/],
  [
    '384',
    /korrektur|(?:korrigierte|berichtigte) rechnung|rechnungsberichtigung|corrected invoice|facture rectificative|facture corrective|corrective invoice|correctiefactuur|gecorrigeerde factuur|stornorechnung|fattura (?:di )?rettific/,
  ],
  ['381', /gutschrift|credit ?note|avoir|creditnota|credit memo|nota di credito/],
  ['380', /rechnung|invoice|facture|factuur|faktura|fattura/],
];

/** The UNTDID 1001 codes EN 16931 allows for an invoice or credit note (BT-3). */
export const INVOICE_TYPE_CODES: ReadonlySet<string> = new Set(
  '71 80 81 82 83 84 102 130 202 203 204 211 218 219 261 262 295 296 308 325 326 331 380 381 382 383 384 385 386 387 388 389 390 393 394 395 396 420 456 457 458 527 532 553 575 623 633 751 780 817 870 875 876 877 935'.split(
    ' ',
  ),
);

/**
 * Kinds of invoice that UNTDID 1001 codes apart (partial 326, construction 875 to 877, payment
 * valuation 204), each with the codes it may stand for, but that issuers also send as plain 380:
 * the ZUGFeRD samples code a "Baurechnung" 204 and a "Teilrechnung" 380. The page cannot tell
 * which code its issuer meant.
 */
const UNSURE_KINDS: ReadonlyArray<[RegExp, readonly string[]]> = [
  [/teilschlussrechnung/, ['876']],
  [/schlussrechnung|final invoice|facture de solde|eindfactuur/, ['877']],
  [/abschlagsrechnung|zwischenrechnung|progress invoice|interim invoice|facture de situation|situation de travaux/, ['875', '326']],
  [/baurechnung|aufmass|construction invoice/, ['875', '876', '877', '204']],
  [/payment valuation/, ['204']],
  [/teilrechnung|partial invoice|facture partielle|deelfactuur/, ['326']],
];

/** The codes a title's kind may stand for besides 380, where the page cannot settle which (none for other titles). */
export function unsureKindCodes(title: string): readonly string[] | undefined {
  const t = fold(title);
  const squeezed = t.replace(/\s+/g, '');
  return UNSURE_KINDS.find(([re]) => re.test(t) || re.test(squeezed))?.[1];
}

export function documentTypeOf(title: string): string | undefined {
  const t = fold(title);
  // Some writers space letters apart inside words ("Rechnungskor rektur"): try both forms.
  const squeezed = t.replace(/\s+/g, '');
  return DOCUMENT_TYPES.find(([, re]) => re.test(t) || re.test(squeezed))?.[0];
}
