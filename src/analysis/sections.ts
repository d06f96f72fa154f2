import { allSegments, type Doc } from './document.js';
import type { Segment } from './layout.js';
import { PARTY_LABEL_WORDS, PARTY_LABELS, type PartyRole } from './lexicon.js';
import { editDistance, fold } from './text.js';

/**
 * Party sections: a heading such as "Verkäufer", "Bill to" or "Abweichender Warenempfänger"
 * opens a section, and what stands below it (in its column, before the next heading) belongs to
 * that party. Readable renderings of e-invoices print a label column on the left, a value column
 * on the right and one such heading per party; reading a value across a section boundary gives
 * the buyer the seller's name or VAT id.
 */

export interface Heading {
  role: PartyRole;
  segment: Segment;
  /** What followed the label's colon on its own segment ("Kunde: ACME GmbH" → "ACME GmbH"). */
  rest: string;
}

/** Where a section ends at the latest, in heights of the heading's text: a party block of a readable rendering runs to about 12 rows. */
const SECTION_REACH = 25;

/** The party a segment's text labels, if it is a party heading; `scanned` admits a letter or two misread. */
export function labelRole(seg: Segment, scanned: boolean): { role: PartyRole; rest: string } | undefined {
  const m = /^(.*?)\s*:\s*(.*)$/.exec(seg.text);
  // A scan reads a rule or a box edge before a label as "|" or "[": not part of it.
  const head = fold(m ? m[1]! : seg.text)
    .replace(/[:.]+$/, '')
    .replace(/^[|[\]()!_\s]+/, '')
    .trim();
  // Some PDF writers space words apart mid-word ("Ver käufer"): try the label without spaces too.
  for (const [role, re] of PARTY_LABELS) if (re.test(head) || re.test(head.replace(/\s+/g, ''))) return { role, rest: m ? m[2]! : '' };
  if (!scanned || (m && m[2] !== '')) return undefined;
  // A scan may misread a letter or two of a label standing alone on its line ("Verkiinfer-", "Kiufer:").
  // Two labels of one role joined ("Kaufer/Leistungsempfinger"): each read as near one of that role's.
  const words = head.replace(/[-:;.,]+$/, '').split(/\s*[/&]\s*/);
  if (!words.every((w) => /^\p{L}+$/u.test(w))) return undefined;
  const roles = words.map((w) => PARTY_LABEL_WORDS.find(([, label]) => nearLabel(w, label))?.[0]);
  return roles[0] !== undefined && roles.every((r) => r === roles[0]) ? { role: roles[0], rest: '' } : undefined;
}

/**
 * A word a scan made of a label: the label's ends as printed (the first four letters of a
 * long word, the first of a short one, the last three of both: "Lieferavis" is not
 * "Lieferant") and at most three misread letters in between (one in a short word).
 */
function nearLabel(word: string, label: string): boolean {
  if (word.length < 6 || Math.abs(word.length - label.length) > 2 || word.slice(-3) !== label.slice(-3)) return false;
  const long = word.length >= 9;
  return word.slice(0, long ? 4 : 1) === label.slice(0, long ? 4 : 1) && editDistance(word, label) <= (long ? 3 : 1);
}

export function partyHeadings(doc: Doc): Heading[] {
  const out: Heading[] = [];
  for (const segment of allSegments(doc)) {
    const hit = labelRole(segment, doc.source === 'ocr');
    if (hit) out.push({ role: hit.role, segment, rest: hit.rest });
  }
  return out;
}

/** Where a thing stands on the page, as far as sections are concerned. */
export interface Place {
  page: number;
  top: number;
  x0: number;
  x1: number;
}

/**
 * The heading whose section `at` stands in: the nearest heading above it (or on its line, to its
 * left) whose column reaches it; of two headings side by side, the one whose column it is in.
 */
export function sectionOf(headings: readonly Heading[], at: Place): Heading | undefined {
  let found: Heading | undefined;
  for (const h of headings) {
    const s = h.segment;
    if (s.page !== at.page || s.top > at.top + 0.5 * s.height || at.top - s.bottom > SECTION_REACH * s.height) continue;
    if (s.x0 > at.x0 + s.height) continue;
    if (s.top >= at.top - 0.5 * s.height && s.x1 > at.x0) continue;
    const f = found?.segment;
    const lower = f === undefined || s.top > f.bottom - 0.5 * f.height;
    const sideBySide = f !== undefined && Math.abs(s.top - f.top) < 0.5 * s.height;
    if (sideBySide ? s.x0 > f.x0 : lower) found = h;
  }
  return found;
}
