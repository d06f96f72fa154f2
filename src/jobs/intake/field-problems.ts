import { z } from 'zod';
import { btOf } from '../../invoice/catalog.js';
import { invoiceInputSchema } from '../../invoice/input.js';
import { missingMandatoryFields } from '../../invoice/mandatory.js';
import type { Invoice } from '../../invoice/model.js';
import type { FieldProblem } from '../../conversion/field-problem.js';
import { JobRefusal } from './refusal.js';

/** zod's issues as field problems: the JSON path under `root` and, inside an invoice, the business term. */
export function fieldProblems(issues: readonly z.core.$ZodIssue[], root: string): FieldProblem[] {
  return issues.map((issue) => {
    const path = issue.path;
    const field = formatPath(issue.code === 'unrecognized_keys' ? [...path, issue.keys.join(', ')] : path) || root;
    const invoiceAt = path.indexOf('invoice');
    const bt = invoiceAt >= 0 ? btOf(path.slice(invoiceAt + 1)) : undefined;
    const message = issue.code === 'unrecognized_keys' ? 'unknown field' : issue.message;
    return bt ? { field, bt, message: `${message} (${bt})` } : { field, message };
  });
}

/** An invoice from any entry point, checked against the model; what does not fit is refused field by field. */
export function parseInvoice(value: unknown): Invoice {
  const result = z.object({ invoice: invoiceInputSchema }).safeParse({ invoice: value });
  if (!result.success) throw new JobRefusal('VALIDATION_ERROR', { fields: fieldProblems(result.error.issues, 'invoice') });
  return result.data.invoice;
}

/**
 * An invoice to create a document from: it fits the model and has every mandatory business
 * term; what is missing is refused, each field with its path and term (INVOICE_INCOMPLETE).
 */
export function parseCompleteInvoice(value: unknown): Invoice {
  const invoice = parseInvoice(value);
  const missing = missingMandatoryFields(invoice);
  if (missing.length > 0) {
    throw new JobRefusal('INVOICE_INCOMPLETE', {
      userMessage: `The invoice lacks ${missing.length} mandatory field(s) that EN 16931 requires; see fields.`,
      detail: `Missing: ${[...new Set(missing.map((m) => m.bt))].join(', ')}.`,
      fields: missing.map((m) => ({
        field: `invoice.${m.path}`,
        bt: m.bt,
        message: `${m.name} (${m.bt}) is missing; EN 16931 requires it (${m.rule})`,
      })),
    });
  }
  return invoice;
}

function formatPath(path: ReadonlyArray<PropertyKey>): string {
  return path.reduce<string>((acc, p) => (typeof p === 'number' ? `${acc}[${p}]` : acc ? `${acc}.${String(p)}` : String(p)), '');
}
