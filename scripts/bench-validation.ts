import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { validateInvoiceXml, warmUpValidation } from '../src/validation/index.js';
import { agreementCases, compareCase, summarize, type CaseResult } from './lib/agreement.js';
import { kositUnavailable, startKosit, type KositScenarios } from './lib/kosit.js';
import { quantile } from './lib/quantile.js';

/**
 * Benchmark (not a test): how often our in-process validator agrees with the KoSIT validator
 * (XRechnung configuration), on the verdict and on the exact set of error rule ids, over the
 * XRechnung testsuite, the corpus XML, our fixtures and mutations of valid documents.
 *   node dist-tools/scripts/bench-validation.js [--scenarios plus|official] [--json FILE] [--verbose]
 * `plus` (default) adds KoSIT's non-official scenarios that judge Peppol BIS documents by schema
 * and CEN rules, as our Peppol BIS scenario does; `official` is what public buyers run.
 */
const { values } = parseArgs({
  options: {
    scenarios: { type: 'string', default: 'plus' },
    json: { type: 'string' },
    verbose: { type: 'boolean', default: false },
  },
});
const scenarios = values.scenarios as KositScenarios;
if (scenarios !== 'plus' && scenarios !== 'official') throw new Error('--scenarios is plus or official');
const why = kositUnavailable(scenarios);
if (why) {
  console.error(`bench-validation: ${why}`);
  process.exit(2);
}

const cases = agreementCases();
console.log(`bench-validation: ${cases.length} cases; starting the KoSIT daemon (${scenarios} scenarios)`);
const kositStart = performance.now();
const kosit = await startKosit({ scenarios });
console.log(`KoSIT daemon ready in ${((performance.now() - kositStart) / 1000).toFixed(1)} s`);
warmUpValidation();

const results: CaseResult[] = [];
const oursMs: number[] = [];
const kositMs: number[] = [];
try {
  for (const c of cases) {
    let t = performance.now();
    const ours = await validateInvoiceXml(c.xml);
    oursMs.push(performance.now() - t);
    t = performance.now();
    const theirs = await kosit.judge(c.xml);
    kositMs.push(performance.now() - t);
    const result = compareCase(c, ours, theirs);
    results.push(result);
    if (values.verbose)
      console.log(
        `${result.verdictAgrees && result.rulesAgree ? '  ' : '≠ '}${c.id}: ours ${fmt(result.ours)}; KoSIT ${fmt(result.kosit)}`,
      );
  }
} finally {
  await kosit.stop();
}

const summary = summarize(results);
const pct = (x: number) => `${(x * 100).toFixed(1)} %`;
const count = (pred: (r: CaseResult) => boolean) => results.filter(pred).length;
console.log(
  `\ncases: ${summary.cases} (testsuite ${summary.byGroup.testsuite}, corpus ${summary.byGroup.corpus}, fixtures ${summary.byGroup.fixture}, mutations ${summary.byGroup.mutation})`,
);
console.log(`verdict agreement:        ${count((r) => r.verdictAgrees)}/${summary.cases} = ${pct(summary.verdictAgreement)}`);
console.log(`error rule set agreement: ${count((r) => r.rulesAgree)}/${summary.cases} = ${pct(summary.rulesAgreement)}`);
const named = results.filter((r) => r.kosit.scenario && !r.kosit.scenario.includes('NON-OFFICIAL'));
console.log(
  `scenario named like KoSIT: ${named.filter((r) => r.ours.scenario === r.kosit.scenario).length}/${named.length} (cases KoSIT judged under an official scenario)`,
);
for (const group of ['testsuite', 'corpus', 'fixture', 'mutation'] as const) {
  const g = results.filter((r) => r.group === group);
  if (g.length)
    console.log(
      `  ${group.padEnd(9)} verdict ${g.filter((r) => r.verdictAgrees).length}/${g.length}, rules ${g.filter((r) => r.rulesAgree).length}/${g.length}`,
    );
}
console.log(
  `our validator: median ${quantile(oursMs, 0.5).toFixed(0)} ms, p95 ${quantile(oursMs, 0.95).toFixed(0)} ms per document; KoSIT daemon: median ${quantile(kositMs, 0.5).toFixed(0)} ms`,
);
if (summary.ineffectiveMutations.length)
  console.log(
    `\nmutations whose target rule KoSIT did not report (${summary.ineffectiveMutations.length}):\n  ${summary.ineffectiveMutations.join('\n  ')}`,
  );
console.log(`\ndisagreements (${summary.disagreements.length}):`);
for (const r of summary.disagreements) console.log(`- ${r.id}\n    ours ${fmt(r.ours)}\n    KoSIT ${fmt(r.kosit)}\n    cause: ${r.cause}`);
if (values.json) writeFileSync(values.json, JSON.stringify({ summary, results }, null, 2));

function fmt(v: CaseResult['ours']): string {
  return `${v.valid ? 'valid' : 'invalid'}${v.errors.length ? ` [${v.errors.join(' ')}]` : ''}${v.scenario ? ` (${v.scenario})` : ''}`;
}
