import { detectDocument, isXRechnungCustomization, type RootKind } from './detect.js';
import { guardInput } from './input-guard.js';
import { parseXml } from './parse.js';
import { checkProfile, FACTURX_PROFILES, facturXProfileOf, preloadProfile } from './profile.js';
import { preloadRuleSet, ruleSetArtefact, runSchematron, type RuleSet } from './schematron.js';
import type { Finding, ValidateOptions, ValidationReport, XRechnungMode } from './types.js';
import { preloadSchema, schemaArtefact, validateAgainstSchema } from './xsd.js';

export type { Finding, FindingSource, Severity, Syntax, ValidateOptions, ValidationReport, XRechnungMode } from './types.js';
export { ArtefactsMissingError, type FacturXProfile } from './artefacts.js';
export { facturXProfileOf } from './profile.js';
export { MAX_INPUT_BYTES } from './input-guard.js';

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
    const applied = [schemaArtefact(kind)];
    const findings: Finding[] = validateAgainstSchema(doc, kind);
    if (findings.some(isBlocking)) {
      findings.push({
        ruleId: 'SCHEMATRON-SKIPPED',
        severity: 'information',
        message: 'The EN 16931 and XRechnung business rules were not checked because the document does not conform to the XML Schema',
        source: 'xsd',
      });
      return { ...report(findings, applied), ...identity };
    }
    for (const ruleSet of ruleSetsFor(kind, opts.xrechnung ?? 'auto', identity.customization)) {
      findings.push(...runSchematron(xml, ruleSet));
      applied.push(ruleSetArtefact(ruleSet.key));
    }
    // A CII document that names a Factur-X / ZUGFeRD profile in BT-24 must
    // also follow that profile's own XSD and schematron.
    const profile = kind === 'cii' ? facturXProfileOf(identity.customization) : undefined;
    if (profile) {
      const checked = checkProfile(doc, xml, profile);
      findings.push(...checked.findings);
      applied.push(...checked.artefacts);
    }
    return { ...report(findings, applied), ...identity };
  } finally {
    doc.dispose();
  }
}

/**
 * Loads every schema and compiled rule set now instead of on the first
 * document, so a worker pays the start-up cost before it takes work.
 */
export function warmUpValidation(): void {
  for (const kind of ['cii', 'ubl-invoice', 'ubl-creditnote'] as const) {
    preloadSchema(kind);
    for (const ruleSet of ruleSetsFor(kind, 'always', undefined)) preloadRuleSet(ruleSet.key);
  }
  for (const profile of FACTURX_PROFILES) preloadProfile(profile);
}

function ruleSetsFor(kind: RootKind, mode: XRechnungMode, customization: string | undefined): RuleSet[] {
  const cii = kind === 'cii';
  const sets: RuleSet[] = [{ key: cii ? 'en16931-cii' : 'en16931-ubl', source: 'en16931' }];
  const xrechnung = mode === 'always' || (mode === 'auto' && isXRechnungCustomization(customization));
  if (xrechnung) sets.push({ key: cii ? 'xrechnung-cii' : 'xrechnung-ubl', source: 'xrechnung' });
  return sets;
}

function isBlocking(f: Finding): boolean {
  return f.severity === 'fatal' || f.severity === 'error';
}

function report(findings: Finding[], artefacts: Array<{ name: string; version: string }>): ValidationReport {
  return { valid: !findings.some(isBlocking), findings, artefacts };
}
