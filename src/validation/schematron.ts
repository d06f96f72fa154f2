import { readFileSync } from 'node:fs';
import os from 'node:os';
import SaxonJS from 'saxon-js';
import { artefacts, RULE_SET_KEYS, type ArtefactKey } from './artefacts.js';
import { SaxonHe, saxonHeHome, SchematronProcessingError, type SaxonHeOptions, type SvrlEntry } from './saxon-he.js';
import type { Finding, FindingSource, Severity } from './types.js';

/**
 * Runs an official schematron (its XSLT) and turns the failed asserts and
 * successful reports of its SVRL output into findings.
 *
 * The XSLT runs in SaxonJS in this process (precompiled to SEF; parsing a SEF
 * takes far longer than applying it, so each is read once per process), or,
 * once the worker calls useSaxonHe, in Saxon-HE on a JVM (saxon-he.ts).
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

let jvm: SaxonHe | undefined;

/**
 * From now on the rules run in Saxon-HE on a JVM, when scripts/setup-validators.sh installed it;
 * false when it did not (SaxonJS stays). The JVM starts, and compiles each rule set, on first use.
 */
export function useSaxonHe(opts: Partial<Omit<SaxonHeOptions, 'stylesheets'>> = {}): boolean {
  if (jvm) return true;
  const home = saxonHeHome();
  if (!home) return false;
  const stylesheets = Object.fromEntries(RULE_SET_KEYS.map((key) => [key, artefacts().xslt(key)]));
  jvm = new SaxonHe(home, { stylesheets, timeoutMs: 60_000, maxHeapMb: 512, threads: os.availableParallelism(), ...opts });
  return true;
}

/** Ends the JVM (service shutdown); the rules run in SaxonJS again. */
export async function stopSaxonHe(): Promise<void> {
  const running = jvm;
  jvm = undefined;
  await running?.stop();
}

/** The JVM's process id while one runs, for tests. */
export function saxonHePid(): number | undefined {
  return jvm?.pid;
}

/** Loads (SaxonJS) or compiles (Saxon-HE, in the background) the rule set before the first document needs it. */
export function preloadRuleSet(key: ArtefactKey): void {
  if (jvm) void jvm.entries(key, '<warm-up/>').catch(() => {});
  else sef(key);
}

export function ruleSetArtefact(key: ArtefactKey): { name: string; version: string } {
  const a = artefacts().get(key);
  return { name: a.name, version: a.version };
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

function saxonJsEntries(key: ArtefactKey, xml: string): SvrlEntry[] {
  const result = SaxonJS.transform({ stylesheetInternal: sef(key), sourceText: xml, destination: 'document' }, 'sync');
  return SaxonJS.XPath.evaluate(SVRL_QUERY, result.principalResult, {
    namespaceContext: { svrl: 'http://purl.oclc.org/dsdl/svrl' },
    resultForm: 'array',
  }) as SvrlEntry[];
}

export async function runSchematron(xml: string, ruleSet: RuleSet): Promise<Finding[]> {
  let entries: SvrlEntry[];
  try {
    entries = jvm ? await jvm.entries(ruleSet.key, xml) : saxonJsEntries(ruleSet.key, xml);
  } catch (e) {
    // A JVM that died or timed out says nothing of the document: the caller's retry asks again.
    if (jvm && !(e instanceof SchematronProcessingError)) throw e;
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
