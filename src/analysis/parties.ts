import { countryOfLine, countryOfPostcodePrefix, documentTypeOf } from './codes.js';
import { allSegments, lineOf, pageOf, rightOf, type Doc } from './document.js';
import { isLabel } from './header-fields.js';
import { buildBlocks, type Block, type PageLayout, type Segment } from './layout.js';
import { KEY_VALUE_PARTY_LABELS, PARTY_LABEL_TEXTS, PARTY_LABELS, type KeyValuePartyField, type PartyRole } from './lexicon.js';
import { labelRole } from './sections.js';
import { clean, fold, textKey } from './text.js';
import { isIllegible } from './legibility.js';

/**
 * Seller and buyer by layout. In order of trust:
 *  1. a block headed by a party label ("Rechnungsempfänger", "Bill to", "Vendeur");
 *  2. the sender line above the address window ("ACME GmbH · Weg 1 · 12345 Ort"): the seller;
 *  3. the address window itself (upper left, a post code line inside): the buyer;
 *  4. the letterhead (top) or the footer column holding a post code line: the seller.
 */

export interface Party {
  name?: string;
  /** The party's number as printed in its block (customer number for the buyer). */
  identifier?: string;
  line1?: string;
  /** The lines between the street and the city line ("Suite 100", "Hof 3"): BT-36 / BT-51, and the rest BT-162 / BT-163. */
  line2?: string;
  line3?: string;
  postcode?: string;
  city?: string;
  country?: string;
  score: number;
  via: string;
  /** Where it was printed; VAT ids inside belong to this party. */
  page: number;
  top: number;
  bottom: number;
  x0: number;
  x1: number;
}

export type Parties = Partial<Record<PartyRole, Party>>;

/** Lines that are contact details or identifiers, not address lines; and remarks in brackets ("(Not to be used for payment remittance)"). */
// Whole words only: a name may begin with one ("Apex Solutions", "Bankhaus …", "Webasto").
const NOT_ADDRESS =
  /^(?:(?:tel|fon|phone|fax|e-?mail|mail|web|website|gln|ust|vat|tva|uid|iban|bic|swift|bank|konto|hrb?|siret|siren|rcs|ape|kvk|btw|inhaber|ceo|attn|handelsname|abteilung|department|kontakt|contact|ansprechpartner(?:in)?)\b|telefon|telefax|mobil|www|http|steuer(?:nummer|nr|-nr|-?id|\b)|ust-?id|bankverbindung|kontonummer|amtsgericht|registergericht|geschaftsfuhr|z\.? ?hd|(?:globale |kunden|lieferanten|lief|debitor|kreditor|customer|supplier|client)?[- ]?(?:nummer|nr|no|id|number)\b)|@|www\.|https?:|[\u2709\u260e\u{1F400}-\u{1F4FF}]|^\((?:\S+\s+){2,}\S+\)$/u;

/** A party's own number printed inside its block ("Nummer: GE2020211", "Kunden-Nr.: 009420"). */
const PARTY_NUMBER =
  /^(?:kunden|debitor(?:en)?|customer|client|account)?[- ]?(?:nummer|nr\.?|no\.?|number|id)\s*[:.]?\s*([A-Z0-9][A-Z0-9./-]*\d[A-Z0-9./-]*)$/i;

/** Salutations that belong to a person's name as printed ("Herrn / Max Mustermann"). */
const SALUTATION = /^(?:herrn?|frau|firma|fa\.|mr\.?|mrs\.?|ms\.?|monsieur|madame|m\.|mme|dhr\.?|mevr\.?)$/i;
/** Legal forms: a second name line carrying one is still the name ("Muster / Holding GmbH"). */
export const LEGAL_FORM =
  /\b(?:gmbh|ag|kg|ohg|e\.?\s?k\.?|e\.?\s?v\.?|a\.?\s?g\.?|ug|se|sarl|sas|sa|eurl|ltd|limited|inc|llc|plc|b\.?v\.?|n\.?v\.?|s\.?r\.?l\.?|s\.?p\.?a\.?|co\.?)\b/i;

/** Irish Eircodes ("D02 XA00"): a routing key and four letters and digits. */
const EIRCODE = String.raw`(?:[AC-FHKNPRTV-Y]\d{2}|D6W) (?=[0-9]*[AC-FHKNPRTV-Y])[0-9AC-FHKNPRTV-Y]{4}`;
const EIRCODE_ALONE = new RegExp(`^${EIRCODE}$`);

/**
 * "12345 City", "D-12345 City", "DE 12345 City", "3012 CN City", "75001 Paris Cedex", "654321 City", "D02 XA00 Dublin".
 * A Dutch post code cut from its city ("1016 GB", the city wrapped to the next line) is no "1016" in "GB".
 */
