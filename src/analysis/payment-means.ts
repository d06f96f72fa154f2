import { lineText, type Doc, type Found } from './document.js';
import { creditorIdValid } from './identifiers.js';
import type { Line } from './layout.js';
import { fold } from './text.js';

/**
 * How the invoice is to be paid (BT-81), where the page says it: a code printed beside its label
 * (renderings of the XML: "Code für das Zahlungsmittel: 59 (SEPA direct debit)"), or a direct
 * debit the page announces ("… wird am 20.11.2024 von Ihrem Konto per SEPA-Lastschrift
 * eingezogen"), with its mandate reference (BT-89) and the creditor's identifier (BT-90). An IBAN
 * on such a page may be the buyer's, which no transfer goes to: it must not make the payment a
 * transfer. An offer of a mandate ("wenn Sie uns ein SEPA-Lastschriftmandat erteilen") announces nothing.
 */
export interface PaymentMeans {
  code?: Found;
  mandate?: Found;
  creditor?: Found;
}

/** The label of a printed code; renderings wrap "Code für das" / "Zahlungsmittel:" around the code. */
const CODE_LABEL = /payment means type|code fur das\b|zahlungstyp\s+\(codiert\)/;
/** UNTDID 4461 codes EN 16931 invoices use. */
const CODES = new Set(['1', '10', '20', '30', '31', '42', '48', '49', '54', '55', '57', '58', '59', '68', '97']);
const DEBIT = /lastschrift|direct debit|prelevement|bankeinzug/;
const DEBITED = /eingezogen|abgebucht|will be (?:debited|collected)|is debited|sera preleve|est preleve/;
/** An offer or a denial announces no debit: "wenn Sie uns ein Mandat erteilen", "wird nicht per Lastschrift eingezogen". */
const NOT_ANNOUNCED = /\b(?:wenn|falls|sofern|if|should you|si vous|nicht|kein|keine|not|no|pas)\b/;
const MANDATE = /^(?:mandatsreferenz(?:nr\.?)?(?: d\. lastschrift)?|mandate reference(?: identifier)?|reference unique de mandat|rum)$/;
/** A mandate reference as issuers print it: letters, digits and separators (not a placeholder in brackets). */
const MANDATE_SHAPE = /^[\p{L}\d][\p{L}\d .\-/]*[\p{L}\d]$/u;
const CREDITOR_LABEL =
  /^(?:glaubiger[- ]?(?:id|identifikationsnummer)(?: bei lastschrift)?|creditor (?:id|identifier)|identifiant creancier(?: sepa)?|ics)$/;

export function findPaymentMeans(doc: Doc): PaymentMeans {
  const found: PaymentMeans = {};
  for (const page of doc.pages)
    page.lines.forEach((line, i) => {
      const at = { page: line.page, y: line.top };
      const text = fold(lineText(line));
      const code = CODE_LABEL.test(text) ? printedCode(line.segments.map((s) => s.text)) : undefined;
      if (code && found.code?.via !== 'payment:code') found.code = { value: code, score: 1, ...at, via: 'payment:code' };
      // A sentence that announces the debit may wrap: the line and the next read together.
      const sentence = `${text} ${fold(lineText(page.lines[i + 1] ?? line))}`;
      if (!found.code && DEBIT.test(sentence) && DEBITED.test(sentence) && !NOT_ANNOUNCED.test(sentence))
        found.code = { value: '59', score: 0.9, ...at, via: 'payment:debit-announced' };
      found.mandate ??= labelled(line, MANDATE, (v) => MANDATE_SHAPE.test(v), 'payment:mandate');
      found.creditor ??= labelled(line, CREDITOR_LABEL, creditorIdValid, 'payment:creditor');
    });
  return found;
}

/** "59 (SEPA direct debit)", "42": a known code in a segment of its own, or after the label's colon in the label's. */
function printedCode(segments: string[]): string | undefined {
  for (const s of segments) {
    const m = /^\s*(\d{1,2})(?:\s*\(.*\))?\s*$/.exec(s.split(':').at(-1)!);
    if (m && CODES.has(m[1]!)) return m[1];
  }
  return undefined;
}

/**
 * The value after its label: in the label's segment after its colon, up to a comma
 * ("Mandatsreferenz, Gläubiger-Identifikationsnummer: DE98ZZZ09999999999"), or the
 * next segment where the label ends its own.
 */
function labelled(line: Line, label: RegExp, shape: (value: string) => boolean, via: string): Found | undefined {
  const texts = line.segments.map((s) => s.text);
  for (const [k, text] of texts.entries()) {
    const parts = text.split(/\s*:\s*/);
    for (let p = 0; p < parts.length; p++) {
      if (!label.test(fold(parts[p]!.split(/,\s/).at(-1)!).trim())) continue;
      const after = p + 1 < parts.length && parts[p + 1] !== '' ? parts[p + 1]! : (texts[k + 1] ?? '').replace(/^\s*:\s*/, '');
      const value = after.split(/,\s/)[0]!.trim();
      if (shape(value)) return { value, score: 1, page: line.page, y: line.top, via };
    }
  }
  return undefined;
}
