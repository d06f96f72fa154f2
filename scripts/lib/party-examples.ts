import { partyNameCandidates } from '../../src/analysis/party-choice.js';
import type { Invoice } from '../../src/invoice/model.js';
import type { PageText } from '../../src/reading/page-text.js';
import type { RankExample } from './train-ranker.js';

/** Strictly as printed: whitespace runs collapsed, nothing else removed, case kept. */
export const asPrinted = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The ranker's examples of a document: its candidates per role, and which one is the name the truth gives (none where no candidate is). */
export function partyExamples(truth: Invoice, pages: PageText[]): Record<'seller' | 'buyer', RankExample[]> {
  const candidates = partyNameCandidates(pages);
  const example = (role: 'seller' | 'buyer', name: string | undefined): RankExample[] => {
    if (name === undefined) return [];
    const at = candidates[role].findIndex((c) => asPrinted(c.value) === asPrinted(name));
    return [{ candidates: candidates[role].map((c) => c.features), right: at < 0 ? undefined : at }];
  };
  return { seller: example('seller', truth.seller?.sellerName), buyer: example('buyer', truth.buyer?.buyerName) };
}
