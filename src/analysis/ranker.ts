/**
 * A conditional-logit ranker: among one document's candidates for a field, the probability
 * that each is the value, and that none is. Candidates are scored by a weighted sum of their
 * features and normalised over the document; "none" has a weight of its own, so that a page
 * whose candidates all look doubtful yields no value rather than the least doubtful one.
 * The weights are learned (scripts/train-models.ts); this module only applies them.
 */

export interface RankerModel {
  /** Feature names, in the order of `weights`. */
  features: readonly string[];
  weights: readonly number[];
  /** The score of "none of these". */
  abstain: number;
}

export type FeatureVector = Readonly<Record<string, number>>;

/** Probabilities of each candidate, then of "none" as the last entry. */
export function rank(model: RankerModel, candidates: readonly FeatureVector[]): number[] {
  const scores = [...candidates.map((c) => score(model, c)), model.abstain];
  const top = Math.max(...scores);
  const exp = scores.map((s) => Math.exp(s - top));
  const total = exp.reduce((a, b) => a + b, 0);
  return exp.map((e) => e / total);
}

export function score(model: RankerModel, features: FeatureVector): number {
  let s = 0;
  model.features.forEach((name, i) => (s += (features[name] ?? 0) * model.weights[i]!));
  return s;
}
