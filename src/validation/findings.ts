import type { Finding } from './types.js';

/*
 * The one rule for what makes a document invalid. Its own module, free of the validators'
 * imports, so that workflow code (bundled for Temporal's sandbox) can use it too.
 */

/** Error and fatal make a document invalid; warning and information do not. Takes a plain string for other tools' severities (KoSIT's). */
export const isErrorSeverity = (severity: string): boolean => severity === 'error' || severity === 'fatal';

export const isErrorFinding = (f: Pick<Finding, 'severity'>): boolean => isErrorSeverity(f.severity);

/** How many findings of a report make it invalid. */
export const errorCount = (report: { findings: ReadonlyArray<Pick<Finding, 'severity'>> }): number =>
  report.findings.filter(isErrorFinding).length;
