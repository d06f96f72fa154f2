import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { invoiceSchema } from '../../src/invoice/model.js';
import { DEFAULT_VERAPDF_POOL, VeraPdfPool, checkPdfA3b, resultFromReport, stopVeraPdf, veraPdfPoolStats } from '../../src/pdf/verapdf.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../../src/render/index.js';
import { invoiceFixture } from '../xml/fixtures.js';
import { repoRoot, veraPdfAvailable } from '../support/java-validators.js';
import { samplePdf } from './sample-pdf.js';

/**
 * The long-lived veraPDF processes behind checkPdfA3b (veraPDF's CLI in --servermode): verdicts,
 * files it cannot read, timeouts and crashes that cost one request and not the pool, and
 * requests queued when every process is busy.
 */

const home = path.join(repoRoot, '.tools', 'java', 'verapdf');
const artefact = { name: 'veraPDF PDF/A-3B', version: '1.28.2' };

describe('resultFromReport', () => {
  const rule = (clause: string, testNumber: number, failedChecks = 1) => ({
    specification: 'ISO 19005-3:2012',
    clause,
    testNumber,
    description: `rule ${clause}`,
    failedChecks,
  });
  const report = (job: object) => JSON.stringify({ report: { jobs: [job] } });

  it('lists failed rules by clause and test, whatever order veraPDF gave them in', () => {
    const result = resultFromReport(
      report({
        validationResult: [
          {
            compliant: false,
            profileName: 'PDF/A-3B',
            details: {
              ruleSummaries: [
                rule('6.8', 1),
                rule('6.2.11.5', 1, 3),
                rule('6.2.11.4.1', 2),
                rule('6.2.11.4.1', 1),
                rule('6.10', 1),
                rule('6.1.3', 1),
              ],
            },
          },
        ],
      }),
      artefact,
    );
    expect(result.compliant).toBe(false);
    expect(result.findings.map((f) => f.ruleId)).toEqual([
      'PDFA-6.1.3-1',
      'PDFA-6.2.11.4.1-1',
      'PDFA-6.2.11.4.1-2',
      'PDFA-6.2.11.5-1',
      'PDFA-6.8-1',
      'PDFA-6.10-1',
    ]);
    expect(result.findings[3]).toEqual({
      ruleId: 'PDFA-6.2.11.5-1',
      severity: 'error',
      message: 'ISO 19005-3:2012 6.2.11.5 (test 1): rule 6.2.11.5 (3 failed checks)',
      source: 'pdf',
    });
  });

  it('a file veraPDF could not parse is unreadable; a report without the file is a failure', () => {
    expect(resultFromReport(report({ taskException: { exceptionMessage: "Exception: Couldn't parse stream" } }), artefact)).toEqual({
      compliant: false,
      artefact,
      findings: [
        {
          ruleId: 'PDFA-UNREADABLE',
          severity: 'fatal',
          message: "PDF/A validation failed: Exception: Couldn't parse stream",
          source: 'pdf',
        },
      ],
    });
    expect(() => resultFromReport(JSON.stringify({ report: { jobs: [] } }), artefact)).toThrow(/names no file/);
  });
});

