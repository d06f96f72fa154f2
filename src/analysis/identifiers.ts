/**
 * Account and tax identifiers found anywhere in a line of text, printed with or without
 * spaces, with their check digits verified where the scheme has them: a value that passes
 * its check is almost certainly read right, one that fails is a typo or an OCR slip.
 */

export interface IdMatch {
  start: number;
  end: number;
  /** Compact upper-case form, e.g. "DE89370400440532013000". */
  value: string;
  /** Check digits verified (true), failed (false); undefined where the scheme has none we know. */
  checked?: boolean;
}

/** IBAN lengths of the SEPA countries; others are accepted on the checksum alone. */
const IBAN_LENGTH: Readonly<Record<string, number>> = {
  AD: 24,
  AT: 20,
  BE: 16,
  BG: 22,
  CH: 21,
  CY: 28,
  CZ: 24,
  DE: 22,
  DK: 18,
  EE: 20,
  ES: 24,
  FI: 18,
  FR: 27,
  GB: 22,
  GI: 23,
  GR: 27,
  HR: 21,
  HU: 28,
  IE: 22,
  IS: 26,
  IT: 27,
  LI: 21,
  LT: 20,
  LU: 20,
  LV: 21,
  MC: 27,
  MT: 31,
  NL: 18,
  NO: 15,
  PL: 28,
  PT: 25,
  RO: 24,
  SE: 24,
  SI: 19,
  SK: 24,
  SM: 27,
  VA: 22,
};

/**
 * Evidence suffix of an IBAN cut where a narrow cell wrapped it ("DE12 1234 5678" / "9012 3456
 * 78"), the checksum that would join the two failing: shorter than its country's, its rest under it.
 */
export const CUT_IBAN = ':cut';

export function ibanCut(iban: string): boolean {
  const length = IBAN_LENGTH[iban.slice(0, 2)];
  return length !== undefined && iban.length < length;
}

export function ibanValid(iban: string): boolean {
  return /^[A-Z]{2}\d{2}[A-Z0-9]{11,30}$/.test(iban) && mod97(iban.slice(4) + iban.slice(0, 4));
}

/**
 * A SEPA creditor identifier ("DE98ZZZ09999999999"): country, check digits, a business code the
 * check leaves out, the national identifier.
 */
export function creditorIdValid(id: string): boolean {
  return /^[A-Z]{2}\d{2}[A-Z0-9]{3}[A-Z0-9]{1,28}$/.test(id) && mod97(id.slice(7) + id.slice(0, 4));
}

/** ISO 7064 MOD 97-10 with letters as 10..35: the IBAN check, also used by Dutch VAT numbers and SEPA creditor ids. */
function mod97(s: string): boolean {
  let rest = 0;
  for (const ch of s) {
    const v = ch >= 'A' ? ch.charCodeAt(0) - 55 : Number(ch);
    rest = (rest * (v > 9 ? 100 : 10) + v) % 97;
  }
  return rest === 1;
}

/**
 * Gathers the alphanumerics after `start`, skipping the single spaces printed between groups,
 * remembering where each kept character sits so a match can be mapped back.
 */
function compactFrom(text: string, start: number, max: number): { chars: string; ends: number[] } {
  let chars = '';
  const ends: number[] = [];
  for (let i = start; i < text.length && chars.length < max; i++) {
    const ch = text[i]!;
    if (/[A-Za-z0-9]/.test(ch)) {
      chars += ch.toUpperCase();
      ends.push(i + 1);
    } else if ((ch === ' ' || ch === '.' || ch === '-') && /[A-Za-z0-9]/.test(text[i + 1] ?? '') && ch !== text[i - 1]) continue;
    else break;
  }
  return { chars, ends };
}

/** Whether a match ending at `end` stops at a word boundary (not inside a longer token). */
function endsCleanly(text: string, end: number): boolean {
  return !/[A-Za-z0-9]/.test(text[end] ?? '');
}

export function scanIbans(text: string): IdMatch[] {
  const out: IdMatch[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9])([A-Z]{2})\s?(\d{2})/g)) {
    const { chars, ends } = compactFrom(text, m.index, 34);
    const country = m[1]!;
    const known = IBAN_LENGTH[country];
    const lengths = known ? [known] : Array.from({ length: chars.length - 14 }, (_, i) => chars.length - i);
    for (const len of lengths) {
      if (len > chars.length || len < 15) continue;
      const value = chars.slice(0, len);
      const end = ends[len - 1]!;
      if (!endsCleanly(text, end) || !/^[A-Z]{2}\d{2}[A-Z0-9]+$/.test(value)) continue;
      const checked = ibanValid(value);
      // Without a known length only the checksum tells where the IBAN ends.
      if (!known && !checked) continue;
      out.push({ start: m.index, end, value, checked });
      break;
    }
  }
  return out;
}

/** At most this many letters are tried as digits ("DEO2" for "DE02", "NLSO" for "NL50"): each doubles the readings, and the checksum must still single one out. */
const MAX_LOOKALIKES = 4;

