import type { FieldProblem } from '../src/conversion/field-problem.js';
import type { Finding } from '../src/validation/types.js';
import type { Operation } from './config.js';

/**
 * What a route writes beside each file it handled: `invoice.report.json` for programs and
 * `invoice.report.txt` for the person who dropped the file. The text says what happened and,
 * when something must change, what: the field with its business term, the rule, and which
 * validator (and version) said so.
 */

export type FileOutcome =
  | {
      kind: 'done';
      /** The result's file name, where the operation makes one. */
      result?: string;
      /** A validation's verdict; for other operations the result passed validation. */
      valid?: boolean;
      findings?: Finding[];
      artefacts?: Array<{ name: string; version: string }>;
      /** Values the result carries that the page did not print (inferred, defaults). */
      notes?: string[];
      /** The code of the refusal a person settled in the review queue before the result was made. */
      reviewedAfter?: string;
    }
  | {
      kind: 'refused';
      code: string;
      userMessage: string;
      fields?: FieldProblem[];
      ruleCodes?: string[];
      findings?: Finding[];
      artefacts?: Array<{ name: string; version: string }>;
    }
  | { kind: 'duplicate'; workflowId: string; firstFile: string; firstSeenAt: string };

export interface FileReport {
  route: string;
  file: string;
  operation: Operation;
  workflowId: string;
  /** ISO time the file was finished. */
  at: string;
  outcome: FileOutcome;
}

export function reportJson(report: FileReport): string {
  return `${JSON.stringify(report, null, 2)}\n`;
}

const MAX_LISTED_FINDINGS = 20;

export function reportText(report: FileReport): string {
  const { outcome } = report;
  const lines = [
    headline(report),
    `Route ${report.route} · ${report.operation} · ${report.at.replace('T', ' ').slice(0, 16)} UTC · workflow ${report.workflowId}`,
    '',
  ];
  if (outcome.kind === 'duplicate') {
    lines.push(
      `The same content arrived before as ${outcome.firstFile} (${outcome.firstSeenAt.slice(0, 10)}) and was processed then; this copy was not processed again.`,
    );
    return `${lines.join('\n')}\n`;
  }
  if (outcome.kind === 'refused') {
    lines.push(outcome.userMessage);
    if (outcome.fields?.length) lines.push('', 'What to fix:', ...outcome.fields.flatMap(fieldLines));
  }
  if (outcome.kind === 'done' && outcome.reviewedAfter)
    lines.push(
      `Refused at first (${outcome.reviewedAfter}); created after a person confirmed or corrected the values in the review queue.`,
    );
  if (outcome.kind === 'done' && outcome.notes?.length)
    lines.push('Not printed on the page, filled in:', ...outcome.notes.map((n) => `  - ${n}`));
  const blocking = (outcome.findings ?? []).filter((f) => f.severity === 'fatal' || f.severity === 'error');
  const others = (outcome.findings ?? []).filter((f) => !blocking.includes(f));
  for (const [title, list] of [
    ['Errors', blocking],
    ['Warnings and notes', others],
  ] as const) {
    if (list.length === 0) continue;
    lines.push(
      '',
      `${title}:`,
      ...list.slice(0, MAX_LISTED_FINDINGS).map((f) => `  - ${f.ruleId}: ${f.message}${f.location ? ` (at ${f.location})` : ''}`),
    );
    if (list.length > MAX_LISTED_FINDINGS) lines.push(`  … and ${list.length - MAX_LISTED_FINDINGS} more in the JSON report`);
  }
  if (outcome.kind === 'refused' && outcome.ruleCodes?.length && !outcome.findings?.length)
    lines.push('', `Rules: ${outcome.ruleCodes.join(', ')}`);
  if (outcome.artefacts?.length) lines.push('', `Checked with: ${outcome.artefacts.map((a) => `${a.name} ${a.version}`).join(', ')}`);
  return `${lines.join('\n')}\n`;
}

function headline(report: FileReport): string {
  const { outcome } = report;
  switch (outcome.kind) {
    case 'duplicate':
      return `${report.file}: already processed`;
    case 'refused':
      return `${report.file}: not processed (${outcome.code})`;
    case 'done':
      if (outcome.valid === false) return `${report.file}: invalid`;
      if (outcome.valid === true) return `${report.file}: valid`;
      return `${report.file}: done${outcome.result ? ` → ${outcome.result}` : ''}`;
  }
}

/** A field to fix, with what was read and the other readings found, so that a person can decide at a glance. */
function fieldLines(f: FieldProblem): string[] {
  return [
    `  - ${f.bt ? `${f.bt} ` : ''}${f.field}: ${f.message}`,
    ...(f.value !== undefined ? [`      read: ${JSON.stringify(f.value)}`] : []),
    ...(f.candidates?.length ? [`      also found: ${f.candidates.map((c) => JSON.stringify(c)).join(', ')}`] : []),
  ];
}