const POSTCODE_LINE = new RegExp(
  String.raw`^(?:([A-Z]{1,3})\s?[-\u2013 ]\s?)?(\d{4}\s?[A-Z]{2}(?=\s)|\d{4,6}|${EIRCODE})\s+(?![A-Z]{2}$)(\p{L}[\p{L}\p{M} .'()/-]*?)(?:\s*[,/-]\s*(\p{L}[\p{L} .-]+))?$`,
  'u',
);
/** "Fremont, CA 94538", "Seattle, WA 98109-5210, US" (US style; the comma is often left out). */
const US_CITY_LINE = /^(\p{L}[\p{L} .'-]+?),?\s+([A-Z]{2})\s+(\d{5}(?:-\d{4})?)(?:,?\s+(?:US|USA|U\.S\.A\.|United States))?$/u;
/** "Yuen Long, N.T., 0000, HK", "Dublin, D02 X285, Ireland": city, region, post code and country, comma-separated. */
const COMMA_CITY_LINE = /^(\p{L}[\p{L} .'-]+?),(?:\s*\p{L}[\p{L} .'-]*,)?\s*([A-Z\d][A-Z\d -]{1,8}[A-Z\d]),\s*(\p{L}[\p{L} .]+)$/u;

/** British post codes come before ("GB SW1B 3BN London") or after the town ("London SW1B 3BN"). */
const UK_POSTCODE = String.raw`[A-Z]{1,2}\d[A-Z\d]? ?\d[A-Z]{2}`;
const UK_CITY_LINES = [
  new RegExp(String.raw`^(?:(?:GB|UK)\s?[-\u2013 ]\s?)?(?<postcode>${UK_POSTCODE})\s+(?<city>\p{L}[\p{L} .'-]*)$`, 'u'),
  new RegExp(String.raw`^(?<city>\p{L}[\p{L} .'-]*?),?\s+(?<postcode>${UK_POSTCODE})$`, 'u'),
];

const UK_POSTCODE_ALONE = new RegExp(String.raw`^(?:(?:GB|UK)\s?[-\u2013 ]\s?)?${UK_POSTCODE}$`, 'u');

/**
 * British addresses print the post town and the post code on lines of their own ("London" /
 * "SW1B 3BN"), forms print a post code and a town in rows of their own ("01234" / "Berlin"): one
 * city line.
 */
function joinPostTown(lines: string[]): string[] {
  const out: string[] = [];
  const town = (l: string) => /^\p{L}[\p{L} .'-]*$/u.test(clean(l)) && !parseCityLine(l);
  for (const l of lines) {
    const prev = out.at(-1);
    const british = prev !== undefined && UK_POSTCODE_ALONE.test(clean(l)) && town(prev);
    const form = prev !== undefined && /^\d{4,5}$/.test(clean(prev)) && town(l) && countryOfLine(l) === undefined;
    if (british || form) out[out.length - 1] = `${clean(prev!)} ${clean(l)}`;
    else out.push(l);
  }
  return out;
}

interface CityLine {
  postcode: string;
  city: string;
  country?: string;
}

/** Street words: "1242 chemin de l'olive" and "4557 De Silva St" start with a number but are streets. */
const STREET_WORD =
  /\b(?:rue|chemin|avenue|av|boulevard|bd|allee|impasse|place|quai|route|cours|street|st|road|rd|lane|ln|way|drive|dr|avenue|ave|strasse|str|weg|gasse|platz|ring|damm|ufer|chaussee|straat|laan|plein)\b\.?/;

/**
 * A street named (a line with a number besides): a street word ("14 rue des Fabriques"), or a
 * German or Dutch compound's street ending before its number ("Pappelallee 15", "Hauptstr. 5").
 */
const NAMED_STREET = new RegExp(
  `${STREET_WORD.source}|[a-z](?:strasse|str\\.|weg|allee|gasse|platz|ring|damm|ufer|chaussee|straat|laan|plein)\\s*\\d`,
);

export function parseCityLine(text: string): CityLine | undefined {
  const t = clean(text);
  const m = POSTCODE_LINE.exec(t);
  if (m && !STREET_WORD.test(fold(m[3]!))) {
    const country =
      (m[1] && countryOfPostcodePrefix(m[1])) || (m[4] && countryOfLine(m[4])) || (EIRCODE_ALONE.test(m[2]!) ? 'IE' : undefined);
    // "80333 München - Deutschland": the tail is a country; otherwise the city is all of it, as printed ("2502 Biel/Bienne").
    const city = m[4] && !countryOfLine(m[4]) ? t.slice(t.indexOf(m[2]!) + m[2]!.length) : m[3]!;
    return { postcode: m[2]!, city: city.trim(), ...(country ? { country } : {}) };
  }
  const us = US_CITY_LINE.exec(t);
  if (us) return { postcode: us[3]!, city: us[1]!.trim(), country: 'US' };
  const comma = COMMA_CITY_LINE.exec(t);
  const commaCountry = comma && /\d/.test(comma[2]!) ? countryOfLine(comma[3]!) : undefined;
  if (commaCountry) return { postcode: comma![2]!, city: comma![1]!.trim(), country: commaCountry };
  for (const re of UK_CITY_LINES) {
    const uk = re.exec(t)?.groups;
    if (uk) return { postcode: uk.postcode!, city: uk.city!.trim(), country: 'GB' };
  }
  return undefined;
}

/** Name, street, post code, city and country from the lines of an address block (`nameless`: it starts with the street). */
export function parseAddress(
  lines: string[],
  nameless = false,
): Omit<Party, 'score' | 'via' | 'page' | 'top' | 'bottom' | 'x0' | 'x1'> | undefined {
  // A party's label a block took in ("Cessionario / committente" beside the letterhead on a scan) is no line of the address.
  // A label whose value is printed apart ("Name:") is no line of it either.
  const all = lines
    .map((l) => clean(l.replace(/^(?:attn|z\.? ?hd\.?)\s*:?\s*/i, '')))
    .filter((l) => l !== '' && !isPartyLabel(l) && !/:$/.test(l) && !labelledField(l));
  const identifier = all.map((l) => PARTY_NUMBER.exec(l)?.[1]).find((v) => v !== undefined);
  // Identifier and contact lines may come before the name (rendered forms print "Nummer: …" first).
  const rows = joinPostTown(all.filter((l, i) => i === all.length - 1 || !NOT_ADDRESS.test(fold(l)) || parseCityLine(l) !== undefined));
  if (rows.length === 0) return undefined;
  const postal = rows.findIndex((l, i) => (nameless || i > 0) && parseCityLine(l) !== undefined);
  const cityAt = postal >= 0 ? postal : townBeforeCountry(rows, nameless);
  const nameLines = nameless ? 0 : nameLinesOf(rows, cityAt);
  // A name wrapped in a narrow column reads on as one line; a salutation or a second name line stays a line of its own.
  const name = nameLines === 2 && wraps(rows[0]!, rows[1]!) ? `${rows[0]} ${rows[1]}` : rows.slice(0, nameLines).join('\n');
  const withId = { ...(identifier ? { identifier } : {}), ...(name ? { name } : {}) };
  if (cityAt < 0) return nameless ? undefined : { name, ...withId };
  const cityLine: Omit<CityLine, 'postcode'> & { postcode?: string } = parseCityLine(rows[cityAt]!) ?? { city: clean(rows[cityAt]!) };
  const between = rows.slice(nameLines, cityAt);
  const country = cityLine.country ?? addressEnd(rows, cityAt).country;
  const out: ReturnType<typeof parseAddress> = {
    ...(cityLine.postcode ? { postcode: cityLine.postcode } : {}),
    city: cityLine.city,
    ...withId,
  };
  const [line1, ...further] = addressLines(between);
  if (line1 !== undefined) out.line1 = line1;
  if (further.length > 0) out.line2 = further[0];
  if (further.length > 1) out.line3 = further.slice(1).join(', ');
  if (country) out.country = country;
  return out;
}

/**
 * A row of a key–value form that an address block took in ("Ort: Berlin", "PLZ: 01234"): its
 * value belongs to the field its label names, which the key–value reader reads; as a line of an
 * address it would carry its label into the e-invoice.
 */
function labelledField(line: string): boolean {
  const label = /^([^:]{1,30}):\s*\S/.exec(line)?.[1];
  return label !== undefined && KEY_VALUE_PARTY_LABELS.some(([field, re]) => ADDRESS_FIELDS.has(field) && re.test(fold(label).trim()));
}

/** The rows of a form that hold a part of the address (an identifier's row is read by its label, PARTY_NUMBER). */
const ADDRESS_FIELDS = new Set<KeyValuePartyField>(['street', 'line2', 'postcode', 'city', 'country']);

/**
 * The lines between a name and its city line, main line first. The main line is the street: a
 * line that names one with its number ("Pappelallee 15"), else the first that looks like a street
 * (a house number or a street word). Lines before the first such are contact persons and left
 * out; the others (building, floor, yard) follow in printed order, whether printed before the
 * street, as DIN 5008 sets them ("Hof 3" over "Pappelallee 15"), or after it ("Suite 100").
 */
function addressLines(between: string[]): string[] {
  const first = Math.max(
    0,
    between.findIndex((l) => /\d/.test(l) || STREET_WORD.test(fold(l))),
  );
  const named = between.findIndex((l, i) => i >= first && /\d/.test(l) && NAMED_STREET.test(fold(l)));
  const street = named >= 0 ? named : first;
  return [between[street]!, ...between.slice(first).filter((_, i) => first + i !== street)].filter((l) => l !== undefined);
}

/**
 * Where a country has no post codes (Hong Kong, Ireland before Eircode, the Gulf states) an
 * address ends with its town and the country: the town is the line before a last line that
 * names a country, after at least a name and a street.
 */
function townBeforeCountry(rows: string[], nameless: boolean): number {
  const at = rows.length - 2;
  // A town line with a number in it is a post code line this reader could not parse, not a town alone.
  return at >= (nameless ? 1 : 2) &&
    countryOfLine(rows.at(-1)!) !== undefined &&
    countryOfLine(rows[at]!) === undefined &&
    !/\d/.test(rows[at]!)
    ? at
    : -1;
}

/** How many leading lines form the name: one, or two after a salutation or when the second carries the legal form. */
function nameLinesOf(rows: string[], cityAt: number): number {
  const limit = cityAt < 0 ? rows.length : cityAt - 1;
  if (limit < 2) return 1;
  if (SALUTATION.test(rows[0]!) || wraps(rows[0]!, rows[1]!)) return 2;
  if (!LEGAL_FORM.test(rows[0]!) && LEGAL_FORM.test(rows[1]!)) return 2;
  return 1;
}

/** "Roth Bürotechnik GmbH &" / "Co. KG", "Brandt Medizintechnik UG" / "(haftungsbeschränkt)": one name broken over two lines. */
function wraps(first: string, second: string): boolean {
  return /(?:[&+]|\b(?:und|and|et|en))$/i.test(first.trim()) || /^(?:\(haftungsbeschr|&\s*co\b|co\.\s*(?:kg|ohg)\b)/i.test(second.trim());
}

/** A heading over an address ("Adresse de l'installation", "Delivery address", "Name:"): a label, never a party's name. */
const ADDRESS_HEADING = /^(?:adresse|address|anschrift|adres|name|nom|naam)\b|\b(?:adresse|address|anschrift|adres)\s*:?$/;

/** A document's title over the block ("RECHNUNG", "Fattura differita", "Tax invoice"): never a party's name. */
function isTitle(line: string): boolean {
  return documentTypeOf(line) !== undefined && !LEGAL_FORM.test(line) && line.trim().split(/\s+/).length <= 3;
}

/** A party's label, or the first words of one a scan broke apart ("Billed" of "Billed to"). */
function isPartyLabel(line: string): boolean {
  const bare = fold(line)
    .trim()
    .replace(/[:.]+$/, '');
  return PARTY_LABELS.some(([, re]) => re.test(bare) || re.test(bare.replace(/\s+/g, ''))) || LABEL_STARTS.has(bare);
}
const LABEL_STARTS: ReadonlySet<string> = new Set(
  Object.values(PARTY_LABEL_TEXTS)
    .flat()
    .map((t) => fold(t).split(/\s+/))
    .filter((words) => words.length > 1)
    .flatMap((words) => words.slice(1).map((_, k) => words.slice(0, k + 1).join(' '))),
);

/** Lines over an address that head it: a party's label, a field label, a document title. */
export function isHeading(line: string): boolean {
  return isPartyLabel(line) || isTitle(line) || isLabel(line);
}

/** Street words also written as the end of a compound ("Lieferantenstraße 20", "Keizersgracht 100"). */
const STREET_END = /(?:strasse|str\.?|weg|gasse|platz|allee|damm|ufer|straat|laan|plein|gracht|kade|steeg)$/;
// "Am Markt 82", "An der Kirche 3", "Im Winkel 2", "Zum See 4": German streets named by a preposition.
const STREET_START =
  /^(?:via|viale|piazza|piazzale|corso|vicolo|largo|am|an der|an den|im|in der|in den|auf der|auf dem|zum|zur|hinter der|unter den)\b/;

/** "Lieferantenstraße 20", "12 rue des Lilas", "Via Roma 1": a street and house number, never a name. */
export function isStreet(line: string): boolean {
  const t = fold(clean(line));
  if (!/\d/.test(t) || LEGAL_FORM.test(line)) return false;
  const words = t.replace(/\s*\d+\s*[a-z]?(?:\s*[-/]\s*\d+\s*[a-z]?)?\s*$/, '').trim();
  // Street starts and ends count with a house number at the end ("am 12.03." is no street).
  return STREET_WORD.test(t) || (words !== t && (STREET_START.test(t) || STREET_END.test(words.split(/\s+/).at(-1) ?? '')));
}

function partyOf(
  lines: string[],
  where: { page: number; top: number; bottom: number; x0: number; x1: number },
  score: number,
  via: string,
): Party | undefined {
  // A heading over the block is a label, never the party's name: the address starts below it.
  const from = lines.findIndex((l) => clean(l) !== '' && !isHeading(l));
  if (from < 0) return undefined;
  const rest = lines.slice(from);
  if (ADDRESS_HEADING.test(fold(rest[0]!).trim())) return undefined;
  // A block that starts with its street prints no name (it stands elsewhere, larger, or only in a logo).
  const nameless = isStreet(rest[0]!);
  const address = parseAddress(rest, nameless);
  if (!address || (!nameless && (!address.name || !/\p{L}{2}/u.test(address.name)))) return undefined;
  return { ...address, score, via, ...where };
}

/**
 * The block printed under a label: the label's own block if it continues, else the block
 * starting just below. Loose blocks (blank lines inside the address) are cut at the city line.
 */
function blockUnder(label: Segment, blocks: Block[]): Segment[] {
  const own = blocks.find((b) => b.segments.includes(label));
  if (own && own.segments.length > 1)
    return cutAtAddressEnd({ ...own, segments: own.segments.slice(own.segments.indexOf(label) + 1) }).segments;
  const below = blocks
    .filter(
      (b) =>
        b.top > label.top &&
        b.top - label.bottom < 2.5 * label.height &&
        b.x0 < label.x1 + 2 * label.height &&
        b.x1 > label.x0 - label.height,
    )
    .sort((a, b) => a.top - b.top)[0];
  return below ? cutAtAddressEnd(below).segments : [];
}

const ENDS_WITH_SEPARATOR = /\s*[·•●|\u2022\u25cf]\s*$/u;
export const SEPARATORS = /\s+[·•●|\u2022\u25cf–-]\s+|\s*[·•●|\u2022\u25cf]\s*/u;

const SEPARATOR_ONLY = /^[·•●|\u2022\u25cf–-]$/u;

/** Segments joined where a separator stands between them (widely spaced bullets split a sender line into segments). */
function separatedRuns(segments: Segment[]): Segment[][] {
  const runs: Segment[][] = [];
  for (const s of segments) {
    const run = runs.at(-1);
    const last = run?.at(-1);
    if (run && last && (SEPARATOR_ONLY.test(s.text.trim()) || SEPARATOR_ONLY.test(last.text.trim()))) run.push(s);
    else runs.push([s]);
  }
  return runs;
}

/** "ACME GmbH · Hauptstr. 1 · 12345 Ort": the one-line sender above the address window. */
function senderLine(text: string): string[] | undefined {
  const parts = senderParts(text);
  if (parts.length < 3) return undefined;
  const cityAt = parts.findIndex((p) => parseCityLine(p) !== undefined);
  if (cityAt < 1) return undefined;
  // Join "Deutschland" etc. after the city line so parseAddress sees it as the country.
  return parts;
}

/** A sender line's parts, the name taken apart from the street where a scan lost the dot between them. */
export function senderParts(text: string): string[] {
  const parts = text.split(SEPARATORS).map(clean).filter(Boolean);
  const first = parts.length > 1 ? nameAndStreet(parts[0]!) : undefined;
  return first ? [...first, ...parts.slice(1)] : parts;
}

/**
 * "Seller Company 123 Seller St", "Muster GmbH Musterstraße 12": a name without digits, then a
 * street that starts with its house number or follows a legal form.
 */
export function nameAndStreet(part: string): [string, string] | undefined {
  const words = part.split(/\s+/);
  for (let k = 1; k < words.length; k++) {
    const name = words.slice(0, k).join(' ');
    const street = words.slice(k).join(' ');
    if (/\d/.test(name)) return undefined;
    const startsStreet = /^\d/.test(street) || LEGAL_FORM_WORD.test(words[k - 1]!);
    if (startsStreet && /\p{L}{2}/u.test(name) && isStreet(street)) return [name, street];
  }
  return undefined;
}

export function boxOf(segs: Segment[]) {
  return {
    page: segs[0]!.page,
    top: Math.min(...segs.map((s) => s.top)),
    bottom: Math.max(...segs.map((s) => s.bottom)),
    x0: Math.min(...segs.map((s) => s.x0)),
    x1: Math.max(...segs.map((s) => s.x1)),
  };
}

/** What the steps of findParties share: the first page's blocks, and the parties found so far. */
interface PartySearch {
  doc: Doc;
  page: PageLayout;
  blocks: Block[];
  /** Blocks joined across blank lines: addresses are sometimes set with blank lines between their lines. */
  loose: Block[];
  found: Parties;
  /** Blocks already given to a party. */
  used: Set<Block>;
}

/** Each step reads what the ones before it left open, surest first. */
const PARTY_STEPS: ReadonlyArray<(s: PartySearch) => void> = [
  labelledBlocks,
  senderLineSeller,
  windowBuyer,
  letterheadSeller,
  nameAtTop,
  oneAddressOnce,
  sellerFromNotices,
  registeredNames,
];

export function findParties(doc: Doc): Parties {
  const page = pageOf(doc, doc.pages[0]!.page);
  const search: PartySearch = {
    doc,
    page,
    blocks: buildBlocks(page).flatMap(withoutNoiseOnTop),
    loose: buildBlocks(page, 3).flatMap(splitAtAddressEnds).flatMap(withoutNoiseOnTop),
    found: {},
    used: new Set<Block>(),
  };
  for (const step of PARTY_STEPS) step(search);
  return search.found;
}

function keep(s: PartySearch, role: PartyRole, p: Party | undefined): void {
  if (p && (!s.found[role] || s.found[role]!.score < p.score)) s.found[role] = p;
}

/** 1. Blocks under a party label. */
function labelledBlocks(s: PartySearch): void {
  const { doc, page, blocks, loose } = s;
  for (const line of page.lines) {
    for (const seg of line.segments) {
      const hit = labelRole(seg, doc.source === 'ocr');
      if (!hit) continue;
      const below = blockUnder(seg, loose);
      const lines = [
        ...(hit.rest ? [hit.rest] : []),
        ...skippedOver(page, seg, below).map((x) => withValue(doc, x)),
        ...below.map((x) => withValue(doc, x)),
      ];
      const segs = below.length ? below : [seg];
      keep(s, hit.role, partyOf(lines, boxOf(segs), 0.9, 'label'));
      for (const b of [...blocks, ...loose]) if (below.some((x) => b.segments.includes(x))) s.used.add(b);
    }
  }
}

/** A sender line's last part that is a post code only: the line wrapped before its city ("… · 1016 GB" / "Amsterdam · Niederlande"). */
const ENDS_WITH_POSTCODE = /[·•●|\u2022\u25cf]\s*(?:[A-Z]{1,3}[- ])?(?:\d{4} ?[A-Z]{2}|\d{4,6})$/u;

/** 2. The sender line in the upper half; one too long for the window wraps after a separator or a post code and goes on in the line below. */
function senderLineSeller(s: PartySearch): void {
  const { page } = s;
  if (s.found.seller) return;
  for (const [i, line] of page.lines.entries()) {
    if (line.top > 0.45 * page.height) break;
    for (const run of separatedRuns(line.segments)) {
      const text = run.map((x) => x.text).join(' ');
      const goesOn =
        ENDS_WITH_SEPARATOR.test(text) || ENDS_WITH_POSTCODE.test(text.trim())
          ? page.lines[i + 1]?.segments.find((x) => Math.abs(x.x0 - run[0]!.x0) < x.height)
          : undefined;
      const parts = senderLine(goesOn ? `${text} ${goesOn.text}` : text);
      if (parts) keep(s, 'seller', partyOf(parts, boxOf(goesOn ? [...run, goesOn] : run), 0.8, 'sender-line'));
    }
    if (s.found.seller) break;
  }
}

/** 3. The address window: the buyer. A tightly set block is preferred; loose ones may swallow a letterhead above. */
function windowBuyer(s: PartySearch): void {
  const { doc, page, found } = s;
  if (found.buyer) return;
  // German windows sit on the left, French and Swiss ones on the right: left first, then right.
  const inWindow = (list: Block[]) =>
    addressBlocks(page, list, s.used)
      // Windows start a good way down the page (45 mm on DIN 5008, more on French letters); higher up is the letterhead.
      .filter((b) => b.top > 0.115 * page.height && b.top < 0.45 * page.height)
      .filter((b) => !found.seller || !sameParty(b, found.seller))
      .map((b) => ({
        b,
        named: partyOf(linesOf(doc, b), boxOf(b.segments), 0, '')?.name !== undefined,
        party: partyOf(linesOf(doc, b), boxOf(b.segments), 0, ''),
      }))
      .filter((c) => c.party !== undefined)
      // An address printed without a name is a window only where no named one is.
      .sort(
        (a, b) =>
          Number(b.named) - Number(a.named) || Number(a.b.x0 > 0.5 * page.width) - Number(b.b.x0 > 0.5 * page.width) || a.b.top - b.b.top,
      )[0]?.b;
  // The left window comes first even when its address is loosely set and a tight block stands on the right.
  const left = (b: Block | undefined) => b !== undefined && b.x0 <= 0.5 * page.width;
  const tight = inWindow(s.blocks);
  const loosely = inWindow(s.loose);
  const window = left(tight) || !left(loosely) ? (tight ?? loosely) : loosely;
  if (!window) return;
  keep(s, 'buyer', partyOf(linesOf(doc, window), boxOf(window.segments), 0.75, 'address-window'));
  s.used.add(window);
}

/** 4. Letterhead or footer: the seller. */
function letterheadSeller(s: PartySearch): void {
  const { doc, page, found } = s;
  if (found.seller) return;
  // A letterhead set flush right stacks its lines by their right edges.
  const flushRight = buildBlocks(page, 1, 'right')
    .flatMap(withoutNoiseOnTop)
    .filter((b) => Math.max(...b.segments.map((x) => x.x0)) - Math.min(...b.segments.map((x) => x.x0)) > 1.5 * b.segments[0]!.height);
  const candidates = addressBlocks(page, [...s.blocks, ...s.loose, ...flushRight], s.used).filter(
    (b) => !found.buyer || !sameParty(b, found.buyer),
  );
  const head = candidates.filter((b) => b.top < 0.3 * page.height).sort((a, b) => a.top - b.top)[0];
  const foot = candidates.filter((b) => b.top > 0.75 * page.height).sort((a, b) => a.top - b.top)[0];
  const pick = head ?? foot;
  if (pick) keep(s, 'seller', partyOf(linesOf(doc, pick), boxOf(pick.segments), head ? 0.6 : 0.5, head ? 'letterhead' : 'footer'));
}

/**
 * 5. A company name alone at the top of the page (no address beside it) names the seller
 *    better than a branch office's address block does.
 */
function nameAtTop(s: PartySearch): void {
  const { page, found } = s;
  const top = s.blocks.filter((b) => b.top < 0.15 * page.height && b.segments.length <= 3).sort((a, b) => a.top - b.top)[0];
  if (!top || (found.seller && found.seller.score >= 0.8 && found.seller.name) || top.segments.some((x) => parseCityLine(x.text))) return;
  // The document's title may stand on the name's line ("Neumann GmbH & Co. KG      RECHNUNG"): it is no part of the name.
  const lines = top.segments.map((x) => withoutTrailingTitle(clean(x.text))).filter((l) => !documentTypeOf(l));
  const at = lines.findIndex((l) => LEGAL_FORM.test(l));
  if (at < 0 || at > 1) return;
  const name = lines.slice(0, at + 1).join('\n');
  found.seller = found.seller
    ? { ...found.seller, name, via: `${found.seller.via}+name` }
    : { name, score: 0.5, via: 'letterhead-name', ...boxOf(top.segments) };
}

/**
 * Two parties at one address are one party read twice: the weaker reading is not the other party.
 * Two names there are two parties (neighbours in one building, a test invoice's made-up address).
 */
function oneAddressOnce(s: PartySearch): void {
  const { seller, buyer } = s.found;
  const oneName = !seller?.name || !buyer?.name || textKey(seller.name) === textKey(buyer.name);
  if (
    seller &&
    buyer &&
    oneName &&
    seller.postcode !== undefined &&
    seller.postcode === buyer.postcode &&
    textKey(seller.line1 ?? '') === textKey(buyer.line1 ?? '')
  ) {
    if (seller.score < buyer.score) delete s.found.seller;
    else delete s.found.buyer;
  }
}

/** 6. No seller anywhere (its name only in a logo): the company the legal notice registers, else the holder of the account the invoice is to be paid to. */
function sellerFromNotices(s: PartySearch): void {
  if (!s.found.seller) s.found.seller = registeredCompany(s.doc) ?? accountHolder(s.doc);
}

/**
 * 7. BT-27 is the registered name: a letterhead's brand "Lorenz Metallbau" is "Lorenz Metallbau AG"
 *    where the footer or sender line prints it so. A block under a party label names the party as
 *    its issuer chose to, and stays as printed.
 *    A name that ends in part of its legal form ("Lorenz Beratung UG") gets the rest where printed.
 */
function registeredNames(s: PartySearch): void {
  for (const role of ['seller', 'buyer'] as const) {
    const p = s.found[role];
    if (!p?.name) continue;
    const name = spelledLegalForms(p.name);
    const full = p.via !== 'label' ? withLegalForm(s.doc, name) : undefined;
    if (full) s.found[role] = { ...p, name: full, via: `${p.via}+legal-form` };
    else if (name !== p.name) s.found[role] = { ...p, name };
  }
}

/** A line without the document's title set at its end ("Neumann GmbH & Co. KG RECHNUNG" → "Neumann GmbH & Co. KG"). */
function withoutTrailingTitle(line: string): string {
  const words = line.split(' ');
  while (words.length > 1 && documentTypeOf(words.at(-1)!)) words.pop();
  return words.join(' ');
}

/**
 * Legal forms spelled as registered where a scan misread a letter of them: "UG (haftungsbeschrankt)",
 * "GmhH". Legal forms are a closed list, so a near miss of one of their longer words is that word.
 */
function spelledLegalForms(name: string): string {
  return name.replace(/\(haftungsbeschr\p{L}{1,2}nkt\)?/giu, '(haftungsbeschränkt)').replace(/(?<=\s)Gm[bh][HN](?=$|\s|,)/gu, 'GmbH');
}

/** Words of a legal form, as they follow a company's name ("GmbH & Co. KG", "UG (haftungsbeschränkt)", "e.K."). */
const LEGAL_FORM_WORD =
  /^(?:gmbh|mbh|ag|kg|kgaa|ohg|gbr|ug|se|e\.k\.?|e\.v\.?|sarl|sas|sasu|sa|eurl|snc|ltd\.?|limited|inc\.?|llc|plc|b\.v\.?|n\.v\.?|s\.r\.l\.?|srl|s\.p\.a\.?|spa|co\.?|&|\(haftungsbeschränkt\))$/i;

/** The name as printed elsewhere on the page followed by nothing but its legal form. */
function withLegalForm(doc: Doc, name: string): string | undefined {
  const prefix = `${name.replace(/\s+/g, ' ').toLowerCase()} `;
  for (const s of allSegments(doc)) {
    for (const part of s.text.split(SEPARATORS).map((t) => spelledLegalForms(clean(t)))) {
      if (!part.toLowerCase().startsWith(prefix)) continue;
      const rest = part.slice(prefix.length).trim().split(/\s+/);
      if (rest.length > 0 && rest.every((w) => LEGAL_FORM_WORD.test(w))) return part;
    }
  }
  return undefined;
}

/**
 * The legal notice French companies must print: "Free SAS au capital de 3.441.812 Euros − … −
 * Siège social : 8 rue de la Ville l'Évèque 75008 Paris". The name runs from the start of the
 * notice (or a separator) to the legal form before "au capital".
 */
const LEGAL_NOTICE =
  /(?:^|\s[-\u2013\u2212·|]\s)(\p{L}[\p{L}\p{N}&'. -]{0,60}?\s(?:SAS|SASU|SARL|EURL|SA|SNC|SCA|SCS|SELARL|SCOP))\s+(?:au|à) capital\b/u;
/** The legal form as the legal notice prints it, apart from the name: "… - SARL au capital de 120 000,00 €". */
const NOTICE_FORM = /(?<!\p{L})(SAS|SASU|SARL|EURL|SA|SNC|SCA|SCS|SELARL|SCOP)\s+(?:au|à) capital\b/u;

/**
 * The name a French company is registered under. Its legal notice prints the legal form apart
 * ("SARL au capital de …"), and the registered name is the one without it: a letterhead's "Au bon
 * moulin SARL" is "Au bon moulin", "Free SAS" is "Free" (so the invoices of three repositories that
 * print such a notice name their seller; those that print no notice keep the form in the name).
 */
export function registeredName(doc: Doc, name: string): string {
  const form = noticeForm(doc);
  if (!form || !name.endsWith(` ${form}`)) return name;
  const base = name.slice(0, -form.length - 1).trim();
  return /\p{L}{2}/u.test(base) ? base : name;
}

function noticeForm(doc: Doc): string | undefined {
  for (const s of allSegments(doc)) {
    const form = NOTICE_FORM.exec(s.text)?.[1];
    if (form) return form;
  }
  return undefined;
}

const REGISTERED_OFFICE = /si[èe]ge(?: social)?\s*:?\s*(.+?)\s+((?:F-)?\d{5}\s+\p{L}[\p{L}' -]*?)(?:\s*$|\s[-\u2013\u2212·|,]\s)/iu;

function registeredCompany(doc: Doc): Party | undefined {
  for (const s of allSegments(doc)) {
    const name = LEGAL_NOTICE.exec(s.text)?.[1];
    if (!name) continue;
    const office = REGISTERED_OFFICE.exec(s.text);
    const address = office ? parseAddress([name, office[1]!, office[2]!]) : undefined;
    return { ...(address ?? {}), name: clean(name), score: 0.45, via: 'legal-notice', ...boxOf([s]) };
  }
  return undefined;
}

const ACCOUNT_HOLDER =
  /(?<!\p{L})(?:kontoinhaber(?:in)?|titulaire(?: du compte)?|account holder|account name|beneficiary|rekeninghouder)\s*:\s*(\p{L}[^,|;]*?)\s*(?:$|[,|;]|\s[-\u2013]\s)/iu;

/** "… – Titulaire du compte : NETPRESSE", "Kontoinhaber: ACME GmbH" in the payment details. */
function accountHolder(doc: Doc): Party | undefined {
  for (const s of allSegments(doc)) {
    const name = ACCOUNT_HOLDER.exec(s.text)?.[1];
    if (name && /\p{L}{2}/u.test(name)) return { name: clean(name), score: 0.4, via: 'account-holder', ...boxOf([s]) };
  }
  return undefined;
}

/** A letterhead logo above an address reads as a first line of noise; the address starts below it. */
function withoutNoiseOnTop(b: Block): Block[] {
  const from = b.segments.findIndex((s) => !isIllegible(s.words));
  if (from <= 0) return from === 0 ? [b] : [];
  const segments = b.segments.slice(from);
  return [
    { ...b, segments, top: segments[0]!.top, x0: Math.min(...segments.map((s) => s.x0)), x1: Math.max(...segments.map((s) => s.x1)) },
  ];
}

/**
 * Where an address ends after its city line, and its country: the country line, or a region and
 * then the country named in full ("Sachsen" / "Deutschland"; a canton "BE" / "Schweiz", where the
 * region's code is also a country's).
 */
function addressEnd(lines: readonly string[], cityAt: number): { end: number; country?: string } {
  const next = lines[cityAt + 1];
  const then = lines[cityAt + 2];
  const named = then !== undefined && !/^\s*[A-Z]{2}\s*$/.test(then) ? countryOfLine(then) : undefined;
  if (named && next !== undefined && !/\d/.test(next) && next.trim().length <= 40) return { end: cityAt + 3, country: named };
  const country = next !== undefined ? countryOfLine(next) : undefined;
  return country ? { end: cityAt + 2, country } : { end: cityAt + 1 };
}

/**
 * An address ends with its city line (and the country line after it); what follows is something
 * else. It ends before another party's label at the latest: a city line misread on a scan
 * ("GB SWIB 3BN London") must not let the seller's block run on into the buyer's city.
 */
function cutAtAddressEnd(b: Block): Block {
  const label = b.segments.findIndex((s, i) => i > 0 && isPartyLabel(s.text));
  const own = label > 0 ? b.segments.slice(0, label) : b.segments;
  const city = own.findIndex((s, i) => i > 0 && parseCityLine(s.text) !== undefined);
  if (city < 0 && label < 0) return b;
  const lines = own.map((s) => s.text);
  const segments = own.slice(0, city < 0 ? own.length : addressEnd(lines, city).end);
  return { ...b, segments, x1: Math.max(...segments.map((s) => s.x1)), bottom: segments.at(-1)!.bottom };
}

/**
 * Lines between a label and the block it heads that the block left out, mostly a party's
 * number ("Nummer: 16259") whose scanned box came out taller than the lines around it.
 */
function skippedOver(page: PageLayout, label: Segment, block: Segment[]): Segment[] {
  const first = block[0];
  if (!first) return [];
  return page.lines
    .filter((l) => l.top > label.top && l.top < first.top)
    .flatMap((l) => l.segments.filter((s) => s !== label && !block.includes(s) && Math.abs(s.x0 - first.x0) < 1.5 * first.height));
}

/** A block line with the value printed apart after its colon ("Nummer   : 549910", on scans "Nummer | z | 549910"). */
function withValue(doc: Doc, s: Segment): string {
  // rightOf passes over a colon set apart, and on scans over the one sign a colon was misread as.
  const value = rightOf(doc, s);
  if (!value) return s.text;
  const gap = value.x0 - s.x1;
  const between = lineOf(doc, s).segments.filter((o) => o.x0 >= s.x1 && o.x1 <= value.x0);
  const colonApart = between.length === 1 && (between[0]!.text === ':' || (doc.source === 'ocr' && between[0]!.text.length === 1));
  if (colonApart && gap < 15 * s.height) return `${s.text}: ${value.text}`;
  if ((/:\s*$/.test(s.text) || /^:/.test(value.text)) && gap < 15 * s.height) return `${s.text} ${value.text}`;
  // A street's house number set apart ("Musterstr.   18"): scans widen the gap into a segment break.
  if (/^\d{1,4}\s?[a-z]?$/i.test(value.text) && /\p{L}{3}/u.test(s.text) && gap < 6 * s.height) return `${s.text} ${value.text}`;
  return s.text;
}

/** A loose block may stack several addresses (seller over buyer): one block per address. */
function splitAtAddressEnds(b: Block): Block[] {
  const head = cutAtAddressEnd(b);
  if (head.segments.length === b.segments.length) return [b];
  const rest = b.segments.slice(head.segments.length);
  const tail: Block = {
    ...b,
    segments: rest,
    top: rest[0]!.top,
    x0: Math.min(...rest.map((s) => s.x0)),
    x1: Math.max(...rest.map((s) => s.x1)),
  };
  return [head, ...splitAtAddressEnds(tail)];
}

function linesOf(doc: Doc, b: Block): string[] {
  return b.segments.map((s) => withValue(doc, s));
}

/** Blocks that look like postal addresses: 2–8 lines, one of them (not the first) a post code line. */
function addressBlocks(page: PageLayout, blocks: Block[], used: Set<Block>): Block[] {
  return blocks.filter(
    (b) =>
      !used.has(b) &&
      b.page === page.page &&
      b.segments.length >= 2 &&
      b.segments.length <= 8 &&
      hasTownLine(joinPostTown(b.segments.map((s) => s.text))),
  );
}

function hasTownLine(lines: string[]): boolean {
  return lines.some((t, i) => i > 0 && parseCityLine(t) !== undefined) || townBeforeCountry(lines.map(clean), false) >= 0;
}

/** The block is where the party was read, or repeats its name (letterheads print the seller twice). */
/** Whether a block is where a party found already was printed, or names it. Exported for its test. */
export function sameParty(b: Block, p: Pick<Party, 'name' | 'page' | 'top' | 'bottom' | 'x0' | 'x1'>): boolean {
  // Line by line: a letterhead's wide first line spans the window beside the lines below it.
  const overlaps = b.page === p.page && b.segments.some((s) => s.top < p.bottom && p.top < s.bottom && s.x0 < p.x1 && p.x0 < s.x1);
  return overlaps || (p.name !== undefined && textKey(b.segments[0]!.text) === textKey(p.name.split('\n')[0]!));
}