/**
 * IBANs a scan misread a digit of as a letter: the check digits, or the digits of a country whose
 * account part is digits only, read as their look-alike letters. A reading counts only where
 * exactly one way of taking those letters as digits passes the checksum.
 */
export function scanMisreadIbans(text: string): IdMatch[] {
  const out: IdMatch[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9])([A-Z]{2})\s?([0-9A-Z]{2})/g)) {
    const length = IBAN_LENGTH[m[1]!];
    if (!length) continue;
    const { chars, ends } = compactFrom(text, m.index, 34);
    if (chars.length < length || !endsCleanly(text, ends[length - 1]!)) continue;
    const printed = chars.slice(0, length);
    const value = onlyDigitReading(printed, NUMERIC_BBAN.has(m[1]!));
    if (value && value !== printed) out.push({ start: m.index, end: ends[length - 1]!, value, checked: true });
  }
  return out;
}

/** Countries whose IBAN holds digits only after the country code. */
const NUMERIC_BBAN = new Set(['AT', 'BE', 'DE', 'DK', 'EE', 'ES', 'FI', 'HR', 'HU', 'LT', 'NO', 'PL', 'PT', 'RS', 'SE', 'SI', 'SK', 'CZ']);

function onlyDigitReading(printed: string, numeric: boolean): string | undefined {
  const positions = [...printed].flatMap((ch, i) => (i >= 2 && (i < 4 || numeric) && DIGIT_LOOKALIKES[ch] ? [i] : []));
  if (positions.length === 0 || positions.length > MAX_LOOKALIKES) return undefined;
  const passing: string[] = [];
  for (let mask = 1; mask < 1 << positions.length; mask++) {
    const chars = [...printed];
    positions.forEach((at, bit) => {
      if (mask & (1 << bit)) chars[at] = DIGIT_LOOKALIKES[chars[at]!]!;
    });
    const reading = chars.join('');
    if (ibanValid(reading)) passing.push(reading);
  }
  return passing.length === 1 ? passing[0] : undefined;
}

const ISO_COUNTRIES = new Set(
  'AD AE AT AU BA BE BG BR CA CH CN CY CZ DE DK EE ES FI FR GB GI GR HK HR HU IE IL IN IS IT JP KR LI LT LU LV MC MT MX NL NO NZ PL PT RO RS RU SE SG SI SK SM TR UA US VA ZA'.split(
    ' ',
  ),
);

/** BIC / SWIFT codes: 4 bank letters, a country, 2 location characters, an optional branch. */
export function scanBics(text: string): IdMatch[] {
  const out: IdMatch[] = [];
  for (const m of text.matchAll(/(?<![A-Za-z0-9])([A-Z]{4})([A-Z]{2})([A-Z0-9]{2})([A-Z0-9]{3})?(?![A-Za-z0-9])/g)) {
    if (!ISO_COUNTRIES.has(m[2]!)) continue;
    out.push({ start: m.index, end: m.index + m[0].length, value: m[0] });
  }
  return out;
}

/** VAT identifiers of the EU and its neighbours: the part after the country prefix. */
const VAT_BODY: Readonly<Record<string, RegExp>> = {
  AT: /^U\d{8}$/,
  BE: /^[01]\d{9}$/,
  BG: /^\d{9,10}$/,
  CH: /^E\d{9}(MWST|TVA|IVA)?$/,
  CY: /^\d{8}[A-Z]$/,
  CZ: /^\d{8,10}$/,
  DE: /^\d{9}$/,
  DK: /^\d{8}$/,
  EE: /^\d{9}$/,
  EL: /^\d{9}$/,
  ES: /^[A-Z0-9]\d{7}[A-Z0-9]$/,
  FI: /^\d{8}$/,
  FR: /^[A-HJ-NP-Z0-9]{2}\d{9}$/,
  GB: /^(\d{9}|\d{12}|GD\d{3}|HA\d{3})$/,
  HR: /^\d{11}$/,
  HU: /^\d{8}$/,
  IE: /^\d[A-Z0-9+*]\d{5}[A-Z]{1,2}$/,
  IT: /^\d{11}$/,
  LT: /^(\d{9}|\d{12})$/,
  LU: /^\d{8}$/,
  LV: /^\d{11}$/,
  MT: /^\d{8}$/,
  NL: /^\d{9}B\d{2}$/,
  PL: /^\d{10}$/,
  PT: /^\d{9}$/,
  RO: /^\d{2,10}$/,
  SE: /^\d{12}$/,
  SI: /^\d{8}$/,
  SK: /^\d{10}$/,
};

function digits(s: string): number[] {
  return [...s].map(Number);
}

/** The Luhn check over a string of digits (Italian VAT ids, French SIREN and SIRET numbers). */
export function luhn(number: string): boolean {
  let sum = 0;
  digits(number).forEach((d, i) => {
    const v = (number.length - 1 - i) % 2 === 1 ? d * 2 : d;
    sum += v > 9 ? v - 9 : v;
  });
  return sum % 10 === 0;
}

