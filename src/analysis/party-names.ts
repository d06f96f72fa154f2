import { documentTypeOf } from './codes.js';
import { allSegments, belowOf, lineOf, rightOf, type Doc } from './document.js';
import { buildBlocks, type Block, type PageLayout, type Segment } from './layout.js';
import { LITTLE_WORDS, NAME_LABEL, PLACEHOLDER_WORDS, type PartyRole } from './lexicon.js';
import { isHeading, isStreet, LEGAL_FORM, parseCityLine, senderParts, type Parties } from './parties.js';
import { isIllegible, wordsSpelling } from './legibility.js';
import { sectionOf, type Heading } from './sections.js';
import type { FeatureVector } from './ranker.js';
import { clean, fold } from './text.js';

/**
 * Candidates for a party's name, each with the features the ranker weighs. The layout rules
 * (parties.ts) propose names with high recall but choose among them by hand-set precedence,
 * which does not carry over to layouts nobody tuned for; here every plausible line of the
 * first page is a candidate, the rules' own choice one feature among others.
 */

export type NameRole = Extract<PartyRole, 'seller' | 'buyer'>;

export interface NameCandidate {
  value: string;
  /** Where it was printed (its first segment), so the party's address and ids can follow it. */
  segment: Segment;
  features: FeatureVector;
}

/** A legal form ending a name; not a unit after a number ("3 kg", "5 sa"). */
function hasLegalForm(text: string): boolean {
  return LEGAL_FORM.test(text) && !/\d\s*(?:kg|ag|sa|se|co|ug|ltd)\b/i.test(text);
}

/**
 * Legal forms that only ever close a name: a text that starts with one ("GmbH - Musterstraße -",
 * a sender line cut in the wrong place) or is nothing else ("Inc.") is no name. French forms may
 * open one ("SARL Dupont"), so they are not among them.
 */
const CLOSING_FORM = String.raw`(?:gmbh|mbh|ltd|inc|llc|plc|kg|ohg|corp)\.?`;
const STARTS_WITH_CLOSING_FORM = new RegExp(String.raw`^(?:&\s*co\.?\s*)?${CLOSING_FORM}(?![\p{L}\d])`, 'iu');

export function isNameFragment(text: string): boolean {
  return STARTS_WITH_CLOSING_FORM.test(clean(text));
}

/** The text is a name label, with or without its colon. */
const isNameLabel = (text: string) =>
  NAME_LABEL.test(
    fold(text)
      .replace(/[:.]+$/, '')
      .trim(),
  );

/** Words that make a row of placeholder words a label rather than a made-up name ("Seller Company" is a test invoice's name; "Seller name" is not). */
const PLACEHOLDER_MARK = /^(?:logo|name|nom|naam|nome|contact|trade)$/;

/** Words of templates and headings standing where a name goes ("LOGO LE FOURNISSEUR", "Buyer contact name"). */
export function isPlaceholder(text: string): boolean {
  const words = fold(text)
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);
  return (
    words.length > 0 &&
    words.every((w) => PLACEHOLDER_WORDS.has(w) || LITTLE_WORDS.has(w)) &&
    (words.length === 1 || words.some((w) => PLACEHOLDER_MARK.test(w)))
  );
}

/** Features of a candidate's place on the page: a name printed twice keeps those of its first printing. */
const WHERE: ReadonlySet<string> = new Set(['y', 'x', 'size', 'tallest', 'top', 'footer', 'window', 'firstInBlock', 'lineHasOthers']);

/** "Name: Global Supplies Ltd.": a label with its value, of which only the value is a candidate. */
function labelled(text: string): boolean {
  const at = text.indexOf(':');
  return at > 0 && isLabelText(text.slice(0, at));
}

/** A text that labels or heads something: never a value. */
export function isLabelText(text: string): boolean {
  const t = clean(text);
  return /:$/.test(t) || isHeading(t) || isPlaceholder(t) || isNameLabel(t);
}

