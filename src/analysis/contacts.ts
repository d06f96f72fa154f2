import { lineText, type Doc } from './document.js';

/**
 * The seller's telephone (BT-42) and e-mail (BT-43): printed in the seller's block, the
 * letterhead or the footer. An e-mail address needs no label; a telephone number does, since
 * a string of digits could be anything. Whose they are is decided by the caller from where
 * they stand (a contact inside the buyer's block is the buyer's).
 */

export interface ContactFound {
  kind: 'phone' | 'email';
  value: string;
  page: number;
  y: number;
}

/** "Telefon : +49 89 1234567", "Tel. 089/12345", "Phone: (555) 123-4567"; digits end at a double space. */
const PHONE = /(?<![\p{L}])(?:tel(?:efon|ephone|éphone)?|phone|fon|tél)\.?\s*(?:nr\.?)?\s*:?\s*(\+?\(?\d(?:[\d()/.-]| (?=[\d(]))+\d)/giu;
const EMAIL = /[A-Za-z0-9._%+-]+@[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.[A-Za-z]{2,}/g;

export function findContacts(doc: Doc): ContactFound[] {
  const out: ContactFound[] = [];
  for (const page of doc.pages) {
    for (const line of page.lines) {
      const text = lineText(line);
      for (const m of text.matchAll(EMAIL)) out.push({ kind: 'email', value: m[0], page: page.page, y: line.top });
      for (const m of text.matchAll(PHONE))
        if (m[1]!.replace(/\D/g, '').length >= 6) out.push({ kind: 'phone', value: m[1]!, page: page.page, y: line.top });
    }
  }
  return out;
}
