import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/validation');

export const FIXTURES = {
  cii: 'xrechnung-minimal.cii.xml',
  ubl: 'xrechnung-minimal.ubl.xml',
  ublCreditNote: 'xrechnung-minimal-creditnote.ubl.xml',
} as const;

export function fixture(name: keyof typeof FIXTURES): string {
  return readFileSync(path.join(fixtureDir, FIXTURES[name]), 'utf8');
}

/** Replaces exactly one occurrence, so a fixture edit cannot silently miss. */
export function replaceOnce(xml: string, search: string, replacement: string): string {
  const at = xml.indexOf(search);
  if (at < 0 || xml.indexOf(search, at + 1) >= 0) throw new Error(`expected exactly one occurrence of ${search}`);
  return xml.slice(0, at) + replacement + xml.slice(at + search.length);
}
