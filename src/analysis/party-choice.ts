import type { PageText } from '../reading/page-text.js';
import { buildDoc, type Doc } from './document.js';
import { keyValueParties } from './key-value-parties.js';
import { buildBlocks } from './layout.js';
import { PARTY_NAME_MODELS } from './party-name-model.js';
import { nameCandidates, type NameCandidate, type NameRole } from './party-names.js';
import { boxOf, findParties, parseAddress, registeredName, type Parties, type Party } from './parties.js';
import { rank, type RankerModel } from './ranker.js';
import { partyHeadings, type Heading } from './sections.js';
import { clean } from './text.js';

/**
 * The party names the ranker chooses among the candidates, with the probability it gives its
 * choice. Where it prefers "none", the name is left out (a refusal names it for a person to
 * confirm); where it prefers another line than the layout rules did, the party is read again
 * from where that line stands.
 */

export type PartyModels = Readonly<Record<NameRole, RankerModel>>;

export interface NameChoice {
  /** The chosen name's probability; undefined where no candidate was chosen. */
  probability?: number;
  /** The next likeliest readings, for a person to choose from. */
  alternatives: string[];
}

export function chooseParties(
  doc: Doc,
  headings: readonly Heading[],
  ruled: Parties,
  models: PartyModels = PARTY_NAME_MODELS,
): { parties: Parties; choices: Record<NameRole, NameChoice> } {
  const candidates = candidatesOf(doc, headings, ruled);
  const ranked = { seller: ranking(models.seller, candidates.seller), buyer: ranking(models.buyer, candidates.buyer) };
  // One name is one party. Where both roles prefer it, the role the layout rules gave it keeps it
  // (the rankers of the two roles are not comparable there: a page with one address offers each
  // nothing else); failing that the surer role. The other takes its next reading.
  const [first, second] = keeperOf(ranked);
  const taken = ranked[first][0]?.c?.value;
  if (taken !== undefined) ranked[second] = ranked[second].filter((o) => o.c?.value !== taken);
  const parties: Parties = { ...ruled };
  const choices = {} as Record<NameRole, NameChoice>;
  for (const role of ['seller', 'buyer'] as const) {
    const top = ranked[role][0];
    const alternatives = ranked[role].flatMap((o) => (o.none ? [] : [o.c.value])).slice(top?.none ? 0 : 1, 4);
    if (!top || top.none === true) {
      if (parties[role]) parties[role] = withoutName(parties[role]!);
      choices[role] = { alternatives };
    } else {
      parties[role] = partyAt(doc, top.c, ruled[role]);
      choices[role] = { probability: top.p, alternatives };
    }
  }
  asRegistered(doc, parties, choices.seller);
  return { parties, choices };
}

/** The seller under its registered name, the name as printed kept as the next reading for a person. */
function asRegistered(doc: Doc, parties: Parties, choice: NameChoice): void {
  const printed = parties.seller?.name;
  if (printed === undefined) return;
  const registered = registeredName(doc, printed);
  if (registered === printed) return;
  parties.seller = { ...parties.seller!, name: registered };
  choice.alternatives = [printed, ...choice.alternatives].slice(0, 3);
}

function keeperOf(ranked: Record<NameRole, Ranked[]>): [NameRole, NameRole] {
  const [seller, buyer] = [ranked.seller[0], ranked.buyer[0]];
  const ruledFor = (o: Ranked | undefined) => Boolean(o?.c?.features.ruledSame);
  if (seller?.c && buyer?.c && seller.c.value === buyer.c.value && ruledFor(seller) !== ruledFor(buyer))
    return ruledFor(seller) ? ['seller', 'buyer'] : ['buyer', 'seller'];
  return (seller?.p ?? 0) >= (buyer?.p ?? 0) ? ['seller', 'buyer'] : ['buyer', 'seller'];
}

type Ranked = { c: NameCandidate; p: number; none?: false } | { c?: undefined; p: number; none: true };

/** The candidates and "none", likeliest first. */
function ranking(model: RankerModel, candidates: NameCandidate[]): Ranked[] {
  const p = rank(
    model,
    candidates.map((c) => c.features),
  );
  const all: Ranked[] = [...candidates.map((c, i) => ({ c, p: p[i]! })), { p: p.at(-1)!, none: true }];
  return all.sort((a, b) => b.p - a.p);
}

function withoutName(p: Party): Party {
  const { name: _name, ...rest } = p;
  return rest;
}

/** The party as the rules read it where they chose the same name; else its address read from below the chosen name. */
function partyAt(doc: Doc, chosen: NameCandidate, ruled: Party | undefined): Party {
  if (ruled?.name !== undefined && clean(ruled.name) === chosen.value) return ruled;
  // The rules completed the chosen name with the legal form printed elsewhere ("Musterbau UG" → "… UG (haftungsbeschränkt)").
  if (ruled?.name !== undefined && ruled.via.endsWith('+legal-form') && clean(ruled.name).startsWith(`${chosen.value} `)) return ruled;
  const page = doc.pages.find((p) => p.page === chosen.segment.page)!;
  const block = buildBlocks(page, 3).find((b) => b.segments.includes(chosen.segment));
  const segments = block ? block.segments.slice(block.segments.indexOf(chosen.segment)) : [chosen.segment];
  const address = parseAddress(segments.map((s) => s.text));
  return { ...(address ?? {}), name: chosen.value, score: 0.5, via: 'ranked', ...boxOf(segments) };
}

/** Every candidate name per role, as the ranker sees them: what its training learns from. */
export function partyNameCandidates(pages: PageText[]): Record<NameRole, NameCandidate[]> {
  const doc = buildDoc(pages);
  const headings = partyHeadings(doc);
  return candidatesOf(doc, headings, ruledParties(doc, headings));
}

/** The parties as the layout rules read them; a key–value rendering's sections, where the page has them, over the address blocks. */
export function ruledParties(doc: Doc, headings: readonly Heading[]): Parties {
  return { ...findParties(doc), ...keyValueParties(doc, headings) };
}

function candidatesOf(doc: Doc, headings: readonly Heading[], ruled: Parties): Record<NameRole, NameCandidate[]> {
  return { seller: nameCandidates(doc, headings, ruled, 'seller'), buyer: nameCandidates(doc, headings, ruled, 'buyer') };
}
