import { existsSync } from 'node:fs';
import { partyNameCandidates } from '../../src/analysis/party-choice.js';
import type { Invoice } from '../../src/invoice/model.js';
import type { PageText } from '../../src/reading/page-text.js';
import { extractTextLayer } from '../../src/reading/text-layer.js';
import { isVisible, visibleOf } from './corpus-truth.js';
import { syntheticItems } from './synthetic-invoices.js';
import type { RankExample } from './train-ranker.js';

/** Strictly as printed: whitespace runs collapsed, nothing else removed, case kept. */
export const asPrinted = (text: string) => text.replace(/\s+/g, ' ').trim();

/** The ranker's examples of a document: its candidates per role, and which one is the name the truth gives (none where no candidate is). */
export function partyExamples(truth: Invoice, pages: PageText[]): Record<'seller' | 'buyer', RankExample[]> {
  const candidates = partyNameCandidates(pages);
  const vis = visibleOf(pages);
  const example = (role: 'seller' | 'buyer', name: string | undefined): RankExample[] => {
    // A name the page never prints teaches nothing about the page's candidates.
    if (name === undefined || !isVisible('text', name, vis)) return [];
    const at = candidates[role].findIndex((c) => asPrinted(c.value) === asPrinted(name));
    return [{ candidates: candidates[role].map((c) => c.features), right: at < 0 ? undefined : at }];
  };
  return { seller: example('seller', truth.seller?.sellerName), buyer: example('buyer', truth.buyer?.buyerName) };
}

/**
 * Examples from the synthetic layouts (scripts/lib/synthetic-invoices.ts): more training for the
 * ranker, never evidence of how it reads real invoices, since the generator draws the layouts
 * our own rules expect.
 */
const GENERATED_WEIGHT = 0.3;

export async function generatedExamples(corpus: string, seedsFile: string): Promise<Record<'seller' | 'buyer', RankExample[]>> {
  const out: Record<'seller' | 'buyer', RankExample[]> = { seller: [], buyer: [] };
  if (!existsSync(seedsFile) || !existsSync(corpus)) return out;
  for (const item of syntheticItems(corpus, seedsFile)) {
    const truth = await item.truth();
    if (!truth) continue;
    const e = partyExamples(truth, await extractTextLayer(await item.bytes()));
    out.seller.push(...e.seller.map((x) => ({ ...x, weight: GENERATED_WEIGHT })));
    out.buyer.push(...e.buyer.map((x) => ({ ...x, weight: GENERATED_WEIGHT })));
  }
  return out;
}
