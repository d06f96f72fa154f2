import { analyseOperation } from '../src/operations/analysis.js';
import { convertOperation } from '../src/operations/convert.js';
import { createXInvoiceOperation } from '../src/operations/xrechnung.js';
import type { Operation } from './config.js';
import { EXTRACT_JSON, VALIDATE } from './operations.js';
import { join, splitPath } from './sources/paths.js';

/**
 * Where a route puts what it made of a file, named after the input so a person finds the pair:
 * `invoice.pdf` → `invoice-zugferd.pdf`, its reports `invoice.report.json` and `invoice.report.txt`.
 */

const RESULT_SUFFIX: Record<Operation, string | undefined> = {
  [convertOperation.name]: '-zugferd.pdf',
  [analyseOperation.name]: '.json',
  [createXInvoiceOperation.name]: '.xml',
  [EXTRACT_JSON]: '.json',
  // A validation's result is its report.
  [VALIDATE]: undefined,
};

export function stemOf(name: string): string {
  const dot = name.lastIndexOf('.');
  return dot > 0 ? name.slice(0, dot) : name;
}

/** The result file's name, or undefined where the report is the result. */
export function resultName(operation: Operation, input: string): string | undefined {
  const suffix = RESULT_SUFFIX[operation];
  return suffix && `${stemOf(input)}${suffix}`;
}

export function reportNames(input: string): { json: string; text: string } {
  const stem = stemOf(input);
  return { json: `${stem}.report.json`, text: `${stem}.report.txt` };
}

/** `done/2026-11-25/invoice.pdf`: one folder per day keeps done/ browsable after years. */
export function donePath(doneFolder: string, at: Date, input: string): string {
  return join(join(doneFolder, at.toISOString().slice(0, 10)), input);
}

/**
 * Another name for a file whose target is taken (an earlier `invoice.pdf` is already in done/):
 * `invoice (2).pdf`, as file managers do. Nothing is ever overwritten.
 */
export function numbered(filePath: string, n: number): string {
  const { folder, name } = splitPath(filePath);
  const stem = stemOf(name);
  return join(folder, `${stem} (${n})${name.slice(stem.length)}`);
}
