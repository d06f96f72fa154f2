import type { FeatureVector, RankerModel } from '../../src/analysis/ranker.js';

/**
 * Fits a conditional-logit ranker (src/analysis/ranker.ts) by full-batch gradient descent with
 * an L2 penalty. Deterministic: weights start at zero and every step uses all examples in the
 * same order, so the same examples give the same model.
 */

export interface RankExample {
  candidates: FeatureVector[];
  /** Index of the right candidate; undefined where none of them is right. */
  right: number | undefined;
  /** How much the example counts (1 unless said). */
  weight?: number;
}

export interface TrainOptions {
  steps?: number;
  rate?: number;
  l2?: number;
}

export function trainRanker(examples: readonly RankExample[], opts: TrainOptions = {}): RankerModel {
  const { steps = 1500, rate = 0.5, l2 = 0.01 } = opts;
  const features = [...new Set(examples.flatMap((e) => e.candidates.flatMap((c) => Object.keys(c))))].sort();
  const d = features.length;
  // Dense rows: the same arithmetic as rank(), without a lookup per feature and step.
  const dense = examples.map((e) => ({
    x: Float64Array.from(e.candidates.flatMap((c) => features.map((f) => c[f] ?? 0))),
    n: e.candidates.length,
    right: e.right,
    weight: e.weight ?? 1,
  }));
  const w = new Float64Array(d);
  let abstain = 0;
  const count = Math.max(
    1,
    dense.reduce((sum, e) => sum + e.weight, 0),
  );
  for (let step = 0; step < steps; step++) {
    const grad = new Float64Array(d);
    let gradAbstain = 0;
    for (const { x, n, right, weight } of dense) {
      const scores = new Float64Array(n + 1);
      for (let i = 0; i < n; i++) {
        let s = 0;
        for (let k = 0; k < d; k++) s += x[i * d + k]! * w[k]!;
        scores[i] = s;
      }
      scores[n] = abstain;
      const top = Math.max(...scores);
      let total = 0;
      for (let i = 0; i <= n; i++) total += scores[i] = Math.exp(scores[i]! - top);
      for (let i = 0; i < n; i++) {
        const diff = weight * (scores[i]! / total - (right === i ? 1 : 0));
        if (diff === 0) continue;
        for (let k = 0; k < d; k++) grad[k]! += diff * x[i * d + k]!;
      }
      gradAbstain += weight * (scores[n]! / total - (right === undefined ? 1 : 0));
    }
    for (let k = 0; k < d; k++) w[k]! -= rate * (grad[k]! / count + l2 * w[k]!);
    abstain -= rate * (gradAbstain / count);
  }
  return { features, weights: [...w].map(round), abstain: round(abstain) };
}

const round = (x: number) => Math.round(x * 1e4) / 1e4;
