import type { FieldProblem } from '../conversion/field-problem.js';
import { escapeHtml } from '../mail/html-text.js';
import type { OwnerLanguage } from '../conversion/owner-texts.js';

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

/** The e-mail's words, per language of the invoice's owner. */
const WORDS = {
  en: {
    subject: (f: string) => `E-invoice not created: ${f}`,
    greeting: 'Hello,',
    intro: (f: string) => `no ZUGFeRD e-invoice could be created from "${f}".`,
    introHtml: (f: string) => `no ZUGFeRD e-invoice could be created from <strong>${f}</strong>.`,
    reason: 'Reason',
    details: 'Details',
    rules: 'Rules not met',
    more: (n: number) => `and ${n} more`,
    retry: 'This looks like a temporary problem on our side. Please send the invoice again in a few minutes.',
    fix: 'Please check the invoice, correct or complete it, and send it again. A clear PDF with a text layer works best; scans should have 300 dpi.',
    reference: 'Reference',
  },
  de: {
    subject: (f: string) => `E-Rechnung nicht erstellt: ${f}`,
    greeting: 'Guten Tag,',
    intro: (f: string) => `aus „${f}“ konnte keine ZUGFeRD-E-Rechnung erstellt werden.`,
    introHtml: (f: string) => `aus <strong>${f}</strong> konnte keine ZUGFeRD-E-Rechnung erstellt werden.`,
    reason: 'Grund',
    details: 'Einzelheiten',
    rules: 'Nicht erfüllte Regeln',
    more: (n: number) => `und ${n} weitere`,
    retry: 'Das ist vermutlich ein vorübergehendes Problem bei uns. Bitte senden Sie die Rechnung in einigen Minuten erneut.',
    fix: 'Bitte prüfen Sie die Rechnung, ergänzen oder berichtigen Sie sie und senden Sie sie erneut. Am besten eignet sich ein PDF mit Textebene; Scans sollten 300 dpi haben.',
    reference: 'Referenz',
  },
} as const;

export function failureEmail(fileName: string, failure: ConversionFailure, language: OwnerLanguage = 'en'): FailureEmail {
  const w = WORDS[language];
  const fields = (failure.fields ?? []).map((f) => (f.bt && !f.message.includes(f.bt) ? `${f.bt}: ${f.message}` : f.message));
  const rules = failure.ruleCodes ?? [];
  const listedRules =
    rules.length > MAX_RULES_LISTED ? [...rules.slice(0, MAX_RULES_LISTED), w.more(rules.length - MAX_RULES_LISTED)] : rules;
  const advice = failure.retryable ? w.retry : w.fix;

  const subject = w.subject(fileName);
  const text = [
    w.greeting,
    '',
    w.intro(fileName),
    '',
    `${w.reason}: ${failure.userMessage}`,
    ...(failure.detail ? [failure.detail] : []),
    ...(fields.length ? ['', `${w.details}:`, ...fields.map((f) => `  - ${f}`)] : []),
    ...(listedRules.length ? ['', `${w.rules}: ${listedRules.join(', ')}`] : []),
    '',
    advice,
    '',
    `${w.reference}: ${failure.reference}`,
  ].join('\n');

  const list = (items: string[]) => `<ul>${items.map((i) => `<li>${escapeHtml(i)}</li>`).join('')}</ul>`;
  const html = [
    `<!DOCTYPE html><html lang="${language}"><body style="font-family: sans-serif">`,
    `<p>${escapeHtml(w.greeting)}</p>`,
    `<p>${w.introHtml(escapeHtml(fileName))}</p>`,
    `<p><strong>${w.reason}:</strong> ${escapeHtml(failure.userMessage)}${failure.detail ? `<br>${escapeHtml(failure.detail)}` : ''}</p>`,
    fields.length ? `<p>${w.details}:</p>${list(fields)}` : '',
    listedRules.length ? `<p>${w.rules}: ${escapeHtml(listedRules.join(', '))}</p>` : '',
    `<p>${escapeHtml(advice)}</p>`,
    `<p style="color: #666">${w.reference}: ${escapeHtml(failure.reference)}</p>`,
    '</body></html>',
  ].join('\n');
  return { subject, text, html };
}
