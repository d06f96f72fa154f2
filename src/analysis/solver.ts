import { Decimal } from '../invoice/decimal.js';
import type { Found } from './document.js';
import type { TotalField } from './lexicon.js';
import { taxMatches, type VatRow } from './totals.js';

/**
 * Lets the arithmetic decide among candidate totals. Labels propose values; the EN 16931 sums
 * pick the combination that adds up:
 *   BR-CO-10  sum of line net amounts               = BT-106
 *   BR-CO-13  BT-106 − allowances (BT-107) + charges (BT-108) = net total BT-109
 *   BR-CO-15  BT-109 + VAT total BT-110              = gross BT-112
 *   BR-CO-16  BT-112 − paid BT-113 + rounding BT-114 = due BT-115
 *   BR-CO-14  Σ VAT category tax (BT-117)            = BT-110, Σ bases (BT-116) = BT-109
 * Each satisfied equation earns a bonus, each broken one a penalty, so a consistent set with
 * weaker labels beats a strongly-labelled set that does not add up.
 */

export type Totals = Partial<Record<TotalField, string>>;

export interface SolvedTotals {
  totals: Totals;
  vatRows: VatRow[];
  /** Per field: 'label' (read, consistent), 'derived' (computed from the others), 'unchecked' (read, no equation covers it), 'conflict', 'gross-under-net' (net or gross of a positive invoice is another amount). */
  support: Partial<Record<TotalField, 'label' | 'derived' | 'unchecked' | 'conflict' | 'gross-under-net'>>;
  /** Share of the applicable equations that hold, 0..1; undefined when no equation applies. */
  consistency: number | undefined;
  /** Per field: the score of the chosen label (0 when derived). */
  labelScore: Partial<Record<TotalField, number>>;
}

interface Option {
  value: string | undefined;
  score: number;
  derived?: boolean;
}

const EQUATION_BONUS = 1.2;
const EQUATION_PENALTY = 1.0;
const TOP = 8;

/** The distinct values proposed for a field, best score first, plus "not printed". */
function options(cands: Found[] | undefined, extra: Option[] = []): Option[] {
  const best = new Map<string, number>();
  for (const c of cands ?? []) best.set(c.value, Math.max(best.get(c.value) ?? 0, c.score));
  for (const e of extra) if (e.value !== undefined && !best.has(e.value)) best.set(e.value, e.score);
  const list: Option[] = [...best.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, TOP)
    .map(([value, score]) => ({ value, score }));
  return [...list, { value: undefined, score: 0 }];
}

const eq = (a: Decimal, b: Decimal) => a.minus(b).abs().lte(0.01);
const d = (v: string | undefined) => (v === undefined ? undefined : new Decimal(v));

/** `rowsComplete` false: the breakdown has a row that could not be read, so its sums say nothing about the totals. */
export function solveTotals(
  fields: Map<TotalField, Found[]>,
  vatRows: VatRow[],
  lineSum: string | undefined,
  rowsComplete = true,
): SolvedTotals {
  const rows = vatRows;
  const rowTax = rows.length && rowsComplete ? rows.reduce((s, r) => s.plus(r.tax), new Decimal(0)).toFixed(2) : undefined;
  const rowBase = rows.length && rowsComplete ? rows.reduce((s, r) => s.plus(r.base), new Decimal(0)).toFixed(2) : undefined;
  const rowWeight = rows.every((r) => r.labelled) ? 0.5 : 0.3;

  // Without allowances or charges the lines add up to the net total: their sum is a candidate for it too.
  const net = options(fields.get('netTotal'), [
    ...(rowBase ? [{ value: rowBase, score: rowWeight }] : []),
    ...(lineSum ? [{ value: lineSum, score: 0.3 }] : []),
  ]);
  const vat = options(fields.get('vatTotal'), [
    ...(rowTax ? [{ value: rowTax, score: rowWeight }] : []),
    ...perRateVat(fields.get('vatTotal')),
  ]);
  const gross = options(fields.get('grossTotal'));
  const due = options(fields.get('due'));
  const paid = options(fields.get('paid'));
  const rounding = options(fields.get('rounding'));
  const line = options(fields.get('lineTotal'), lineSum ? [{ value: lineSum, score: 0.5 }] : []);
  const allow = options(fields.get('allowances'));
  const charge = options(fields.get('charges'));

  // The score splits into independent parts once net and gross are fixed, so each part is
  // maximised on its own instead of walking the full product of all candidate lists.
  const bestDue = new Map<Option, Choice>();
  for (const g of gross) {
    // A payment list without a "paid" label still shows in the difference between gross and a labelled balance.
    const implied = due
      .filter((u) => u.value !== undefined && g.value !== undefined && new Decimal(g.value).minus(u.value).gt(0))
      .map((u) => ({ value: new Decimal(g.value!).minus(u.value!).toFixed(2), score: 0.1, derived: true }));
    bestDue.set(
      g,
      pickBest([...paid, ...implied], due, rounding, (p, u, r) => scoreDue(g, p, r, u)),
    );
  }
  const bestLine = new Map<Option, Choice>();
  for (const n of net) bestLine.set(n, pickBestLine(line, allow, charge, n));

  let best: { score: number; held: number; applied: number; pick: Record<TotalField, Option> } | undefined;
  for (const n of net)
    for (const v of vat)
      for (const g of gross) {
        const core = scoreGross(n, v, g);
        const rowsEq = scoreRows(n, v, rowBase, rowTax);
        const du = bestDue.get(g)!;
        const li = bestLine.get(n)!;
        const held = [core, rowsEq].filter((x) => x === 1).length + du.held + li.held;
        const applied = [core, rowsEq].filter((x) => x !== 0).length + du.applied + li.applied;
        const score = n.score + v.score + g.score + weigh(core) + weigh(rowsEq) + du.score + li.score;
        if (!best || score > best.score + 1e-9) {
          best = {
            score,
            held,
            applied,
            pick: { netTotal: n, vatTotal: v, grossTotal: g, ...du.pick, ...li.pick } as Record<TotalField, Option>,
          };
        }
      }
  return complete(best!.pick, rows, rowBase, rowTax, best!.applied ? best!.held / best!.applied : undefined);
}

