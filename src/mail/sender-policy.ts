import { domainToASCII } from 'node:url';
import { domainOf, parseAddress, type ParseResult } from './address.js';

/**
 * Which sender addresses an account may use, as rules the operator manages with the accounts
 * CLI. A rule is one of:
 *
 *   billing@acme.example   exactly this address
 *   acme.example           any address at this domain (not its subdomains)
 *   *                      any address (the operator vouches for the account)
 *
 * An account without rules may send from no address: mail goes out under the operator's
 * name and reputation, so the safe default is to refuse until the operator says otherwise.
 */

export const ANY_SENDER = '*';

/** Normalises a rule as the operator typed it (lower case, IDN in ASCII), or says what is wrong with it. */
export function parseSenderRule(text: string): ParseResult<string> {
  const rule = text.trim().toLowerCase();
  if (rule === ANY_SENDER) return { ok: true, value: rule };
  if (rule.includes('@')) return parseAddress(rule);
  // A domain is checked as the domain of a made-up address, so both follow the same rules.
  const domain = parseAddress(`postmaster@${domainToASCII(rule)}`);
  return domain.ok
    ? { ok: true, value: domainOf(domain.value) }
    : { ok: false, error: `"${text.trim()}" is neither an e-mail address, a domain nor *` };
}

/** `address` is a normalised address (see parseAddress); rules are normalised rules. */
export function senderAllowed(rules: readonly string[], address: string): boolean {
  const normalised = address.toLowerCase();
  return rules.some((rule) => rule === ANY_SENDER || rule === normalised || rule === domainOf(normalised));
}
