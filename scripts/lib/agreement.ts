import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { invoiceSchema, type Invoice } from '../../src/invoice/model.js';
import { isErrorFinding, type ValidationReport } from '../../src/validation/index.js';
import { writeCii, writeInvoiceXml } from '../../src/xml/index.js';
import type { KositVerdict } from './kosit.js';
import { MUTATIONS, NotApplicable, SCENARIO_MUTATIONS, type Edit, type Mutation } from './mutations.js';
import { repoRoot } from './spawn-service.js';

/**
 * The cases of the validation agreement suite (our validator against the KoSIT validator) and how
 * two verdicts are compared: the official XRechnung testsuite, the corpus XML, the XML our writer
 * makes from the fixtures, and mutations of valid documents that each break one known rule.
 */

export const sharedDir = path.resolve(repoRoot, '../shared');
const corpusDir = path.join(sharedDir, 'corpus');

export type CaseGroup = 'testsuite' | 'corpus' | 'fixture' | 'mutation';

export interface AgreementCase {
  id: string;
  group: CaseGroup;
  xml: string;
  /** For mutations: what it breaks and which rule the judge must report for it to count. */
  mutation?: Pick<Mutation, 'id' | 'breaks' | 'expect'>;
}

function xmlFiles(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .sort()
    .map((name) => path.join(dir, name))
    .filter((file) =>
      readFileSync(file)
        .subarray(0, 64)
        .toString('utf8')
        .replace(/^\uFEFF/, '')
        .trimStart()
        .startsWith('<'),
    );
}

function fixtures(): Array<{ name: string; invoice: Invoice }> {
  const dir = path.join(repoRoot, 'test/fixtures/invoices');
  return readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: f.replace(/\.json$/, ''), invoice: invoiceSchema.parse(JSON.parse(readFileSync(path.join(dir, f), 'utf8'))) }));
}

/** The valid documents the mutations start from: XRechnung 3.0 written by us, and the testsuite's extension and CVD cases. */
interface MutationBase {
  name: string;
  family: NonNullable<Mutation['bases']>;
  syntax: 'cii' | 'ubl';
  xml: string;
  creditNote?: boolean;
}

function mutationBases(all: ReturnType<typeof fixtures>): MutationBase[] {
  const bases: MutationBase[] = [];
  for (const name of ['01-standard-19', '28-public-buyer-leitweg', '03-credit-note-381']) {
    const invoice = all.find((f) => f.name === name)!.invoice;
    const creditNote = invoice.invoiceTypeCode === '381';
    bases.push({ name: `${name}.cii`, family: 'standard', syntax: 'cii', xml: writeInvoiceXml(invoice, { syntax: 'CII' }), creditNote });
    bases.push({ name: `${name}.ubl`, family: 'standard', syntax: 'ubl', xml: writeInvoiceXml(invoice, { syntax: 'UBL' }), creditNote });
  }
  const testsuite = path.join(corpusDir, 'xrechnung-testsuite');
  const fromTestsuite: Array<[string, NonNullable<Mutation['bases']>, 'cii' | 'ubl']> = [
    ['business-cases_extension_04.01a-INVOICE_ubl.xml', 'extension', 'ubl'],
    ['business-cases_extension_04.05a-INVOICE_uncefact.xml', 'extension', 'cii'],
    ['technical-cases_cvd_02.01a-cvd_INVOICE_ubl.xml', 'cvd', 'ubl'],
    ['technical-cases_cvd_02.01a-cvd_INVOICE_uncefact.xml', 'cvd', 'cii'],
  ];
  for (const [file, family, syntax] of fromTestsuite) {
    const full = path.join(testsuite, file);
    if (existsSync(full)) bases.push({ name: file.replace(/\.xml$/, ''), family, syntax, xml: readFileSync(full, 'utf8') });
  }
  return bases;
}

/** Every case; the testsuite, the corpus and the mutations of testsuite files only when ../shared is present. */
export function agreementCases(): AgreementCase[] {
  const cases: AgreementCase[] = [];
  for (const file of xmlFiles(path.join(corpusDir, 'xrechnung-testsuite')))
    cases.push({ id: `testsuite/${path.basename(file)}`, group: 'testsuite', xml: readFileSync(file, 'utf8') });
  for (const dir of ['xml-cii', 'xml-ubl', 'invalid']) {
    for (const file of xmlFiles(path.join(corpusDir, dir)))
      cases.push({ id: `corpus/${dir}/${path.basename(file)}`, group: 'corpus', xml: readFileSync(file, 'utf8') });
  }
  const all = fixtures();
  for (const { name, invoice } of all) {
    cases.push({ id: `fixture/${name}.cii.xml`, group: 'fixture', xml: writeInvoiceXml(invoice, { syntax: 'CII' }) });
    cases.push({ id: `fixture/${name}.ubl.xml`, group: 'fixture', xml: writeInvoiceXml(invoice, { syntax: 'UBL' }) });
    // Factur-X EN 16931 names plain EN 16931 in BT-24: as a standalone XML it is judged as such.
    cases.push({ id: `fixture/${name}.facturx-en16931.cii.xml`, group: 'fixture', xml: writeCii(invoice, { profile: 'EN16931' }) });
  }
  for (const file of xmlFiles(path.join(repoRoot, 'test/fixtures/validation')))
    cases.push({ id: `fixture/validation/${path.basename(file)}`, group: 'fixture', xml: readFileSync(file, 'utf8') });

  const bases = mutationBases(all);
  for (const mutation of [...MUTATIONS, ...SCENARIO_MUTATIONS]) {
    for (const base of bases.filter((b) => b.family === (mutation.bases ?? 'standard') && !(mutation.invoicesOnly && b.creditNote))) {
      const edit: Edit | undefined = mutation[base.syntax];
      if (!edit) continue;
      let xml: string;
      try {
        xml = edit(base.xml);
      } catch (err) {
        if (err instanceof NotApplicable) continue;
        throw err;
      }
      if (xml === base.xml) throw new Error(`mutation ${mutation.id} left ${base.name} unchanged`);
      cases.push({
        id: `mutation/${mutation.id}@${base.name}`,
        group: 'mutation',
        xml,
        mutation: { id: mutation.id, breaks: mutation.breaks, expect: mutation.expect },
      });
    }
  }
  return cases;
}

