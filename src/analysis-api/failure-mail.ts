import type { FieldProblem } from '../api/errors.js';
import { escapeHtml } from '../mail/html-text.js';

/**
 * The e-mail createZugferdFromPdf hands back with every failure, ready for the
 * caller to forward to whoever owns the invoice: what went wrong in words, the
 * fields or rules concerned, what to do, and the reference support asks for.
 */

export interface ConversionFailure {
  code: string;
  userMessage: string;
  detail?: string;
  fields?: FieldProblem[];
  ruleCodes?: string[];
  reference: string;
  retryable: boolean;
}

export interface FailureEmail {
  subject: string;
  text: string;
  html: string;
}

/** Rule codes beyond this are summarised; the JSON answer carries all of them. */
const MAX_RULES_LISTED = 20;

export function failureEmail(fileName: string, failure: ConversionFailure): FailureEmail {
  const fields = (failure.fields ?? []).map((f) => (f.bt && !f.message.includes(f.bt) ? `${f.bt}: ${f.message}` : f.message));
  const rules = failure.ruleCodes ?? [];
  const listedRules = rules.length > MAX_RULES_LISTED ? [...rules.slice(0, MAX_RULES_LISTED), `and ${rules.length - MAX_RULES_LISTED} more`] : rules;
  const advice = failure.retryable
    ? 'This looks like a temporary problem on our side. Please send the invoice again in a few minutes.'
    : 'Please check the invoice, correct or complete it, and send it again. A clear PDF with a text layer works best; scans should have 300 dpi.';

  const subject = `E-invoice not created: ${fileName}`;
  const text = [
    'Hello,',
    '',
    `no ZUGFeRD e-invoice could be created from "${fileName}".`,
    '',
    `Reason: ${failure.userMessage}`,
    ...(failure.detail ? [failure.detail] : []),
    ...(fields.length ? ['', 'Details:', ...fields.map((f) => `  - ${f}`)] : []),
    ...(listedRules.length ? ['', `Rules not met: ${listedRules.join(', ')}`] : []),
    '',
    advice,
    '',
    `Reference: ${failure.reference}`,
  ].join('\n');

  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
  const html = [
    '<!DOCTYPE html><html><body style="font-family: sans-serif">',
    '<p>Hello,</p>',
    `<p>no ZUGFeRD e-invoice could be created from <strong>${escapeHtml(fileName)}</strong>.</p>`,
    `<p><strong>Reason:</strong> ${escapeHtml(failure.userMessage)}${failure.detail ? `<br>${escapeHtml(failure.detail)}` : ''}</p>`,
    fields.length ? `<p>Details:</p>${list(fields)}` : '',
    listedRules.length ? `<p>Rules not met: ${escapeHtml(listedRules.join(', '))}</p>` : '',
    `<p>${escapeHtml(advice)}</p>`,
    `<p style="color: #666">Reference: ${escapeHtml(failure.reference)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
