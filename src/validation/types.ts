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
  severity: Severity;
  message: string;
  /** XPath for schema/schematron findings, `line:column` for parse errors. */
  location?: string;
  source: FindingSource;
}

export type Syntax = 'CII' | 'UBL';

export interface ValidationReport {
  /** True when no finding has severity fatal or error. */
  valid: boolean;
  syntax?: Syntax;
  /** BT-3 invoice type code as written in the document (UNTDID 1001, e.g. "380"). */
  documentType?: string;
  /** BT-24 specification identifier as written in the document. */
  customization?: string;
  findings: Finding[];
  /** The rule sets that were actually applied to this document. */
  artefacts: Array<{ name: string; version: string }>;
}

export type XRechnungMode = 'auto' | 'always' | 'never';

export interface ValidateOptions {
  xrechnung?: XRechnungMode;
}
