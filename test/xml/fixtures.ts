import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { invoiceSchema, type Invoice } from '../../src/invoice/model.js';

/** The fixture invoices of test/fixtures/invoices, in the form the domain sees them (schema-parsed). */

const fixtureDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../fixtures/invoices');

export interface InvoiceFixture {
  name: string;
  invoice: Invoice;
}

export const invoiceFixtures: readonly InvoiceFixture[] = readdirSync(fixtureDir)
  .filter((file) => file.endsWith('.json'))
  .sort()
  .map((file) => ({
    name: file.replace(/\.json$/, ''),
    invoice: invoiceSchema.parse(JSON.parse(readFileSync(path.join(fixtureDir, file), 'utf8'))),
  }));

export function invoiceFixture(name: string): Invoice {
  const found = invoiceFixtures.find((f) => f.name === name);
  if (!found) throw new Error(`no fixture ${name}`);
  return found.invoice;
}
