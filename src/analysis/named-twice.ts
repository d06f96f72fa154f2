import { pageOf, type Doc } from './document.js';
import type { Segment } from './layout.js';
import { LEGAL_FORM } from './parties.js';
import { fold } from './text.js';

/** The evidence suffix of a party name the page contradicts: another company is named at the same street. */
export const NAMED_TWICE = ':named-twice';

/** How many lines above its street a block's name may stand (a name of two lines, a contact line between). */
const NAME_REACH = 3;

/**
 * Another company name printed over the party's street anywhere on the page: a letterhead that
 * names "KOSTENLIEFERANT GMBH" over "BAHNHOFSTRASSE 99" where the footer names
 * "MUSTERLIEFERANT GMBH" over the same street. Which is the party's name the page does not
 * settle. A name that differs only by its legal form ("Acme" and "Acme GmbH") is the same name,
 * and so is a line of it (the second line of "MVM Musterhafter" / "Versicherungsverein a.G.").
 */
export function otherNameAtStreet(doc: Doc, name: string, street: string, postCode: string | undefined): string | undefined {
  const own = bareName(name);
  const wanted = fold(street);
  for (const page of doc.pages)
    for (const line of page.lines)
      for (const s of line.segments.filter((seg) => startsWithStreet(seg.text, wanted))) {
        // The same street in another town is another address.
        if (postCode !== undefined && !postCodeNear(doc, s, postCode)) continue;
        const above = nameAbove(doc, s);
        if (above && LEGAL_FORM.test(above) && !sameName(bareName(above), own)) return above;
      }
  return undefined;
}

/** The street alone, or first with the town after a comma ("Hafenstraße 7, 20457 Hamburg"). */
function startsWithStreet(text: string, street: string): boolean {
  const t = fold(text);
  return t === street || t.startsWith(`${street},`);
}

/** The post code in the street's segment ("Hafenstraße 7, 20457 Hamburg") or on a line under it. */
function postCodeNear(doc: Doc, s: Segment, postCode: string): boolean {
  const lines = pageOf(doc, s.page).lines;
  return lines.slice(s.line, s.line + 3).some((l) => l.segments.some((o) => o.x1 > s.x0 && o.x0 < s.x1 && o.text.includes(postCode)));
}

/** The nearest text standing over a segment, left-aligned with it, within a block's reach. */
function nameAbove(doc: Doc, s: Segment): string | undefined {
  const lines = pageOf(doc, s.page).lines;
  for (let i = s.line - 1; i >= Math.max(0, s.line - NAME_REACH); i--) {
    const over = lines[i]!.segments.find((o) => Math.abs(o.x0 - s.x0) <= lines[i]!.height);
    if (over && /\p{L}/u.test(over.text)) return over.text;
  }
  return undefined;
}

/** One name's words are all among the other's. */
function sameName(a: string, b: string): boolean {
  const [x, y] = [a.split(' '), b.split(' ')];
  return x.every((w) => y.includes(w)) || y.every((w) => x.includes(w));
}

/** A company name's words without its legal form and punctuation, folded. */
function bareName(name: string): string {
  return fold(name)
    .replace(new RegExp(LEGAL_FORM.source, 'gi'), ' ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}
