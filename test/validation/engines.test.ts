import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { MUTATIONS, NotApplicable } from '../../scripts/lib/mutations.js';
import { validateInvoiceXml, type ValidationReport } from '../../src/validation/index.js';
import { SaxonHe, saxonHeHome, SchematronProcessingError } from '../../src/validation/saxon-he.js';
import { saxonHePid, stopSaxonHe, useSaxonHe } from '../../src/validation/schematron.js';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { fixture } from './fixtures.js';

/**
 * The worker applies the official schematrons in Saxon-HE on a JVM, short-lived callers in
 * SaxonJS: both must give the same report, finding by finding, on valid documents, on every
 * mutation that breaks a rule, and on the Factur-X profiles.
 */

const home = saxonHeHome();
const dir = mkdtempSync(path.join(tmpdir(), 'saxon-he-'));
afterAll(async () => {
  await stopSaxonHe();
  rmSync(dir, { recursive: true, force: true });
});

function documents(): Array<[string, string]> {
  const bases: Array<[string, string, 'cii' | 'ubl']> = [
    ['cii', fixture('cii'), 'cii'],
    ['ubl', fixture('ubl'), 'ubl'],
    ['ubl credit note', fixture('ublCreditNote'), 'ubl'],
  ];
  const out: Array<[string, string]> = bases.map(([name, xml]) => [name, xml]);
  for (const m of MUTATIONS.filter((m) => (m.bases ?? 'standard') === 'standard')) {
    for (const [name, xml, syntax] of bases) {
      const edit = m[syntax];
      if (!edit || (m.invoicesOnly && name.includes('credit'))) continue;
      try {
        out.push([`${name}: ${m.id}`, edit(xml)]);
      } catch (err) {
        if (!(err instanceof NotApplicable)) throw err;
      }
    }
  }
  for (const profile of ['MINIMUM', 'BASICWL', 'BASIC', 'EN16931', 'EXTENDED'] as const)
    out.push([`Factur-X ${profile}`, writeInvoiceXml(invoiceFixture('08-allowances-charges-mixed-vat'), { profile })]);
  return out;
}

describe.runIf(home)('Saxon-HE on a JVM', () => {
  it('reports exactly what SaxonJS reports', { timeout: 600_000 }, async () => {
    const docs = documents();
    expect(docs.length).toBeGreaterThan(100);
    const inProcess: ValidationReport[] = [];
    for (const [, xml] of docs) inProcess.push(await validateInvoiceXml(xml));
    expect(useSaxonHe()).toBe(true);
    try {
      const onJvm = await Promise.all(docs.map(([, xml]) => validateInvoiceXml(xml)));
      expect(saxonHePid()).toBeDefined();
      docs.forEach(([name], i) => expect(onJvm[i], name).toEqual(inProcess[i]));
      // The mutations do break rules: the comparison is not one of empty reports.
      expect(inProcess.filter((r) => r.findings.some((f) => f.source === 'en16931' || f.source === 'xrechnung')).length).toBeGreaterThan(
        50,
      );
    } finally {
      await stopSaxonHe();
    }
  });

  it('starts a new JVM after one was killed', { timeout: 120_000 }, async () => {
    useSaxonHe();
    try {
      expect((await validateInvoiceXml(fixture('cii'))).valid).toBe(true);
      const first = saxonHePid()!;
      process.kill(first, 'SIGKILL');
      await expect.poll(() => saxonHePid(), { timeout: 10_000 }).toBeUndefined();
      expect((await validateInvoiceXml(fixture('cii'))).valid).toBe(true);
      expect(saxonHePid()).not.toBe(first);
    } finally {
      await stopSaxonHe();
    }
  });

  it('tells a dynamic error of a stylesheet, a timeout and an unknown rule set apart', { timeout: 120_000 }, async () => {
    const stylesheet = (name: string, body: string) => {
      const file = path.join(dir, `${name}.xslt`);
      writeFileSync(file, `<xsl:stylesheet version="3.0" xmlns:xsl="http://www.w3.org/1999/XSL/Transform">${body}</xsl:stylesheet>`);
      return file;
    };
    const stylesheets = {
      fails: stylesheet('fails', `<xsl:template match="/"><xsl:sequence select="error((), 'broken rule')"/></xsl:template>`),
      // Endless: (2^31 - 1)² iterations (Saxon caps a sequence at 2^31 - 1).
      loops: stylesheet(
        'loops',
        `<xsl:template match="/"><xsl:iterate select="1 to 2147483647"><xsl:iterate select="1 to 2147483647"><xsl:next-iteration/></xsl:iterate><xsl:next-iteration/></xsl:iterate></xsl:template>`,
      ),
    };
    // The time limit covers the JVM's start too: generous where only the answer matters.
    const patient = new SaxonHe(home!, { stylesheets, timeoutMs: 60_000, maxHeapMb: 128, threads: 2 });
    const hasty = new SaxonHe(home!, { stylesheets, timeoutMs: 8_000, maxHeapMb: 128, threads: 2 });
    try {
      await expect(patient.entries('fails', '<x/>')).rejects.toThrow(SchematronProcessingError);
      await expect(patient.entries('fails', '<x/>')).rejects.toThrow(/broken rule/);
      await expect(patient.entries('unknown', '<x/>')).rejects.toThrow(/unknown rule set/);
      await expect(patient.entries('fails', '<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>')).rejects.toThrow(/DOCTYPE/);
      await expect(hasty.entries('loops', '<x/>')).rejects.toThrow(/within 8 s/);
      expect(hasty.pid).toBeUndefined();
      // The next request gets a fresh JVM.
      await expect(hasty.entries('fails', '<x/>')).rejects.toThrow(SchematronProcessingError);
      expect(hasty.pid).toBeDefined();
    } finally {
      await patient.stop();
      await hasty.stop();
    }
  });
});
