import { describe, expect, it } from 'vitest';
import { parseAddress, parseAddressList } from '../../src/mail/address.js';
import { parseSenderRule, senderAllowed } from '../../src/mail/sender-policy.js';

const list = (text: string) => {
  const r = parseAddressList(text);
  if (!r.ok) throw new Error(r.error);
  return r.value;
};
const problem = (text: string) => {
  const r = parseAddressList(text);
  if (r.ok) throw new Error(`accepted ${JSON.stringify(text)}`);
  return r.error;
};

describe('address lists', () => {
  it('reads bare addresses, display names and quoted names, separated by commas or semicolons', () => {
    expect(list('a@acme.example, Hans Müller <hans@acme.example>; "Müller, Hans" <h.mueller@acme.example>,')).toEqual([
      { address: 'a@acme.example', name: '' },
      { address: 'hans@acme.example', name: 'Hans Müller' },
      { address: 'h.mueller@acme.example', name: 'Müller, Hans' },
    ]);
    expect(list('')).toEqual([]);
    expect(list(' , ')).toEqual([]);
  });

  it('lower-cases the domain, keeps the local part, and writes internationalised domains in ASCII', () => {
    expect(list('Max.Power@ACME.Example')).toEqual([{ address: 'Max.Power@acme.example', name: '' }]);
    expect(list('info@bücher.example')[0]!.address).toBe('info@xn--bcher-kva.example');
  });

  it('refuses two addresses without a separator instead of dropping one', () => {
    expect(problem('a@acme.example b@acme.example')).toMatch(/separate several addresses with commas/);
  });

  it('refuses line breaks and control characters (header injection)', () => {
    for (const text of ['a@acme.example\r\nBcc: victim@other.example', 'a@acme.example\nX: y', 'Name\u0000 <a@acme.example>']) {
      expect(problem(text)).toMatch(/line breaks or control characters/);
    }
  });

  it('refuses what is not an address', () => {
    for (const text of [
      'no-at-sign',
      '@acme.example',
      'a@',
      'a@localhost',
      'a@127.0.0.1',
      'a@[127.0.0.1]',
      'a..b@acme.example',
      '"a b"@acme.example',
      'a@-acme.example',
      'a@acme.example>',
      'Name <a@acme.example',
      '"Unclosed <a@acme.example>',
      `${'x'.repeat(65)}@acme.example`,
    ]) {
      expect(() => list(text), text).toThrow();
    }
  });

  it('checks single addresses the same way', () => {
    expect(parseAddress('billing@acme.example')).toEqual({ ok: true, value: 'billing@acme.example' });
    expect(parseAddress('billing@acme')).toMatchObject({ ok: false });
  });
});

describe('sender rules', () => {
  it('normalises addresses, domains and the wildcard, and refuses anything else', () => {
    expect(parseSenderRule(' Billing@ACME.example ')).toEqual({ ok: true, value: 'billing@acme.example' });
    expect(parseSenderRule('ACME.example')).toEqual({ ok: true, value: 'acme.example' });
    expect(parseSenderRule('bücher.example')).toEqual({ ok: true, value: 'xn--bcher-kva.example' });
    expect(parseSenderRule('*')).toEqual({ ok: true, value: '*' });
    for (const bad of ['', '*.acme.example', 'acme', 'a b.example', 'x@']) expect(parseSenderRule(bad).ok, bad).toBe(false);
  });

  it('allows an exact address, any address of a domain (not its subdomains), or anything with *', () => {
    const rules = ['billing@acme.example', 'invoices.example'];
    expect(senderAllowed(rules, 'billing@acme.example')).toBe(true);
    expect(senderAllowed(rules, 'Billing@acme.example')).toBe(true);
    expect(senderAllowed(rules, 'ceo@acme.example')).toBe(false);
    expect(senderAllowed(rules, 'anyone@invoices.example')).toBe(true);
    expect(senderAllowed(rules, 'anyone@mail.invoices.example')).toBe(false);
    expect(senderAllowed(rules, 'anyone@evilinvoices.example')).toBe(false);
    expect(senderAllowed(['*'], 'anyone@anywhere.example')).toBe(true);
  });

  it('allows nothing without rules', () => {
    expect(senderAllowed([], 'billing@acme.example')).toBe(false);
  });
});
