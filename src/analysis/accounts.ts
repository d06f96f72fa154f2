import { lineText, type Doc, type Found } from './document.js';
import {
  CUT_IBAN,
  hasVatPrefix,
  ibanCut,
  luhn,
  repairVatPrefix,
  scanBics,
  scanIbans,
  scanMisreadIbans,
  scanVatIds,
  type IdMatch,
} from './identifiers.js';
import { INFERRED } from './sources.js';
import type { Line, Segment } from './layout.js';
import { BUYER_ID_CONTEXT } from './lexicon.js';
import { fold } from './text.js';

/**
 * Bank accounts, VAT identifiers and commercial register numbers. They are recognisable by
 * their shape alone (the first two also carry check digits), so they are scanned for
 * everywhere; labels and places only decide whose they are.
 */

export interface PlacedFound extends Found {
  /** The segment it was printed in, for placing it inside a party's block. */
  segment: Segment;
}

export interface VatIdFound extends PlacedFound {
  role: 'seller' | 'buyer';
}

export interface Accounts {
  /** Accounts to pay into. */
  ibans: Found[];
  /** The buyer's accounts a direct debit draws on ("von Ihrem Konto mit IBAN …", "Käufer-IBAN"): never an account to pay into. */
  debited: Found[];
  bics: Found[];
  vatIds: VatIdFound[];
  /** German commercial register numbers ("HRB 13302"), whoever printed them. */
  registers: PlacedFound[];
  /** French company numbers, as printed: a SIRET (14 digits) or a SIREN (9), whoever printed them. */
  sirets: PlacedFound[];
}

/**
 * "HRB 13302", "HR B 1234", "HRA-Nr. 567": the register's section and number, with the court's
 * letters where they follow the number ("HRB 22334 KI", "HRB 12345 B" in Berlin).
 */
const COMMERCIAL_REGISTER = /(?<![A-Za-z])HR[ -]?([AB])(?:[ .:-]*Nr\.?)?[ .:-]*(\d{1,6})(?![\d/])(?: ([A-Z]{1,3}))?(?![\p{L}\d])/gu;

/** "SIRET 39280913700027", "SIREN : 392 809 137", "N° SIRET 392 809 137 00027". */
const COMPANY_NUMBER = /(?<![A-Za-z])SIRE[NT]\b(?:\s*n°)?\s*:?\s*(\d{3} ?\d{3} ?\d{3}(?: ?\d{5})?)(?!\d)/giu;

/** Words right before an IBAN that make it the buyer's account, which a direct debit draws on. */
const DEBITED_CONTEXT =
  /ihr(?:em|e|er)? (?:konto|iban|bankverbindung)|(?<![a-z])(?:kaufer|kunden)-?iban|your (?:account|iban|bank account)|debited|belastet|compte (?:du client|debite)|votre (?:compte|iban)|payer'?s? (?:account|iban)/;

const VAT_LABEL = /ust|mwst|vat|tva|btw|uid|steuer-?id|umsatzsteuer|tax id|iva|identification|intracom|n° tva/;

/** The segment a narrow cell wraps a value onto, under its start, with a line of the next column maybe between. */
function cellBelow(seg: Segment, below: readonly Line[]): Segment | undefined {
  return below.flatMap((line) => line.segments).find((o) => Math.abs(o.x0 - seg.x0) < seg.height && o.top - seg.bottom < seg.height);
}

/** A labelled IBAN shorter than its country's, with groups of its characters right under it: the rest the cell wrapped. */
function cutIban(account: string, seg: Segment, below: readonly Line[]): boolean {
  const rest = cellBelow(seg, below);
  return ibanCut(account) && rest !== undefined && /^[A-Z0-9]{1,4}(?: [A-Z0-9]{1,4})*$/.test(rest.text.trim());
}

/** A label set right over a value, at its start ("Tax Identifier:" over "DE123456789"): that value's context. */
function labelOver(seg: Segment, above: readonly Line[]): string {
  const over = above
    .flatMap((line) => line.segments)
    .find((o) => Math.abs(o.x0 - seg.x0) < seg.height && seg.top - o.bottom < seg.height && seg.top > o.bottom - 1);
  return over && /\p{L}/u.test(over.text) && !/\d{4}/.test(over.text) ? `${over.text}   ` : '';
}