/** The VAT id France gives the company of a SIREN: its key, two digits, before the nine. */
export function frenchVatId(siren: string): string {
  return `FR${String((12n + 3n * (BigInt(siren) % 97n)) % 97n).padStart(2, '0')}${siren}`;
}

/** Check digits of the schemes whose algorithm is public and stable; undefined for the others. */
export function vatIdChecked(id: string): boolean | undefined {
  const cc = id.slice(0, 2);
  const body = id.slice(2);
  switch (cc) {
    case 'DE': {
      // ISO 7064 MOD 11,10.
      let p = 10;
      for (const d of digits(body.slice(0, 8))) {
        let s = (d + p) % 10;
        if (s === 0) s = 10;
        p = (2 * s) % 11;
      }
      let check = 11 - p;
      if (check === 10) check = 0;
      return check === Number(body[8]);
    }
    case 'FR':
      return /^\d{2}/.test(body) ? id === frenchVatId(body.slice(2)) : undefined;
    case 'BE':
      return 97 - (Number(body.slice(0, 8)) % 97) === Number(body.slice(8));
    case 'IT':
      return luhn(body);
    case 'AT': {
      const d = digits(body.slice(1));
      let sum = 0;
      for (let i = 0; i < 7; i++) {
        const v = i % 2 === 1 ? d[i]! * 2 : d[i]!;
        sum += Math.floor(v / 10) + (v % 10);
      }
      return (10 - ((sum + 4) % 10)) % 10 === d[7];
    }
    case 'NL': {
      // Since 2020 sole traders carry a MOD 97 number; companies still the old eleven-test.
      const old = digits(body.slice(0, 9)).reduce((s, d, i) => s + d * (9 - i), 0) % 11 === 0;
      return old || mod97(`NL${body}`);
    }
    default:
      return undefined;
  }
}

/**
 * A VAT identifier printed with one letter of its country prefix missing ("TVA F63530848134"):
 * the identifier of the one country whose prefix starts with that letter and whose format and
 * check digits the rest passes. Only schemes with check digits can vouch for such a repair.
 */
export function repairVatPrefix(letter: string, body: string): string | undefined {
  const fits = Object.keys(VAT_BODY).filter(
    (cc) => cc.startsWith(letter) && VAT_BODY[cc]!.test(body) && vatIdChecked(`${cc}${body}`) === true,
  );
  return fits.length === 1 ? `${fits[0]}${body}` : undefined;
}

/** The id starts with the country prefix of a VAT id the scanner knows (whatever follows). */
export function hasVatPrefix(id: string): boolean {
  return VAT_BODY[id.slice(0, 2)] !== undefined;
}

/** Letters OCR reads for digits ("DEI 36695976", "DEO2 1203…"). */
const DIGIT_LOOKALIKES: Record<string, string> = { O: '0', D: '0', I: '1', L: '1', Z: '2', S: '5', G: '6', B: '8' };
const MAX_MISREAD_DIGITS = 2;

/**
 * The body with up to two look-alike letters read as the digits they resemble, when that makes
 * an identifier whose check digits verify: the check digits vouch for the repair, so schemes
 * without them get none.
 */
function misreadDigitsRepaired(cc: string, body: string): string | undefined {
  let misread = 0;
  const repaired = body.replace(/[A-Z]/g, (ch) => {
    const digit = DIGIT_LOOKALIKES[ch];
    if (digit === undefined) return ch;
    misread++;
    return digit;
  });
  if (misread === 0 || misread > MAX_MISREAD_DIGITS || !VAT_BODY[cc]!.test(repaired)) return undefined;
  return vatIdChecked(`${cc}${repaired}`) === true ? repaired : undefined;
}

export function scanVatIds(text: string): IdMatch[] {
  const out: IdMatch[] = [];
  for (const m of text.matchAll(
    /(?<![A-Za-z0-9])(AT|BE|BG|CH|CY|CZ|DE|DK|EE|EL|ES|FI|FR|GB|HR|HU|IE|IT|LT|LU|LV|MT|NL|PL|PT|RO|SE|SI|SK)[\s-]?(?=[A-Z0-9])/g,
  )) {
    const cc = m[1]!;
    const from = m.index + m[0].length;
    const { chars, ends } = compactFrom(text, from, 16);
    const pattern = VAT_BODY[cc]!;
    for (let len = chars.length; len >= 2; len--) {
      const end = ends[len - 1]!;
      if (!endsCleanly(text, end)) continue;
      const body = pattern.test(chars.slice(0, len)) ? chars.slice(0, len) : misreadDigitsRepaired(cc, chars.slice(0, len));
      if (body === undefined) continue;
      const value = `${cc}${body}`;
      const checked = vatIdChecked(value);
      out.push({ start: m.index, end, value, ...(checked !== undefined ? { checked } : {}) });
      break;
    }
  }
  return out;
}