export function nameCandidates(doc: Doc, headings: readonly Heading[], ruled: Parties, role: NameRole): NameCandidate[] {
  const page = doc.pages[0]!;
  const other: NameRole = role === 'seller' ? 'buyer' : 'seller';
  const blocks = buildBlocks(page);
  const heights = page.lines.flatMap((l) => l.segments.map((s) => s.height)).sort((a, b) => a - b);
  const median = heights[Math.floor(heights.length / 2)] ?? 1;
  const tallest = heights.at(-1) ?? 1;
  const emails = [...allSegments(doc)].flatMap((s) => [...s.text.matchAll(/(?:@|www\.)([\p{L}\d-]+)\./giu)].map((m) => fold(m[1]!)));
  const byValue = new Map<string, NameCandidate>();
  const add = (value: string, segment: Segment, extra: Record<string, number>) => {
    const v = clean(value);
    // A label or heading is never a value, whatever else speaks for it.
    if (!/\p{L}{2}/u.test(v) || v.length > 80 || isLabelText(v) || labelled(v)) return;
    // An address line is never a name: "123 Business Road", "24103 Kiel".
    if (isStreet(v) || parseCityLine(v) !== undefined || isNameFragment(v)) return;
    if (isIllegible(wordsSpelling(segment.words, v))) return;
    const features = featuresOf(v, segment, { doc, page, blocks, headings, ruled, role, other, median, tallest, emails });
    const merged = { ...features, ...extra };
    const seen = byValue.get(v);
    if (!seen) byValue.set(v, { value: v, segment, features: merged });
    else {
      const both: Record<string, number> = { ...seen.features };
      // Where it stands is where it is first printed; what speaks for it anywhere else adds up.
      for (const [k, x] of Object.entries(merged)) if (!WHERE.has(k)) both[k] = Math.max(both[k] ?? 0, x);
      both.repeated = Math.min(1, (both.repeated ?? 0) + 1 / 3);
      byValue.set(v, { ...seen, features: both });
    }
  };
  for (const line of page.lines) {
    for (const seg of line.segments) {
      add(seg.text, seg, {});
      // A sender line ("ACME GmbH · Weg 1 · 12345 Ort") names the party in its first part.
      const parts = senderParts(seg.text);
      if (parts.length > 1) parts.forEach((part, i) => add(part, seg, { linePart: 1, firstPart: Number(i === 0) }));
      const inline = /^(.{1,40}?)\s*:\s*(.+)$/.exec(seg.text);
      if (inline) add(inline[2]!, seg, { afterLabel: 1, afterNameLabel: Number(isNameLabel(inline[1]!)) });
      if (isLabelText(seg.text)) {
        const value = rightOf(doc, seg);
        if (value) add(value.text, value, { afterLabel: 1, afterNameLabel: Number(isNameLabel(seg.text)) });
      }
      const below = belowOf(doc, seg);
      const sameBlock = below !== undefined && blocks.some((b) => b.segments.includes(seg) && b.segments.includes(below));
      if (below && sameBlock && !isLabelText(seg.text) && !isLabelText(below.text) && wrapsInto(seg.text, below.text))
        add(`${seg.text} ${below.text}`, seg, { twoLines: 1 });
    }
  }
  for (const r of [role, other]) {
    const name = ruled[r]?.name;
    if (!name) continue;
    const seen = byValue.get(clean(name));
    if (seen) continue;
    // A name the rules composed (legal form from elsewhere, two lines): a candidate of its own, where they found the party.
    const at = page.lines.flatMap((l) => l.segments).find((s) => s.top >= ruled[r]!.top - 1) ?? page.lines[0]!.segments[0]!;
    add(name, at, {});
  }
  return [...byValue.values()];
}

