import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { invoiceSchema } from '../../src/invoice/model.js';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { samplePdf } from './sample-pdf.js';

// The thread runs dist/src/pdf/worker.js, so this tests the build (scripts/setup.sh makes it).
const { idleThreads, runIsolated } = (await import(
  path.join(repoRoot, 'dist/src/pdf/isolate.js')
)) as typeof import('../../src/pdf/isolate.js');

const invoice = invoiceSchema.parse(JSON.parse(readFileSync(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8')));
const limits = { timeoutMs: 30_000, maxHeapMb: 256 };

describe('runIsolated: PDF work in pooled worker threads', () => {
  it('reuses a thread that answered, also after a file it refused, for the next task', async () => {
    const pdf = await samplePdf(invoice);
    const first = await runIsolated('inspect', { bytes: pdf, withText: true }, limits);
    expect(first.text).toContain(invoice.invoiceNumber);
    expect(idleThreads()).toBe(1);
    await expect(runIsolated('inspect', { bytes: new TextEncoder().encode('not a pdf'), withText: false }, limits)).rejects.toMatchObject({
      name: 'PdfInputError',
    });
    expect(idleThreads()).toBe(1);
    const again = await runIsolated('inspect', { bytes: pdf, withText: true }, limits);
    expect(again.text).toBe(first.text);
    expect(idleThreads()).toBe(1);
  });

  it('ends a thread that ran out of time instead of pooling it, and answers with a clear error', async () => {
    const pdf = await samplePdf(invoice, { pages: 30 });
    const before = idleThreads();
    // No pooled thread of this heap size exists, so the task starts a thread, which cannot load pdf.js in 5 ms.
    await expect(runIsolated('inspect', { bytes: pdf, withText: true }, { timeoutMs: 5, maxHeapMb: 192 })).rejects.toThrow(
      /took longer than/,
    );
    expect(idleThreads()).toBe(before);
  });
});