describe.runIf(veraPdfAvailable())('veraPDF pool', () => {
  let pdfa: Uint8Array;
  let plain: Uint8Array;
  const pools: VeraPdfPool[] = [];
  const pool = (opts: Partial<typeof DEFAULT_VERAPDF_POOL> = {}) => {
    const p = new VeraPdfPool(home, { ...DEFAULT_VERAPDF_POOL, ...opts });
    pools.push(p);
    return p;
  };
  const verdict = async (p: VeraPdfPool, bytes: Uint8Array) => resultFromReport(await p.validate(bytes), artefact);

  beforeAll(async () => {
    const fixture = JSON.parse(readFileSync(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8'));
    const roots = templateRoots(path.join(tmpdir(), 'no-operator-templates'));
    // What createInvoicePdfFromJson renders is PDF/A-3b without Ghostscript.
    pdfa = (
      await renderInvoicePdf(invoiceSchema.parse(fixture), await loadTemplate(roots, 'en-standard'), {
        created: new Date('2025-03-03T10:00:00Z'),
        fileId: '0123456789abcdef0123456789abcdef',
      })
    ).pdf;
    plain = await samplePdf(invoiceFixture('01-standard-19'));
  });

  afterAll(async () => {
    await stopVeraPdf();
    await Promise.all(pools.map((p) => p.stop()));
  });

  it('checkPdfA3b: a PDF/A-3b is compliant, a plain PDF is not, and both run in one process', async () => {
    const good = await checkPdfA3b(pdfa);
    expect(good).toEqual({ compliant: true, findings: [], artefact });
    const bad = await checkPdfA3b(plain);
    expect(bad?.compliant).toBe(false);
    expect(bad?.findings.map((f) => f.ruleId)).toEqual(expect.arrayContaining(['PDFA-6.2.11.4.1-1']));
    expect(bad?.findings.every((f) => f.severity === 'error' && f.source === 'pdf' && /failed checks?\)$/.test(f.message))).toBe(true);
    expect(veraPdfPoolStats()).toMatchObject({ processes: 1, started: 1, busy: 0, waiting: 0 });
  });

  it('garbage and a truncated PDF are unreadable, not compliant, and the process goes on', async () => {
    const p = pool();
    const garbage = await verdict(
      p,
      new Uint8Array(4000).map((_, i) => (i * 7919) % 251),
    );
    expect(garbage).toMatchObject({ compliant: false, findings: [{ ruleId: 'PDFA-UNREADABLE', severity: 'fatal' }] });
    const truncated = await verdict(p, pdfa.subarray(0, Math.floor(pdfa.length / 2)));
    expect(truncated).toMatchObject({ compliant: false, findings: [{ ruleId: 'PDFA-UNREADABLE', severity: 'fatal' }] });
    expect(truncated.findings[0]!.message).toMatch(/^PDF\/A validation failed: /);
    expect(await verdict(p, new Uint8Array())).toMatchObject({ findings: [{ ruleId: 'PDFA-UNREADABLE' }] });
    expect((await verdict(p, pdfa)).compliant).toBe(true);
    expect(p.stats()).toMatchObject({ processes: 1, started: 1 });
  });

  it('a request over its time limit fails alone; its process is replaced', async () => {
    const p = pool();
    expect((await verdict(p, pdfa)).compliant).toBe(true);
    const [first] = p.stats().pids;
    await expect(p.validate(plain, 5)).rejects.toThrow(/timed out/);
    expect(p.stats()).toMatchObject({ processes: 0, busy: 0, pids: [] });
    expect(() => process.kill(first!, 0)).toThrow(); // the JVM is gone
    expect((await verdict(p, pdfa)).compliant).toBe(true);
    expect(p.stats()).toMatchObject({ processes: 1, started: 2 });
  });

  it('a process that died while idle is replaced without failing the next request', async () => {
    const p = pool();
    expect((await verdict(p, pdfa)).compliant).toBe(true);
    const [pid] = p.stats().pids;
    process.kill(pid!, 'SIGKILL');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await verdict(p, plain)).compliant).toBe(false);
    expect(p.stats()).toMatchObject({ processes: 1, started: 2 });
  });

  it('answers concurrent requests, each with its own verdict, queued on the pool size', async () => {
    const p = pool({ size: 2 });
    const files = [pdfa, plain, pdfa, new Uint8Array([1, 2, 3]), plain, pdfa, pdfa, plain];
    const results = await Promise.all(files.map((f) => verdict(p, f)));
    expect(results.map((r) => (r.findings[0]?.ruleId === 'PDFA-UNREADABLE' ? 'unreadable' : r.compliant))).toEqual([
      true,
      false,
      true,
      'unreadable',
      false,
      true,
      true,
      false,
    ]);
    expect(p.stats()).toMatchObject({ processes: 2, started: 2, busy: 0, waiting: 0 });
  });

  it('refuses work after stop', async () => {
    const p = pool();
    await p.stop();
    await expect(p.validate(pdfa)).rejects.toThrow(/shutting down/);
  });
});
