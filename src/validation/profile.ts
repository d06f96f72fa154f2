import type { XmlDocument } from 'libxml2-wasm';
import type { ArtefactKey, FacturXProfile } from './artefacts.js';
import { isErrorFinding } from './findings.js';
import { preloadRuleSet, ruleSetArtefact, runSchematron } from './schematron.js';
import type { Finding } from './types.js';
import { preloadSchema, schemaArtefact, validateWithSchema } from './xsd.js';

/**
 * The Factur-X 1.0 / ZUGFeRD 2.x profile rules: when BT-24 names a profile,
 * the document must also follow that profile's own XSD (a subset of CII
 * D16B) and schematron, as Mustang's validator checks them.
 *
 * Which identifier names which profile, and where (the EN16931 profile
 * shares BT-24 with plain EN 16931), is the scenarios' business
 * (scenarios.ts).
 *
 * The EXTENDED schematron runs with two set-up patches (see
 * scripts/setup-validators.sh and the manifest's "patches"): without them
 * SaxonJS 2.7 stops on BR-FXEXT-CO-10/13 with XPTY0004, and casts doubles to
 * decimals differently from Saxon-HE, which Mustang uses.
 */

export type { FacturXProfile } from './artefacts.js';

export const FACTURX_PROFILES: readonly FacturXProfile[] = ['MINIMUM', 'BASICWL', 'BASIC', 'EN16931', 'EXTENDED'];

/** Mustang does not count the profiles' "not used in the given context" reports as errors; we keep them as warnings. */
const NOT_USED = { ruleId: 'PROFILE-NOT-USED', severity: 'warning' } as const;

function keys(profile: FacturXProfile): { xsd: ArtefactKey; rules: ArtefactKey } {
  const name = profile.toLowerCase() as Lowercase<FacturXProfile>;
  return { xsd: `factur-x-${name}-xsd`, rules: `factur-x-${name}` };
}

export function preloadProfile(profile: FacturXProfile): void {
  const { xsd, rules } = keys(profile);
  preloadSchema(xsd);
  preloadRuleSet(rules);
}

/**
 * Profile XSD, then (only on a schema-valid document, like the other
 * schematrons) the profile schematron. `doc` is the parsed document, `xml`
 * its text for the XSLT processor.
 */
export async function checkProfile(
  doc: XmlDocument,
  xml: string,
  profile: FacturXProfile,
): Promise<{ findings: Finding[]; artefacts: Array<{ name: string; version: string }> }> {
  const { xsd, rules } = keys(profile);
  const artefacts = [schemaArtefact(xsd)];
  const findings = validateWithSchema(doc, xsd, 'profile', 'PROFILE-XSD');
  if (findings.some(isErrorFinding)) {
    findings.push({
      ruleId: 'PROFILE-SCHEMATRON-SKIPPED',
      severity: 'information',
      message: `The Factur-X ${profile} profile rules were not checked because the document does not conform to the profile's XML Schema`,
      source: 'profile',
    });
    return { findings, artefacts };
  }
  findings.push(...(await runSchematron(xml, { key: rules, source: 'profile', unflaggedReport: NOT_USED })));
  artefacts.push(ruleSetArtefact(rules));
  return { findings, artefacts };
}
