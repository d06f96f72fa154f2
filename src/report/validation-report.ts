import { errorCount } from '../validation/findings.js';
import type { ScenarioInfo, Finding, Severity } from '../validation/types.js';
import type { Language } from './language.js';
import { TEXT } from './text.js';

/**
 * A validation report as people read it, built once and drawn twice (HTML and PDF), so the
 * two cannot say different things: the verdict, what was judged under which scenario, every
 * finding grouped by the validator that reported it, and the validators' versions.
 */

/** A finding with what the caller knows about it besides: its line in the document sent, the rule set and version that reported it. */
export type SubjectFinding = Finding & { line?: string; ruleSet?: string };

export interface ReportSubject {
  /** What was judged: invoice XML on its own, or a ZUGFeRD / Factur-X PDF with its XML. */
  kind: 'xml' | 'zugferd';
  valid: boolean;
  findings: SubjectFinding[];
  artefacts: Array<{ name: string; version: string }>;
  scenario?: ScenarioInfo;
  syntax?: string;
  customization?: string;
  profile?: string;
  generation?: string;
  xmlFileName?: string;
  pdfValid?: boolean;
  xmlValid?: boolean;
}

export interface ReportFinding {
  ruleId: string;
  severity: Severity;
  /** The rule set's own severity where the scenario changed it. */
  originalSeverity?: Severity;
  message: string;
  /** Business terms and groups the finding names (BT-…, BG-…), from its rule id and message. */
  terms: string[];
  location?: string;
  line?: string;
}

export type GroupId = 'input' | 'xsd' | 'en16931' | 'xrechnung' | 'profile' | 'pdfa' | 'container';

export interface ReportGroup {
  id: GroupId;
  title: string;
  /** The rule sets and versions behind the group's findings, where known. */
  ruleSets: string[];
  errors: number;
  findings: ReportFinding[];
}

export interface ReportView {
  lang: Language;
  title: string;
  valid: boolean;
  verdict: string;
  /** Label and value rows about the document and its judgement. */
  facts: Array<[string, string]>;
  groups: ReportGroup[];
  artefacts: Array<{ name: string; version: string }>;
  /** Column names of the finding tables and the other fixed words. */
  words: (typeof TEXT)[Language]['report'];
}

const GROUP_ORDER: GroupId[] = ['input', 'xsd', 'en16931', 'xrechnung', 'profile', 'pdfa', 'container'];
const SEVERITY_ORDER: Severity[] = ['fatal', 'error', 'warning', 'information'];

/** PDF findings split by what judged them: PDF/A (veraPDF's PDFA-… and our PDF-… checks) or the ZUGFeRD container. */
function groupOf(f: Finding): GroupId {
  if (f.source === 'pdf') return /^PDFA?-/.test(f.ruleId) ? 'pdfa' : 'container';
  if (f.source === 'input' || f.source === 'xml') return 'input';
  return f.source;
}

/** BT-/BG- references of a finding, in order of appearance: rule messages name the terms they check. */
export function termsOf(f: Pick<Finding, 'ruleId' | 'message'>): string[] {
  return [...new Set([...`${f.ruleId} ${f.message}`.matchAll(/\b(B[TG]-\d+)\b/g)].map((m) => m[1]!))];
}

/**
 * Schematron XPaths spell every step as `*:Name[namespace-uri()='…'][1]`; people read `/Name[1]`.
 * The namespaces add nothing here: an invoice's elements are unambiguous by name and position.
 */
export const readableLocation = (location: string) => location.replace(/\[namespace-uri\(\)='[^']*'\]/g, '').replace(/\*:/g, '');

export function reportView(subject: ReportSubject, lang: Language): ReportView {
  const t = TEXT[lang].report;
  const errors = errorCount(subject);
  const warnings = subject.findings.length - errors;
  const facts: Array<[string, string]> = [[t.document, subject.kind === 'xml' ? t.kindXml : t.kindZugferd]];
  if (subject.syntax) facts.push([t.syntax, subject.syntax]);
  if (subject.xmlFileName) facts.push([t.xmlFileName, subject.xmlFileName]);
  if (subject.profile) facts.push([t.profile, [subject.profile, subject.generation].filter(Boolean).join(', ')]);
  if (subject.customization) facts.push([t.customization, subject.customization]);
  facts.push([t.scenario, subject.scenario ? `${subject.scenario.name} (${subject.scenario.layers.join(', ')})` : t.noScenario]);
  if (subject.pdfValid !== undefined) facts.push([t.pdfPart, subject.pdfValid ? t.partValid : t.partInvalid]);
  if (subject.xmlValid !== undefined) facts.push([t.xmlPart, subject.xmlValid ? t.partValid : t.partInvalid]);
  facts.push([t.counts, t.countsValue(errors, warnings)]);

  const groups = GROUP_ORDER.map((id): ReportGroup => {
    const members = subject.findings.filter((f) => groupOf(f) === id);
    const findings = members
      .sort((a, b) => SEVERITY_ORDER.indexOf(a.severity) - SEVERITY_ORDER.indexOf(b.severity))
      .map((f) => ({
        ruleId: f.ruleId,
        severity: f.severity,
        ...(f.originalSeverity ? { originalSeverity: f.originalSeverity } : {}),
        message: f.message,
        terms: termsOf(f),
        ...(f.location ? { location: readableLocation(f.location) } : {}),
        ...(f.line ? { line: f.line } : {}),
      }));
    const ruleSets = [...new Set(members.map((f) => f.ruleSet).filter((r): r is string => !!r))];
    return { id, title: t.groups[id], ruleSets, errors: errorCount({ findings }), findings };
  }).filter((g) => g.findings.length > 0);

  return {
    lang,
    title: t.title,
    valid: subject.valid,
    verdict: subject.valid ? t.verdictValid : t.verdictInvalid(errors),
    facts,
    groups,
    artefacts: subject.artefacts,
    words: t,
  };
}
