import { domainToASCII } from 'node:url';
import type { MailAddress } from './types.js';

/**
 * E-mail addresses as the transport object gives them: comma-separated lists (a semicolon,
 * as Outlook writes them, works too) of `address`, `Name <address>` or `"Last, First" <address>`.
 *
 * Parsing is strict on purpose: a lenient parser turns `a@x.de b@y.de` into one recipient
 * named "b@y.de" and silently drops the second. Anything that is not clearly a list of
 * addresses is refused with a message naming the offending entry.
 */

/** CR and LF would start a new header line (header injection); other controls have no place in a header either. */
const CONTROL = /[\u0000-\u001f\u007f]/;

export function hasControlCharacters(text: string): boolean {
  return CONTROL.test(text);
}

/**
 * An RFC 2047 encoded word (`=?utf-8?b?…?=`). Sent as plain text in a header it would be decoded
 * by the receiving mail program, so a display name or subject could say anything, a forged
 * sender included; values are encoded by the mailer when they need it, never by the client.
 */
const ENCODED_WORD = /=\?[^?\s]*\?[bq]\?[^?]*\?=/i;

export function hasEncodedWord(text: string): boolean {
  return ENCODED_WORD.test(text);
}

// RFC 5322 dot-atom local part. Quoted local parts ("a b"@x.de) are legal but practically
// unused for invoices and a classic source of parser disagreement, so they are refused.
const LOCAL_PART = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
const DOMAIN_LABEL = /^(?!-)[a-z0-9-]{1,63}(?<!-)$/;
const TOP_LEVEL = /^([a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

const MAX_ADDRESS = 254;
const MAX_NAME = 200;

export type ParseResult<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Validates one bare address and normalises its domain (lower case, internationalised names
 * in their ASCII form). No IP literals, no single-label hosts: mail to an invoice recipient
 * goes to a real domain.
 */
export function parseAddress(text: string): ParseResult<string> {
  const at = text.lastIndexOf('@');
  if (at <= 0 || at === text.length - 1) return fail(text, 'is not an e-mail address');
  const local = text.slice(0, at);
  const domain = domainToASCII(text.slice(at + 1).toLowerCase());
  if (local.length > 64 || !LOCAL_PART.test(local)) return fail(text, 'has an invalid part before the @');
  const labels = domain.split('.');
  if (
    !domain ||
    domain.length > 253 ||
    labels.length < 2 ||
    !labels.every((l) => DOMAIN_LABEL.test(l)) ||
    !TOP_LEVEL.test(labels.at(-1)!)
  ) {
    return fail(text, 'has an invalid domain');
  }
  const address = `${local}@${domain}`;
  if (address.length > MAX_ADDRESS) return fail(text, `is longer than ${MAX_ADDRESS} characters`);
  return { ok: true, value: address };
}

/** A comma- or semicolon-separated list; empty entries (a trailing comma) are ignored. */
export function parseAddressList(text: string): ParseResult<MailAddress[]> {
  if (hasControlCharacters(text)) return { ok: false, error: 'must not contain line breaks or control characters' };
  const entries = splitList(text);
  if (!entries.ok) return entries;
  const result: MailAddress[] = [];
  for (const entry of entries.value) {
    const parsed = parseMailbox(entry);
    if (!parsed.ok) return parsed;
    result.push(parsed.value);
  }
  return { ok: true, value: result };
}

/** `address`, `Name <address>` or `"Quoted name" <address>`. */
function parseMailbox(entry: string): ParseResult<MailAddress> {
  const angled = /^(.*?)\s*<([^<>]*)>$/s.exec(entry);
  const rawName = angled ? angled[1]!.trim() : '';
  const rawAddress = angled ? angled[2]!.trim() : entry;
  if (!angled && /[\s<>"]/.test(entry)) return fail(entry, 'is not an e-mail address (separate several addresses with commas)');
  const name = unquote(rawName);
  if (name === undefined) return fail(entry, 'has a display name with unbalanced quotes or angle brackets');
  if (hasEncodedWord(name))
    return fail(entry, 'has an RFC 2047 encoded word (=?…?=) in its display name; send the name itself, it is encoded as needed');
  if (name.length > MAX_NAME) return fail(entry, `has a display name longer than ${MAX_NAME} characters`);
  const address = parseAddress(rawAddress);
  return address.ok ? { ok: true, value: { address: address.value, name } } : address;
}

function unquote(name: string): string | undefined {
  if (name.startsWith('"')) {
    if (name.length < 2 || !name.endsWith('"')) return undefined;
    return name.slice(1, -1).replace(/\\(.)/g, '$1');
  }
  return /[<>"]/.test(name) ? undefined : name;
}

/** Splits on `,` and `;` outside quoted names and angle brackets. */
function splitList(text: string): ParseResult<string[]> {
  const entries: string[] = [];
  let current = '';
  let quoted = false;
  let angled = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted && c === '\\' && i + 1 < text.length) {
      current += c + text[++i]!;
      continue;
    }
    if (c === '"' && !angled) quoted = !quoted;
    else if (c === '<' && !quoted) angled = true;
    else if (c === '>' && !quoted) angled = false;
    else if ((c === ',' || c === ';') && !quoted && !angled) {
      entries.push(current);
      current = '';
      continue;
    }
    current += c;
  }
  if (quoted || angled) return { ok: false, error: 'has an unclosed quote or angle bracket' };
  entries.push(current);
  return { ok: true, value: entries.map((e) => e.trim()).filter((e) => e !== '') };
}

function fail<T>(entry: string, problem: string): ParseResult<T> {
  return { ok: false, error: `"${entry.length > 80 ? `${entry.slice(0, 77)}...` : entry}" ${problem}` };
}

/** The domain part of a normalised address. */
export function domainOf(address: string): string {
  return address.slice(address.lastIndexOf('@') + 1);
}