// ---------------------------------------------------------------- comparison

/** Our own ids for checks that KoSIT reports per validation step, mapped to the step. */
const OUR_STEP_IDS: Record<string, string> = {
  XSD: 'XSD',
  'XML-NOT-WELL-FORMED': 'XML',
  'UNSUPPORTED-DOCUMENT': 'NO-SCENARIO',
  'SPECIFICATION-UNSUPPORTED': 'NO-SCENARIO',
};

/** The rule ids of our errors, with schema, parse and scenario errors named like KoSIT's steps. */
export function ourErrorRules(report: ValidationReport): string[] {
  return [...new Set(report.findings.filter(isErrorFinding).map((f) => OUR_STEP_IDS[f.ruleId] ?? f.ruleId))].sort();
}

export function kositErrorRules(verdict: KositVerdict): string[] {
  const ids = verdict.messages
    .filter((m) => m.level === 'error')
    .map((m) => (m.step === 'val-xsd' ? 'XSD' : m.step === 'val-xml' ? 'XML' : (m.code ?? m.step)));
  if (!verdict.scenario) ids.push('NO-SCENARIO');
  return [...new Set(ids)].sort();
}

/** Every rule id KoSIT reported, at any level (whether a mutation was effective). */
export function kositAllRules(verdict: KositVerdict): Set<string> {
  const ids = new Set(verdict.messages.map((m) => (m.step === 'val-xsd' ? 'XSD' : m.step === 'val-xml' ? 'XML' : (m.code ?? m.step))));
  if (!verdict.scenario) ids.add('NO-SCENARIO');
  return ids;
}

export interface CaseResult {
  id: string;
  group: CaseGroup;
  ours: { valid: boolean; errors: string[]; scenario?: string };
  kosit: { valid: boolean; errors: string[]; scenario?: string };
  verdictAgrees: boolean;
  rulesAgree: boolean;
  /** For mutations: whether KoSIT reported the rule the mutation targets. */
  effective?: boolean;
  cause?: string;
}

export function compareCase(c: AgreementCase, ours: ValidationReport, kosit: KositVerdict): CaseResult {
  const o = ourErrorRules(ours);
  const k = kositErrorRules(kosit);
  const result: CaseResult = {
    id: c.id,
    group: c.group,
    ours: { valid: ours.valid, errors: o, ...(ours.scenario ? { scenario: ours.scenario.name } : {}) },
    kosit: { valid: kosit.accepted, errors: k, ...(kosit.scenario ? { scenario: kosit.scenario } : {}) },
    verdictAgrees: ours.valid === kosit.accepted,
    rulesAgree: o.join(' ') === k.join(' '),
  };
  if (c.mutation && c.mutation.expect.length > 0) {
    const reported = kositAllRules(kosit);
    result.effective = c.mutation.expect.some((id) => reported.has(id));
  }
  if (!result.verdictAgrees || !result.rulesAgree) result.cause = causeOf(ours, kosit, o, k);
  return result;
}

/** Why two verdicts differ: a scenario KoSIT's configuration lacks, or the rules only one side reported. */
function causeOf(ours: ValidationReport, kosit: KositVerdict, o: string[], k: string[]): string {
  if (!kosit.scenario && ours.scenario?.id.startsWith('peppol-bis')) {
    return "Peppol BIS Billing 3.0: KoSIT's official scenarios have none (no scenario, rejected); ours judges it by XSD and CEN rules like the configuration's non-official Peppol scenario (--scenarios plus)";
  }
  if (kosit.scenario && ours.scenario && kosit.scenario !== ours.scenario.name && !kosit.scenario.includes('NON-OFFICIAL'))
    return `different scenario: ours ${ours.scenario.name}, KoSIT ${kosit.scenario}`;
  return `rules reported by one side only: ours [${o.filter((id) => !k.includes(id)).join(' ')}], KoSIT [${k.filter((id) => !o.includes(id)).join(' ')}]`;
}

export interface AgreementSummary {
  cases: number;
  byGroup: Record<CaseGroup, number>;
  verdictAgreement: number;
  rulesAgreement: number;
  disagreements: CaseResult[];
  ineffectiveMutations: string[];
}

export function summarize(results: CaseResult[]): AgreementSummary {
  const byGroup = { testsuite: 0, corpus: 0, fixture: 0, mutation: 0 } as Record<CaseGroup, number>;
  for (const r of results) byGroup[r.group]++;
  return {
    cases: results.length,
    byGroup,
    verdictAgreement: results.filter((r) => r.verdictAgrees).length / results.length,
    rulesAgreement: results.filter((r) => r.rulesAgree).length / results.length,
    disagreements: results.filter((r) => !r.verdictAgrees || !r.rulesAgree),
    ineffectiveMutations: results.filter((r) => r.effective === false).map((r) => r.id),
  };
}
