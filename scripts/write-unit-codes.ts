/**
 * Writes src/analysis/unit-codes.ts: the unit codes EN 16931 allows (UN/ECE Recommendation 20
 * with the Recommendation 21 extension), as the EN 16931 rules check them (BR-CL-23), taken from
 * the CII rule set scripts/setup-validators.sh installs. The analysis is pure and reads no
 * files, so the list is written into the source; rerun after a rule-set update:
 *
 *   npm run build:tools && node dist-tools/scripts/write-unit-codes.js
 */
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { format, resolveConfig } from 'prettier';
import { findRepoRoot } from '../src/validation/artefacts.js';

const root = findRepoRoot();
const manifest = JSON.parse(readFileSync(path.join(root, '.artefacts/manifest.json'), 'utf8')) as {
  artefacts: Array<{ name: string; version: string; path: string; source: string }>;
};
const rules = manifest.artefacts.find((a) => a.path.endsWith('/en16931-cii.sef.json'));
if (!rules) throw new Error('No EN 16931 CII rule set in .artefacts/manifest.json: run scripts/setup-validators.sh');
// The rule set's XSLT, from which the SEF the service runs was compiled.
const xslt = readFileSync(path.join(root, '.artefacts/xslt/en16931-cii.xslt'), 'utf8');
const rule = xslt.indexOf('[BR-CL-23]');
const test = xslt.slice(xslt.lastIndexOf('<xsl:when', rule), rule);
const list = /contains\('\s*([^']+?)\s*'/.exec(test)?.[1];
if (!list) throw new Error('BR-CL-23 has no code list in the rule set');
const codes = list.split(/\s+/).sort();
const file = path.join(root, 'src/analysis/unit-codes.ts');
const source = `/**
 * The unit codes EN 16931 allows (BR-CL-23: UN/ECE Recommendation 20 with Recommendation 21),
 * ${codes.length} codes, from ${rules.name} ${rules.version} (${rules.source}).
 * Written by scripts/write-unit-codes.ts; do not edit by hand.
 */
export const UNIT_CODES_ALLOWED: ReadonlySet<string> = new Set(${JSON.stringify(codes.join(' '))}.split(' '));
`;
writeFileSync(file, await format(source, { ...(await resolveConfig(file)), filepath: file }));
console.log(`Wrote ${codes.length} unit codes to ${path.relative(root, file)}`);
