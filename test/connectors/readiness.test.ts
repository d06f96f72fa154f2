import { describe, expect, it } from 'vitest';
import { contentHash } from '../../connectors/identity.js';
import { jobId } from '../../src/jobs/intake/job.js';
import { donePath, numbered, reportNames, resultName } from '../../connectors/names.js';
import { completeFiles, lookOf, nameFilter } from '../../connectors/readiness.js';
import type { SourceEntry } from '../../connectors/sources/source.js';

const entry = (name: string, size: number, modifiedMs: number, version?: string): SourceEntry => ({
  path: `in/${name}`,
  name,
  size,
  modifiedMs,
  ...(version ? { version } : {}),
});
const all = () => true;

describe('when a dropped file may be taken', () => {
  it('takes a file only once it looked the same twice and is older than the minimum age', () => {
    const first = [entry('a.pdf', 100, 1_000), entry('b.pdf', 100, 1_000)];
    expect(completeFiles(lookOf([]), first, 60_000, 10_000, all)).toEqual([]);
    // b.pdf is still growing; a.pdf is unchanged and old enough.
    const second = [entry('a.pdf', 100, 1_000), entry('b.pdf', 250, 55_000)];
    expect(completeFiles(lookOf(first), second, 60_000, 10_000, all).map((e) => e.name)).toEqual(['a.pdf']);
    // Unchanged but written 5 s ago: not yet.
    expect(completeFiles(lookOf(second), second, 60_000, 10_000, all).map((e) => e.name)).toEqual(['a.pdf']);
    expect(completeFiles(lookOf(second), second, 66_000, 10_000, all).map((e) => e.name)).toEqual(['a.pdf', 'b.pdf']);
  });

  it("sees a rewrite with equal size and time through the backend's version tag", () => {
    expect(completeFiles(lookOf([entry('a.pdf', 100, 1_000, 'etag1')]), [entry('a.pdf', 100, 1_000, 'etag2')], 60_000, 0, all)).toEqual([]);
  });

  it("never takes temporary names, and matches the route's glob without regard to case", () => {
    const files = ['.a.pdf', 'b.pdf.part', 'c.tmp', 'SCAN_0001.PDF', 'notes.txt', 'photo.jpg'].map((n) => entry(n, 1, 0));
    const pdfOrImage = nameFilter('*.{pdf,jpg}');
    expect(completeFiles(lookOf(files), files, 60_000, 0, pdfOrImage).map((e) => e.name)).toEqual(['SCAN_0001.PDF', 'photo.jpg']);
  });
});

describe('names of results', () => {
  it('names results and reports after the input', () => {
    expect(resultName('createZugferdFromPdf', 'invoice.pdf')).toBe('invoice-zugferd.pdf');
    expect(resultName('createXinvoiceFromJson', 'RE-2024-1.json')).toBe('RE-2024-1.xml');
    expect(resultName('createJSONFromAnalysedPdf', 'scan.tiff')).toBe('scan.json');
    expect(resultName('validate', 'x.xml')).toBeUndefined();
    expect(reportNames('invoice.pdf')).toEqual({ json: 'invoice.report.json', text: 'invoice.report.txt' });
  });

  it('files inputs by day and numbers a name that is taken', () => {
    expect(donePath('done', new Date('2026-11-25T23:30:00Z'), 'invoice.pdf')).toBe('done/2026-11-25/invoice.pdf');
    expect(numbered('done/2026-11-25/invoice.pdf', 2)).toBe('done/2026-11-25/invoice (2).pdf');
    expect(numbered('error/README', 3)).toBe('error/README (3)');
  });

  it('gives the same content on the same route one job id, and another route or content another', () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 …');
    const id = (route: string, content: Uint8Array) => jobId({ kind: 'connector', route, file: 'in/x.pdf', hash: contentHash(content) });
    expect(id('copier', pdf)).toBe(id('copier', pdf.slice()));
    expect(id('copier', pdf)).not.toBe(id('scanner', pdf));
    expect(id('copier', pdf)).not.toBe(id('copier', new TextEncoder().encode('%PDF-1.7 …!')));
    expect(id('copier', pdf)).toMatch(/^copier-[0-9a-f]{32}$/);
  });
});
