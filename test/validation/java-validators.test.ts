import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { mustangAvailable, mustangJar, runMustang, runVeraPdf, veraPdfAvailable, repoRoot } from '../support/java-validators.js';
import { fixture, fixtureDir, FIXTURES, replaceOnce } from './fixtures.js';

const scratch = mkdtempSync(path.join(tmpdir(), 'java-validators-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

if (!mustangAvailable())
  console.log(`java-validators: ${mustangJar} not present, Mustang checks skipped (run scripts/setup-validators.sh --judges)`);
if (!veraPdfAvailable()) console.log('java-validators: veraPDF not present, PDF/A checks skipped (run scripts/setup-validators.sh)');

describe.runIf(mustangAvailable())('Mustang CLI as judge', () => {
  it.each(Object.values(FIXTURES))('confirms that our fixture %s is valid', { timeout: 120_000 }, async (name) => {
    const verdict = await runMustang(path.join(fixtureDir, name));
    expect(verdict.messages.filter((m) => m.severity === 'error' || m.severity === 'fatal')).toEqual([]);
    expect(verdict).toMatchObject({ valid: true, xml: 'valid', exitCode: 0 });
  });

  it('reports an arithmetic error with its rule id', { timeout: 120_000 }, async () => {
    const file = path.join(scratch, 'wrong-total.cii.xml');
    writeFileSync(file, replaceOnce(fixture('cii'), '<ram:GrandTotalAmount>119.00', '<ram:GrandTotalAmount>120.00'));
    const verdict = await runMustang(file);
    expect(verdict.valid).toBe(false);
    expect(verdict.xml).toBe('invalid');
    expect(verdict.exitCode).not.toBe(0);
    expect(verdict.messages.map((m) => m.ruleId)).toContain('BR-CO-15');
  });
});

/**
 * The smallest well-formed PDF 1.4 (one empty page, correct xref offsets):
 * a real PDF that is not PDF/A, because it lacks XMP metadata and an
 * output intent.
 */
function plainPdf(): Buffer {
  const objects = [
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>',
  ];
  let body = '%PDF-1.4\n';
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(Buffer.byteLength(body));
    body += `${i + 1} 0 obj\n${o}\nendobj\n`;
  });
  const xref = Buffer.byteLength(body);
  body += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('')}`;
  body += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return Buffer.from(body, 'latin1');
}

const corpusPdfA = path.resolve(repoRoot, '../shared/corpus/zugferd-2.1/zugferd_2p1_EN16931_Einfach.pdf');

describe.runIf(veraPdfAvailable())('veraPDF as judge', () => {
  it('reports a plain PDF as not PDF/A-3b, with the failed clauses', { timeout: 300_000 }, async () => {
    const file = path.join(scratch, 'plain.pdf');
    writeFileSync(file, plainPdf());
    const [verdict] = await runVeraPdf([file]);
    expect(verdict).toMatchObject({ file, compliant: false, profileName: expect.stringContaining('PDF/A-3B') });
    expect(verdict?.failedRules.length).toBeGreaterThan(0);
    // Missing XMP metadata is a violation of ISO 19005-3 clause 6.6.2.1.
    expect(verdict?.failedRules.map((r) => r.clause)).toContain('6.6.2.1');
  });

  it.runIf(existsSync(corpusPdfA))('judges a corpus Factur-X PDF and a plain PDF in one batch', { timeout: 300_000 }, async () => {
    const plain = path.join(scratch, 'plain-batch.pdf');
    writeFileSync(plain, plainPdf());
    const verdicts = await runVeraPdf([corpusPdfA, plain]);
    expect(verdicts.map((v) => [path.basename(v.file), v.compliant])).toEqual([
      ['zugferd_2p1_EN16931_Einfach.pdf', true],
      ['plain-batch.pdf', false],
    ]);
  });
});
