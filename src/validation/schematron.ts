import { readFileSync } from 'node:fs';
import SaxonJS from 'saxon-js';
import { artefacts, type ArtefactKey } from './artefacts.js';
import type { Finding, FindingSource, Severity } from './types.js';

/**
 * Runs an official schematron (precompiled XSLT → SaxonJS SEF) and turns its
 * SVRL output into findings.
 *
 * Parsing a SEF takes far longer than applying it, so each one is read once
 * per process and the parsed object is reused for every document.
 */

export interface RuleSet {
  key: ArtefactKey;
  source: Extract<FindingSource, 'en16931' | 'xrechnung' | 'profile'>;
  /**
   * How an svrl:successful-report without id and flag is reported. The
   * Factur-X profile schematrons use such reports for "element is marked as
   * not used in the given context", which Mustang does not count as an
   * error; absent means such a report is an error like a failed assert.
   */
  unflaggedReport?: { ruleId: string; severity: Severity };
}

const sefCache = new Map<ArtefactKey, unknown>();

function sef(key: ArtefactKey): unknown {
  let compiled = sefCache.get(key);
  if (compiled === undefined) {
    compiled = JSON.parse(readFileSync(artefacts().get(key).file, 'utf8'));
    sefCache.set(key, compiled);
  }
  return compiled;
}

export function preloadRuleSet(key: ArtefactKey): void {
  sef(key);
}

export function ruleSetArtefact(key: ArtefactKey): { name: string; version: string } {
  const a = artefacts().get(key);
  return { name: a.name, version: a.version };
}

interface SvrlEntry {
  kind: string;
  id: string;
  flag: string;
  location: string;
  text: string;
}

// One XPath over the SVRL document collects what we need from every failed
// assert and successful report, so no second XML parser is involved.
const SVRL_QUERY = `for $a in //(svrl:failed-assert | svrl:successful-report)
  return map {
    'kind': local-name($a),
    'id': string($a/@id),
    'flag': string($a/@flag),
    'location': string($a/@location),
    'text': normalize-space(string-join($a/svrl:text, ' '))
  }`;

function severityOf(flag: string): Severity {
  switch (flag.toLowerCase()) {
    case 'warning':
      return 'warning';
    case 'information':
    case 'info':
      return 'information';
    // fatal, error, and an absent flag all mean the rule is violated.
    default:
      return 'error';
  }
}

function ruleIdOf(entry: SvrlEntry): string {
  if (entry.id) return entry.id;
  return /\[([A-Z][A-Z0-9]*(?:-[A-Za-z0-9]+)+)\]/.exec(entry.text)?.[1] ?? 'SCHEMATRON';
}

export function runSchematron(xml: string, ruleSet: RuleSet): Finding[] {
  let entries: SvrlEntry[];
  try {
    const result = SaxonJS.transform({ stylesheetInternal: sef(ruleSet.key), sourceText: xml, destination: 'document' }, 'sync');
    entries = SaxonJS.XPath.evaluate(SVRL_QUERY, result.principalResult, {
      namespaceContext: { svrl: 'http://purl.oclc.org/dsdl/svrl' },
      resultForm: 'array',
    }) as SvrlEntry[];
  } catch (e) {
    // A dynamic error inside the official stylesheet leaves the rules
    // unevaluated: that must not read as "no violations".
    const message = e instanceof Error ? e.message : String(e);
    return [
      {
        ruleId: 'SCHEMATRON-PROCESSING',
        severity: 'fatal',
        message: `The ${ruleSetArtefact(ruleSet.key).name} rules could not be applied: ${message}`,
        source: ruleSet.source,
      },
    ];
  }
  const unflagged = ruleSet.unflaggedReport;
  return entries.map((entry) => {
    const asReport = unflagged !== undefined && entry.kind === 'successful-report' && !entry.id && !entry.flag;
    return {
      ruleId: asReport ? unflagged.ruleId : ruleIdOf(entry),
      severity: asReport ? unflagged.severity : severityOf(entry.flag),
      message: entry.text,
      ...(entry.location ? { location: entry.location } : {}),
      source: ruleSet.source,
    };
  });
}