/** A company name broken over two lines ("Muster Holding" / "GmbH & Co. KG", "… &" / "Co. KG"). */
function wrapsInto(first: string, second: string): boolean {
  return (
    (!hasLegalForm(first) && hasLegalForm(second) && second.split(/\s+/).length <= 4) || /(?:[&+]|\b(?:und|and|et))$/i.test(first.trim())
  );
}

interface Context {
  doc: Doc;
  page: PageLayout;
  blocks: Block[];
  headings: readonly Heading[];
  ruled: Parties;
  role: NameRole;
  other: NameRole;
  median: number;
  tallest: number;
  emails: string[];
}

function featuresOf(value: string, seg: Segment, c: Context): Record<string, number> {
  const f = fold(value);
  const section = sectionOf(c.headings, seg);
  const block = c.blocks.find((b) => b.segments.includes(seg));
  const at = block ? block.segments.indexOf(seg) : 0;
  const after = block ? block.segments.slice(at + 1, at + 5).map((s) => s.text) : [];
  const ruledAs = (r: NameRole) => Number(c.ruled[r]?.name !== undefined && clean(c.ruled[r]!.name!) === value);
  const ruledVia = c.ruled[c.role]?.via ?? '';
  const words = value.split(/\s+/);
  return {
    ruledSame: ruledAs(c.role),
    ruledSameLabel: ruledAs(c.role) * Number(ruledVia.startsWith('label')),
    ruledSameWindow: ruledAs(c.role) * Number(ruledVia.startsWith('address-window')),
    ruledSameLetterhead: ruledAs(c.role) * Number(/^(?:letterhead|sender-line|footer|legal-notice|account-holder)/.test(ruledVia)),
    ruledOther: ruledAs(c.other),
    sectionSame: Number(section?.role === c.role),
    sectionOther: Number(section !== undefined && section.role !== c.role),
    firstInSection: Number(section !== undefined && firstBelow(c, section, seg)),
    legalForm: Number(hasLegalForm(value)),
    title: Number(documentTypeOf(value) !== undefined),
    digits: (value.match(/\d/g)?.length ?? 0) / value.length,
    contact: Number(/@|www\.|https?:|\+?\d[\d /-]{6,}/.test(f)),
    words: Math.min(words.length, 8) / 8,
    upper: Number(value === value.toUpperCase() && /\p{Lu}{3}/u.test(value)),
    y: seg.top / c.page.height,
    x: seg.x0 / c.page.width,
    size: Math.min(3, seg.height / c.median) - 1,
    tallest: Number(seg.height >= 0.95 * c.tallest),
    addressBelow: Number(after.some((t) => parseCityLine(t) !== undefined)),
    streetBelow: Number(after.slice(0, 2).some(isStreet)),
    firstInBlock: Number(at === 0),
    top: Number(seg.top < 0.2 * c.page.height),
    footer: Number(seg.top > 0.8 * c.page.height),
    window: Number(seg.top > 0.115 * c.page.height && seg.top < 0.45 * c.page.height && seg.x0 < 0.5 * c.page.width),
    emailDomain: Number(words.some((w) => fold(w).length >= 4 && c.emails.includes(fold(w).replace(/[^\p{L}\d-]/gu, '')))),
    lineHasOthers: Number(lineOf(c.doc, seg).segments.length > 1),
  };
}

/** The candidate is the first line of its section that is not a label: where a party's name stands. */
function firstBelow(c: Context, h: Heading, seg: Segment): boolean {
  if (h.rest && clean(h.rest) === clean(seg.text)) return true;
  for (const line of c.page.lines) {
    if (line.top <= h.segment.top + 0.5 * h.segment.height) continue;
    const first = line.segments.find(
      (s) => s.x1 > h.segment.x0 - h.segment.height && !isLabelText(s.text) && !isIllegible(s.words) && sectionOf(c.headings, s) === h,
    );
    if (first) return first === seg || (lineOf(c.doc, seg) === line && !isLabelText(seg.text));
  }
  return false;
}
