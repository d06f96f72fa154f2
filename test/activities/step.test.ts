import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { MockActivityEnvironment } from '@temporalio/testing';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../activities/deps.js';
import type { zugferdActivities as ZugferdActivities } from '../../activities/zugferd.js';
import { BlobStore } from '../../src/storage/blob-store.js';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { samplePdf } from '../pdf/sample-pdf.js';
import { invoiceFixture } from '../xml/fixtures.js';

/**
 * Item 3 of issue 15: a step that runs twice (its worker died after it wrote its result, before
 * Temporal heard of it) must not leave two results. The build is run twice as Temporal would run
 * a retry, with the same workflow, activity id and first scheduling time: it must give the same
 * bytes under the same blob key, written once; a build scheduled at another time is another
 * document (the time is the only input besides the content).
 */

// The compiled activities: they parse PDFs in a worker thread that exists only as dist/…/worker.js.
const { zugferdActivities } = (await import(path.join(import.meta.dirname, '../../dist/activities/zugferd.js'))) as {
  zugferdActivities: typeof ZugferdActivities;
};

const ctx = { requestId: 'r-1', accountId: 'acc-1', source: { kind: 'request' as const, requestId: 'r-1' } };
let dataDir: string;
let blobs: BlobStore;

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'einvoice-step-'));
  blobs = new BlobStore(dataDir);
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

const attempt = (scheduledTimestampMs: number, attemptNo: number) =>
  new MockActivityEnvironment({
    workflowExecution: { workflowId: 'createZugferdFromJson-key-abc', runId: 'run-1' },
    activityId: '4',
    scheduledTimestampMs,
    attempt: attemptNo,
  });

async function blobFiles(): Promise<string[]> {
  const entries = await readdir(path.join(dataDir, 'blobs'), { recursive: true, withFileTypes: true });
  return entries.filter((e) => e.isFile() && !e.parentPath.endsWith('tmp')).map((e) => e.name);
}

describe('a retried build step (content-addressed write, the step time)', () => {
  it('buildZugferdPdf run twice (Ghostscript conversion and embedding): the same bytes, one blob', { timeout: 120_000 }, async () => {
    const invoice = invoiceFixture('01-standard-19');
    const pdfBlobKey = (await blobs.put(await samplePdf(invoice))).key;
    const xmlBlobKey = (await blobs.put(Buffer.from(writeInvoiceXml(invoice, { profile: 'EN16931' })))).key;
    const activities = zugferdActivities({ blobs, log: pino({ level: 'silent' }) } as unknown as ActivityDeps);
    const input = { ctx, pdfBlobKey, xmlBlobKey, convert: 'auto' as const };
    const before = await blobFiles();

    const first = await attempt(1_750_000_000_000, 1).run(activities.buildZugferdPdf, input);
    const retry = await attempt(1_750_000_000_000, 2).run(activities.buildZugferdPdf, input);
    expect(first.converted).toBe(true);
    expect(retry.pdfBlobKey).toBe(first.pdfBlobKey);
    expect(await blobFiles()).toHaveLength(before.length + 1);

    const later = await attempt(1_750_000_100_000, 1).run(activities.buildZugferdPdf, input);
    expect(later.pdfBlobKey).not.toBe(first.pdfBlobKey);
    const [a, b] = [await blobs.get(first.pdfBlobKey), await blobs.get(later.pdfBlobKey)];
    expect(a.includes('2025-06-15T15:06:40')).toBe(true);
    expect(b.includes('2025-06-15T15:08:20')).toBe(true);
  });
});
