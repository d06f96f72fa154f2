/**
 * Public shapes of the validation result. Everything here is plain JSON
 * (no classes, no undefined-only semantics) because reports travel through
 * Temporal payloads and the HTTP API unchanged.
 */

export type Severity = 'fatal' | 'error' | 'warning' | 'information';

/** `profile`: the Factur-X / ZUGFeRD profile's own XSD and schematron, for CII documents whose BT-24 names a profile. */
export type FindingSource = 'xml' | 'xsd' | 'en16931' | 'xrechnung' | 'profile' | 'pdf' | 'input';

export interface Finding {
  /** Official rule id (e.g. BR-CO-10, BR-DE-15) or one of our own ids for pre-rule checks (INPUT-*, XML-*, XSD). */
  ruleId: string;
  /** After the scenario's severity override (KoSIT's customLevel), which decides validity. */
  severity: Severity;
  /** The rule set's own severity, present only where the scenario changed it. */
  originalSeverity?: Severity;
  message: string;
  /** XPath for schema/schematron findings, `line:column` for parse errors. */
  location?: string;
  source: FindingSource;
}

export type Syntax = 'CII' | 'UBL';

/** The scenario a document was judged under (see scenarios.ts), as KoSIT's report names it. */
export interface ScenarioInfo {
  id: string;
  /** e.g. "EN16931 XRechnung (CII)", "EN16931 (UBL Invoice)", "Factur-X 1.0 / ZUGFeRD 2.x EN 16931 (CII)". */
  name: string;
  /** The rule layers applied, named like the findings' `source`. */
  layers: FindingSource[];
}

export interface ValidationReport {
  /** True when no finding has severity fatal or error. */
  valid: boolean;
  syntax?: Syntax;
  /** BT-3 invoice type code as written in the document (UNTDID 1001, e.g. "380"). */
  documentType?: string;
  /** BT-24 specification identifier as written in the document. */
  customization?: string;
  /** Absent when no scenario matches the document (then it is not valid). */
  scenario?: ScenarioInfo;
  findings: Finding[];
  /** The rule sets that were actually applied to this document. */
  artefacts: Array<{ name: string; version: string }>;
}

export interface ValidateOptions {
  /** 'pdf': the XML is embedded in a ZUGFeRD / Factur-X PDF, so plain EN 16931 (BT-24) is the Factur-X EN 16931 profile. Default 'xml'. */
  container?: 'xml' | 'pdf';
}