/** One VAT line per rate and no line for their total ("VAT  19.25 EUR", "VAT  37.62 EUR"): their sum is a candidate for it. */
function perRateVat(printed: Found[] | undefined): Option[] {
  const values = [...new Set((printed ?? []).map((f) => new Decimal(f.value).toFixed(2)))];
  if (values.length < 2) return [];
  return [{ value: values.reduce((sum, v) => sum.plus(v), new Decimal(0)).toFixed(2), score: 0.1 }];
}

const grossUnderNet = (net: Decimal | undefined, gross: Decimal | undefined) =>
  net !== undefined && gross !== undefined && net.gt(0) && gross.gt(0) && gross.lt(net);

interface Choice {
  score: number;
  held: number;
  applied: number;
  pick: Partial<Record<TotalField, Option>>;
}

function weigh(result: number): number {
  return result === 1 ? EQUATION_BONUS : result === -1 ? -EQUATION_PENALTY : 0;
}

function pickBest(paid: Option[], due: Option[], rounding: Option[], equation: (p: Option, u: Option, r: Option) => number): Choice {
  let best: Choice | undefined;
  for (const p of paid)
    for (const u of due)
      for (const ro of rounding) {
        const r = equation(p, u, ro);
        const score = p.score + u.score + ro.score + weigh(r);
        if (!best || score > best.score + 1e-9)
          best = { score, held: r === 1 ? 1 : 0, applied: r !== 0 ? 1 : 0, pick: { paid: p, due: u, rounding: ro } };
      }
  return best!;
}

/** 1 if gross − paid + rounding is the amount due, −1 if not, 0 without gross or due; nothing paid or rounded is zero. */
function scoreDue(g: Option, p: Option, r: Option, u: Option): number {
  const [gross, due] = [d(g.value), d(u.value)];
  if (gross === undefined || due === undefined) return 0;
  return eq(gross.minus(d(p.value) ?? 0).plus(d(r.value) ?? 0), due) ? 1 : -1;
}

function pickBestLine(line: Option[], allow: Option[], charge: Option[], n: Option): Choice {
  let best: Choice | undefined;
  for (const l of line)
    for (const a of allow)
      for (const c of charge) {
        const r = scoreLineToNet(l, a, c, n);
        const score = l.score + a.score + c.score + weigh(r);
        if (!best || score > best.score + 1e-9)
          best = { score, held: r === 1 ? 1 : 0, applied: r !== 0 ? 1 : 0, pick: { lineTotal: l, allowances: a, charges: c } };
      }
  return best!;
}

/** 1 if net + VAT is the gross total (all present), −1 if not, 0 if something is missing. */
function scoreGross(n: Option, v: Option, g: Option): number {
  const [net, vat, gross] = [d(n.value), d(v.value), d(g.value)];
  if (net === undefined || vat === undefined || gross === undefined) return 0;
  return eq(net.plus(vat), gross) ? 1 : -1;
}

function scoreLineToNet(l: Option, a: Option, c: Option, n: Option): number {
  const line = d(l.value);
  const net = d(n.value);
  if (line === undefined || net === undefined) return 0;
  const allowance = d(a.value)?.abs() ?? new Decimal(0);
  const charge = d(c.value) ?? new Decimal(0);
  // On a negative (corrective) document the allowance moves the total towards zero.
  const computed = line.isNeg() ? line.plus(allowance).minus(charge.abs()) : line.minus(allowance).plus(charge);
  return eq(computed, net) ? 1 : -1;
}

function scoreRows(n: Option, v: Option, rowBase: string | undefined, rowTax: string | undefined): number {
  if (rowTax === undefined || v.value === undefined) return 0;
  const taxOk = eq(new Decimal(rowTax), new Decimal(v.value));
  const baseOk = n.value === undefined || rowBase === undefined || eq(new Decimal(rowBase), new Decimal(n.value));
  return taxOk && baseOk ? 1 : -1;
}

