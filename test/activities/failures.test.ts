import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { ApplicationFailure } from '@temporalio/activity';
import { MockActivityEnvironment } from '@temporalio/testing';
import { DefaultLogger } from '@temporalio/worker';
import pino from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ActivityDeps } from '../../activities/deps.js';
import { xrechnungActivities } from '../../activities/xrechnung.js';
import type { zugferdActivities as ZugferdActivities } from '../../activities/zugferd.js';
import { BlobStore } from '../../src/storage/blob-store.js';
import { writeInvoiceXml } from '../../src/xml/index.js';
import { samplePdf } from '../pdf/sample-pdf.js';
import { invoiceFixture } from '../xml/fixtures.js';

/**
 * How activities fail: a problem of the input is a non-retryable ApplicationFailure whose type is
 * the API's error code (the workflow maps it to the answer); anything else stays a plain error,
 * which Temporal retries.
 */

// The compiled activities: they parse PDFs in a worker thread that exists only as dist/…/worker.js.
const { zugferdActivities } = (await import(path.join(import.meta.dirname, '../../dist/activities/zugferd.js'))) as {
  zugferdActivities: typeof ZugferdActivities;
};

const ctx = { requestId: 'r-1', accountId: 'acc-1', source: { kind: 'request' as const, requestId: 'r-1' } };
let dataDir: string;
let blobs: BlobStore;
let deps: ActivityDeps;
// The SDK logs every failed activity at WARN; these failures are the point of the test.
const quiet = new DefaultLogger('ERROR');
const env = () =>
  new MockActivityEnvironment({ workflowExecution: { workflowId: 'wf-1', runId: 'run-1' }, activityId: '1' }, { logger: quiet });

beforeAll(async () => {
  dataDir = await mkdtemp(path.join(tmpdir(), 'einvoice-failures-'));
  blobs = new BlobStore(dataDir);
  deps = { blobs, log: pino({ level: 'silent' }) } as unknown as ActivityDeps;
});
afterAll(() => rm(dataDir, { recursive: true, force: true }));

async function failureOf(run: Promise<unknown>): Promise<ApplicationFailure> {
  const err = await run.then(
    () => undefined,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return err as ApplicationFailure;
}

const put = async (bytes: Uint8Array | string) => (await blobs.put(typeof bytes === 'string' ? Buffer.from(bytes) : bytes)).key;

describe('activity failures', () => {
  it('an unreadable PDF, an XML that is not CII and a PDF without invoice XML fail for good, named', { timeout: 120_000 }, async () => {
    const activities = zugferdActivities(deps);
    const invoice = invoiceFixture('01-standard-19');
    const cii = await put(writeInvoiceXml(invoice, { profile: 'EN16931' }));
    const garbage = await failureOf(
      env().run(activities.buildZugferdPdf, { ctx, pdfBlobKey: await put('not a pdf at all'), xmlBlobKey: cii, convert: 'auto' }),
    );
    expect([garbage.type, garbage.nonRetryable]).toEqual(['PDF_UNREADABLE', true]);
    const pdf = await put(await samplePdf(invoice));
    const ubl = await failureOf(
      env().run(activities.buildZugferdPdf, {
        ctx,
        pdfBlobKey: pdf,
        xmlBlobKey: await put(writeInvoiceXml(invoice, { syntax: 'UBL' })),
        convert: 'auto',
      }),
    );
    expect([ubl.type, ubl.nonRetryable]).toEqual(['XML_NOT_ZUGFERD', true]);
    const plain = await failureOf(env().run(activities.extractZugferdInvoice, { ctx, pdfBlobKey: pdf }));
    expect([plain.type, plain.nonRetryable]).toEqual(['INVOICE_XML_MISSING', true]);
  });

  it('a stored invoice that does not match the model fails for good; a missing blob is retried', async () => {
    const activities = xrechnungActivities(deps);
    const invalid = await failureOf(
      env().run(activities.buildInvoiceXml, { ctx, invoiceBlobKey: await put(JSON.stringify({ invoiceNumber: 42 })), syntax: 'CII' }),
    );
    expect([invalid.type, invalid.nonRetryable]).toEqual(['VALIDATION_ERROR', true]);
    const gone = await env()
      .run(activities.validateInvoiceXml, { ctx, xmlBlobKey: '00000000-0000-4000-8000-000000000000' })
      .catch((e: unknown) => e);
    expect(gone).not.toBeInstanceOf(ApplicationFailure);
    expect((gone as Error).message).toMatch(/Blob not found/);
  });
});
