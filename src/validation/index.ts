import { detectDocument, type RootKind } from './detect.js';
import { isErrorFinding } from './findings.js';
import { guardInput } from './input-guard.js';
import { parseXml } from './parse.js';
import { checkProfile, FACTURX_PROFILES, preloadProfile } from './profile.js';
import { selectScenario, unsupportedMessage, type Scenario } from './scenarios.js';
import { preloadRuleSet, ruleSetArtefact, runSchematron, type RuleSet } from './schematron.js';
import type { Finding, ValidateOptions, ValidationReport } from './types.js';
import { preloadSchema, schemaArtefact, validateAgainstSchema } from './xsd.js';

export type { Finding, FindingSource, ScenarioInfo, Severity, Syntax, ValidateOptions, ValidationReport } from './types.js';
export { EN16931, type Container } from './scenarios.js';
export { ArtefactsMissingError, type FacturXProfile } from './artefacts.js';
export { MAX_INPUT_BYTES } from './input-guard.js';
export { errorCount, isErrorFinding, isErrorSeverity } from './findings.js';

/**
 * Validates an EN 16931 invoice (UBL 2.1 Invoice/CreditNote or UN/CEFACT CII
 * D16B) with the official rules, in-process.
 *
 * The steps follow the KoSIT validator's DefaultCheck: guard the raw input,
 * parse, identify the document, XML Schema, then the schematrons — which,
 * as in KoSIT, only run on schema-valid documents because the official
 * stylesheets assume the schema's structure and data types.
 *
 * Throws ArtefactsMissingError when scripts/setup-validators.sh has not run;
 * every problem with the document itself is a finding, never an exception.
 */
export async function validateInvoiceXml(xml: string, opts: ValidateOptions = {}): Promise<ValidationReport> {
  const guarded = guardInput(xml);
  if (guarded.length > 0) return report(guarded, []);

  const parsed = parseXml(xml);
  if (!parsed.ok) return report(parsed.findings, []);

  const doc = parsed.doc;
  try {
    const detected = detectDocument(doc);
    if (!detected.ok) {
      return report(
        [
          {
            ruleId: 'UNSUPPORTED-DOCUMENT',
            severity: 'fatal',
            message: `Unsupported document: root element ${detected.root} is neither a UN/CEFACT CrossIndustryInvoice nor a UBL 2.1 Invoice or CreditNote`,
            location: '/*',
            source: 'input',
          },
        ],
        [],
      );
    }
    const { kind, ...identity } = detected.document;
    const container = opts.container ?? 'xml';
    const scenario = selectScenario(kind, identity.customization, container);
    if (!scenario) {
      return {
        ...report(
          [
            {
              ruleId: 'SPECIFICATION-UNSUPPORTED',
              severity: 'fatal',
              message: unsupportedMessage(kind, identity.customization, container),
              location: 'BT-24',
              source: 'input',
            },
          ],
          [],
        ),
        ...identity,
      };
    }
    const judged = { ...identity, scenario: { id: scenario.id, name: scenario.name, layers: ['xsd' as const, ...scenario.layers] } };
    const applied = [schemaArtefact(kind)];
    const findings: Finding[] = validateAgainstSchema(doc, kind);
    if (findings.some(isErrorFinding)) {
      findings.push({
        ruleId: 'SCHEMATRON-SKIPPED',
        severity: 'information',
        message: 'The EN 16931 and XRechnung business rules were not checked because the document does not conform to the XML Schema',
        source: 'xsd',
      });
      return { ...report(findings, applied), ...judged };
    }
    // At once: in Saxon-HE each rule set runs on a JVM thread of its own, so the document waits
    // for the slower set rather than for both; the findings keep the rule sets' order.
    const ruleSets = ruleSetsFor(kind, scenario);
    for (const found of await Promise.all(ruleSets.map((ruleSet) => runSchematron(xml, ruleSet)))) findings.push(...found);
    applied.push(...ruleSets.map((ruleSet) => ruleSetArtefact(ruleSet.key)));
    if (scenario.facturX) {
      const checked = await checkProfile(doc, xml, scenario.facturX);
      findings.push(...checked.findings);
      applied.push(...checked.artefacts);
    }
    return {
      ...report(
        findings.map((f) => withScenarioLevel(f, scenario)),
        applied,
      ),
      ...judged,
    };
  } finally {
    doc.dispose();
  }
}

/**
 * Loads every schema and compiled rule set now instead of on the first
 * document, so a worker pays the start-up cost before it takes work; without
 * `profiles`, the Factur-X profiles' rules wait for their first document.
 */
export function warmUpValidation(opts: { profiles?: boolean } = {}): void {
  for (const kind of ['cii', 'ubl-invoice', 'ubl-creditnote'] as const) {
    preloadSchema(kind);
    for (const ruleSet of ruleSetsFor(kind, { layers: ['en16931', 'xrechnung'] })) preloadRuleSet(ruleSet.key);
  }
  if (opts.profiles !== false) for (const profile of FACTURX_PROFILES) preloadProfile(profile);
}

function ruleSetsFor(kind: RootKind, scenario: Pick<Scenario, 'layers'>): RuleSet[] {
  const cii = kind === 'cii';
  const sets: RuleSet[] = [];
  if (scenario.layers.includes('en16931')) sets.push({ key: cii ? 'en16931-cii' : 'en16931-ubl', source: 'en16931' });
  if (scenario.layers.includes('xrechnung')) sets.push({ key: cii ? 'xrechnung-cii' : 'xrechnung-ubl', source: 'xrechnung' });
  return sets;
}

/** The scenario's severity for a rule (KoSIT's customLevel), keeping the rule set's own where it differs. */
function withScenarioLevel(f: Finding, scenario: Scenario): Finding {
  const level = Object.hasOwn(scenario.customLevels, f.ruleId) ? scenario.customLevels[f.ruleId] : undefined;
  if (level === undefined || level === f.severity || f.source === 'xsd' || f.source === 'input') return f;
  return { ...f, severity: level, originalSeverity: f.severity };
}

function report(findings: Finding[], artefacts: Array<{ name: string; version: string }>): ValidationReport {
  return { valid: !findings.some(isErrorFinding), findings, artefacts };
}