/** Which equations each chosen field takes part in, and whether they held. */
function checks(pick: Record<TotalField, Option>, rowBase: string | undefined, rowTax: string | undefined): Map<TotalField, number[]> {
  const results: Array<[number, TotalField[]]> = [
    [scoreGross(pick.netTotal, pick.vatTotal, pick.grossTotal), ['netTotal', 'vatTotal', 'grossTotal']],
    [scoreRows(pick.netTotal, pick.vatTotal, rowBase, rowTax), ['netTotal', 'vatTotal']],
    [scoreDue(pick.grossTotal, pick.paid, pick.rounding, pick.due), ['grossTotal', 'paid', 'rounding', 'due']],
    [scoreLineToNet(pick.lineTotal, pick.allowances, pick.charges, pick.netTotal), ['lineTotal', 'allowances', 'charges', 'netTotal']],
  ];
  const out = new Map<TotalField, number[]>();
  for (const [r, fields] of results) {
    if (r === 0) continue;
    for (const f of fields) if (pick[f].value !== undefined) out.set(f, [...(out.get(f) ?? []), r]);
  }
  return out;
}

function allowanceAmount(printed: string, pick: Record<TotalField, Option>): string {
  const amount = new Decimal(printed).abs();
  const reference = d(pick.lineTotal.value) ?? d(pick.netTotal.value);
  return (reference?.isNeg() ? amount.negated() : amount).toFixed(2);
}

/** Fills what the equations imply but the page does not print (no VAT line on a net+gross invoice, due = gross). */
function complete(
  pick: Record<TotalField, Option>,
  rows: VatRow[],
  rowBase: string | undefined,
  rowTax: string | undefined,
  consistency: number | undefined,
): SolvedTotals {
  const totals: Totals = {};
  const support: SolvedTotals['support'] = {};
  const labelScore: SolvedTotals['labelScore'] = {};
  const held = checks(pick, rowBase, rowTax);
  for (const [field, o] of Object.entries(pick) as Array<[TotalField, Option]>) {
    if (o.value === undefined) continue;
    // Allowances are printed with a minus or without; the model wants their amount, which on a
    // negative (corrective) document is negative like every other total (BT-106 − BT-107 = BT-109).
    totals[field] = field === 'allowances' ? allowanceAmount(o.value, pick) : new Decimal(o.value).toFixed(2);
    const results = held.get(field) ?? [];
    support[field] = o.derived ? 'derived' : results.includes(1) ? 'label' : results.includes(-1) ? 'conflict' : 'unchecked';
    labelScore[field] = o.score;
  }
  const derive = (field: TotalField, value: Decimal | undefined) => {
    if (totals[field] !== undefined || value === undefined) return;
    totals[field] = value.toFixed(2);
    support[field] = 'derived';
    labelScore[field] = 0;
  };
  const D = (f: TotalField) => d(totals[f]);
  if (grossUnderNet(D('netTotal'), D('grossTotal'))) {
    // Negative VAT on a positive invoice: one of the two is another amount (a line total taken for the net).
    for (const field of ['netTotal', 'grossTotal'] as const) if (support[field] !== 'derived') support[field] = 'gross-under-net';
    if (support.vatTotal === 'derived') {
      delete totals.vatTotal;
      delete support.vatTotal;
      delete labelScore.vatTotal;
    }
  } else if (D('netTotal') && D('grossTotal')) derive('vatTotal', D('grossTotal')!.minus(D('netTotal')!));
  if (D('netTotal') && D('vatTotal')) derive('grossTotal', D('netTotal')!.plus(D('vatTotal')!));
  if (D('grossTotal') && D('vatTotal')) derive('netTotal', D('grossTotal')!.minus(D('vatTotal')!));
  if (D('grossTotal'))
    derive(
      'due',
      D('grossTotal')!
        .minus(D('paid') ?? 0)
        .plus(D('rounding') ?? 0),
    );
  if (D('netTotal') && !D('allowances') && !D('charges')) derive('lineTotal', D('netTotal'));
  return { totals, vatRows: rows, support, consistency, labelScore };
}

/** Evidence suffix of a breakdown row the sums leave in doubt. */
export const UNVOUCHED = ':unvouched';

/**
 * The rows of a breakdown whose bases do not add up to the net total that nothing else vouches
 * for: one of the bases is misread, and a row whose tax is its rate of its base (BR-CO-17) is not
 * the one. A 0 % row's tax is 0 whatever its base, so it never vouches for it; with two such
 * rows, which base is misread is for the page to settle.
 */
export function unvouchedRows(rows: ReadonlyArray<{ rate: string; base: string; tax: string }>, netTotal: string | undefined): Set<number> {
  const sum = rows.reduce((s, r) => s.plus(r.base), new Decimal(0));
  if (netTotal === undefined || rows.length === 0 || eq(sum, new Decimal(netTotal))) return new Set();
  const vouched = (r: { rate: string; base: string; tax: string }) => !new Decimal(r.rate).isZero() && taxMatches(r.base, r.rate, r.tax);
  return new Set(rows.flatMap((r, i) => (vouched(r) ? [] : [i])));
}