/**
 * An IBAN that running text wraps at the line's end ("… auf das Konto IBAN DE75 5121" / "0800 1245
 * 1261 99."): the first segment of the next line goes on with it. Only a checksum that holds
 * across the break joins the two.
 */
function wrappedIbans(last: Segment, below: readonly Line[]): IdMatch[] {
  // Running text wraps to the line's start; a narrow cell under its own start.
  const first = below[0]?.segments[0];
  const cell = cellBelow(last, below);
  const rests = [cell, first && first.x0 <= last.x0 + last.height ? first : undefined].filter((o) => o !== undefined);
  return (
    rests
      .map((rest) =>
        scanIbans(`${last.text} ${rest.text}`).filter((m) => m.checked && m.start < last.text.length && m.end > last.text.length),
      )
      .find((found) => found.length > 0) ?? []
  );
}

export function findAccounts(doc: Doc): Accounts {
  const ibans: Found[] = [];
  const debited: Found[] = [];
  const bics: Found[] = [];
  const vatIds: VatIdFound[] = [];
  const registers: PlacedFound[] = [];
  const sirets: PlacedFound[] = [];
  for (const page of doc.pages) {
    for (const [index, line] of page.lines.entries()) {
      const whole = lineText(line);
      const wholeFolded = fold(whole);
      const bicLabel = /bic|swift/.test(wholeFolded);
      const ibanOnLine = scanIbans(whole).length > 0;
      let prefix = '';
      for (const seg of line.segments) {
        const over = labelOver(seg, page.lines.slice(Math.max(0, index - 1), index));
        const found = [
          ...scanIbans(seg.text),
          ...(seg === line.segments.at(-1) ? wrappedIbans(seg, page.lines.slice(index + 1, index + 3)) : []),
        ];
        // Whose account: the words right before where the segment starts, or before the IBAN in it.
        const owner = (start: number) =>
          DEBITED_CONTEXT.test(fold(over + prefix + seg.text.slice(0, start)).slice(-30)) ? debited : ibans;
        for (const m of found) {
          owner(m.start).push({
            value: m.value,
            score: m.checked ? 1 : 0.5,
            page: seg.page,
            y: seg.top,
            via: m.checked ? 'iban:checked' : 'iban:shape',
          });
        }
        // A scan's IBAN with a digit read as its look-alike letter ("DEO2…"): calibrated apart.
        const misread = found.length === 0 && doc.source === 'ocr' ? scanMisreadIbans(seg.text) : [];
        for (const m of misread) owner(0).push({ value: m.value, score: 0.9, page: seg.page, y: seg.top, via: 'iban:misread' });
        // A labelled account that fails the IBAN rules (wrong length, typo) is still what the page says.
        const labelled =
          found.length + misread.length === 0
            ? /(?<![a-z])iban\s*(?:-?nr\.?)?\s*:?\s*([A-Z]{2}\d{2}(?:\s?[A-Z0-9]{2,4}){2,8})(?![A-Za-z0-9])/i.exec(
                prefix.slice(-12) + seg.text,
              )
            : null;
        const account = labelled?.[1]!.replace(/\s+/g, '').toUpperCase();
        if (account)
          owner(Math.max(0, labelled!.index - prefix.slice(-12).length)).push({
            value: account,
            score: 0.4,
            page: seg.page,
            y: seg.top,
            via: `iban:label${cutIban(account, seg, page.lines.slice(index + 1, index + 3)) ? CUT_IBAN : ''}`,
          });
        for (const m of scanBics(seg.text)) {
          // Upper-case words of 8 or 11 letters are common ("DUESSELDORF"); a BIC needs its label or an IBAN beside it.
          if (!bicLabel && !ibanOnLine) continue;
          bics.push({ value: m.value, score: bicLabel ? 1 : 0.7, page: seg.page, y: seg.top, via: 'bic' });
        }
        const vats = scanVatIds(seg.text);
        // A labelled VAT id whose length or check digits fail is still what a text layer says (as for IBANs
        // above); a scan's misread digits are not, so OCR pages keep to well-formed ones.
        const asPrinted =
          vats.length === 0 && doc.source !== 'ocr' ? /(?<![A-Za-z0-9])([A-Z]{2}[A-Z0-9]{8,14})(?![A-Za-z0-9])/.exec(seg.text) : null;
        const printedContext = asPrinted ? fold(over + prefix + seg.text.slice(0, asPrinted.index)).slice(-40) : '';
        if (asPrinted && hasVatPrefix(asPrinted[1]!) && /\d{5}/.test(asPrinted[1]!) && VAT_LABEL.test(printedContext)) {
          vatIds.push({
            value: asPrinted[1]!,
            score: 0.4,
            page: seg.page,
            y: seg.top,
            via: 'vat:label-unchecked',
            role: BUYER_ID_CONTEXT.test(printedContext) ? 'buyer' : 'seller',
            segment: seg,
          });
        }
        for (const m of vats) {
          const context = fold(over + prefix + seg.text.slice(0, m.start)).slice(-40);
          const labelled = VAT_LABEL.test(context);
          // Without a label, only a passed checksum makes a string of digits a VAT identifier.
          if (!labelled && m.checked !== true) continue;
          const score = (labelled ? 0.7 : 0.5) + (m.checked === true ? 0.3 : m.checked === false ? -0.2 : 0.1);
          const role = BUYER_ID_CONTEXT.test(context) ? 'buyer' : 'seller';
          vatIds.push({
            value: m.value,
            score,
            page: seg.page,
            y: seg.top,
            via: `vat:${labelled ? 'label' : 'shape'}`,
            role,
            segment: seg,
          });
        }
        if (VAT_LABEL.test(fold(prefix + seg.text).slice(-60))) {
          for (const m of seg.text.matchAll(/(?<![A-Za-z0-9])([A-Z])[\s-]?(\d{8,12})(?![A-Za-z0-9])/g)) {
            const repaired = repairVatPrefix(m[1]!, m[2]!);
            if (repaired)
              vatIds.push({
                value: repaired,
                score: 0.6,
                page: seg.page,
                y: seg.top,
                via: `${INFERRED}vat-prefix-repaired`,
                role: 'seller',
                segment: seg,
              });
          }
        }
        for (const m of seg.text.matchAll(COMMERCIAL_REGISTER))
          registers.push({
            value: [`HR${m[1]}`, m[2], m[3]].filter(Boolean).join(' '),
            score: 1,
            page: seg.page,
            y: seg.top,
            via: 'register',
            segment: seg,
          });
        for (const m of seg.text.matchAll(COMPANY_NUMBER))
          sirets.push({ value: m[1]!.replace(/ /g, ''), score: 1, page: seg.page, y: seg.top, via: 'company-number', segment: seg });
        prefix += `${seg.text}   `;
      }
    }
  }
  return { ibans, debited, bics, vatIds, registers, sirets };
}

/**
 * The seller's SIREN (BT-30) where its VAT id is not printed: CIUS-FR gives a French seller's
 * legal registration as the SIREN (scheme 0002), the first nine digits of its SIRET. Without the
 * VAT id the e-invoice needs it to name the seller (BR-CO-26); with it, issuers put either number
 * there (the factur-x-fr samples the SIRET under 0002), so a person picks. A text layer's digits
 * are what the issuer printed; a scan's are taken only where the check digits hold.
 */
export function sellerSiren(sellers: readonly PlacedFound[], vatPrinted: boolean, scanned: boolean): PlacedFound | undefined {
  const sirens = new Set(sellers.map((f) => f.value.slice(0, 9)));
  if (vatPrinted || sirens.size !== 1) return undefined;
  const checked = sellers.every((f) => luhn(f.value) && luhn(f.value.slice(0, 9)));
  if (scanned && !checked) return undefined;
  return { ...sellers[0]!, value: [...sirens][0]!, via: checked ? 'siren:checked' : 'siren:shape' };
}
