import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { agreementCases, compareCase, summarize, type AgreementCase, type CaseResult } from '../../scripts/lib/agreement.js';
import { kositUnavailable, startKosit, type KositJudge } from '../../scripts/lib/kosit.js';
import { validateInvoiceXml, warmUpValidation } from '../../src/validation/index.js';

/**
 * Our verdicts against the KoSIT validator's (XRechnung configuration, the judge public buyers
 * run), over the XRechnung testsuite, the corpus XML, the fixtures as we write them and
 * mutations that each break one known rule. The judge runs as one daemon; it and the shared
 * corpus live in ../shared, so without them this suite says so and checks nothing.
 * `node dist-tools/scripts/bench-validation.js --verbose` prints the same comparison case by case.
 */

// The non-official Peppol scenarios judge Peppol BIS documents by XSD and CEN rules, as our
// Peppol BIS scenario does; every other scenario is the official one.
const unavailable = kositUnavailable('plus');
if (unavailable) console.log(`kosit-agreement: skipped, ${unavailable}`);

describe.skipIf(unavailable !== undefined)('agreement with the KoSIT validator', () => {
  let kosit: KositJudge;
  let cases: AgreementCase[];
  const results: CaseResult[] = [];

  beforeAll(async () => {
    cases = agreementCases();
    kosit = await startKosit({ scenarios: 'plus' });
    warmUpValidation();
    for (const c of cases) results.push(compareCase(c, await validateInvoiceXml(c.xml), await kosit.judge(c.xml)));
    const s = summarize(results);
    console.log(
      `kosit-agreement: ${s.cases} cases, verdict ${(s.verdictAgreement * 100).toFixed(1)} %, error rules ${(s.rulesAgreement * 100).toFixed(1)} %` +
        s.disagreements.map((r) => `\n  ${r.id}: ${r.cause}`).join(''),
    );
  }, 1_800_000);

  afterAll(async () => {
    await kosit?.stop();
  });

  it('covers the testsuite, the corpus, our fixtures and at least 300 cases in all', () => {
    const s = summarize(results);
    expect(s.byGroup.testsuite).toBe(86);
    expect(s.byGroup.corpus).toBeGreaterThan(50);
    expect(s.byGroup.fixture).toBeGreaterThan(100);
    expect(s.byGroup.mutation).toBeGreaterThan(200);
    expect(s.cases).toBeGreaterThanOrEqual(300);
  });

  it('agrees on the verdict in at least 99 % of the cases', () => {
    expect(summarize(results).verdictAgreement).toBeGreaterThanOrEqual(0.99);
  });

  it('agrees on the set of error rule ids in at least 99 % of the cases', () => {
    expect(summarize(results).rulesAgreement).toBeGreaterThanOrEqual(0.99);
  });

  it('names the scenario as KoSIT does wherever KoSIT applies an official one', () => {
    const named = results.filter((r) => r.kosit.scenario && !r.kosit.scenario.includes('NON-OFFICIAL'));
    expect(named.length).toBeGreaterThan(500);
    expect(
      named.filter((r) => r.ours.scenario !== r.kosit.scenario).map((r) => `${r.id}: ours ${r.ours.scenario}, KoSIT ${r.kosit.scenario}`),
    ).toEqual([]);
  });

  it('rejects, like KoSIT, every document with an outdated or unknown specification identifier', () => {
    const outdated = results.filter((r) => r.id.startsWith('mutation/bt24-'));
    expect(outdated.length).toBeGreaterThanOrEqual(18);
    for (const r of outdated)
      expect({ id: r.id, ours: r.ours.valid, kosit: r.kosit.valid, scenario: r.kosit.scenario }).toEqual({
        id: r.id,
        ours: false,
        kosit: false,
        scenario: undefined,
      });
  });

  it('has mutations that each break the rule they target, as KoSIT sees it', () => {
    expect(summarize(results).ineffectiveMutations).toEqual([]);
  });

  it('accepts, like KoSIT, every file of the official XRechnung testsuite', () => {
    const testsuite = results.filter((r) => r.group === 'testsuite');
    expect(testsuite.filter((r) => !r.ours.valid || !r.kosit.valid).map((r) => r.id)).toEqual([]);
  });
});
