import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { BuildZugferdInput } from '../../activities/zugferd.js';
import type { ConnectorFileInput, FileConnectorResultInput } from '../../connectors/file-operation.js';
import type { Invoice } from '../../src/invoice/model.js';
import type { DocumentAnalysis } from '../../src/operations/analysis.js';
import { OUTCOME } from '../../src/temporal/search-attributes.js';
import { processConnectorFile, reviewConversion } from '../../workflows/index.js';
import { correctInvoice, reviewEntry } from '../../workflows/review.js';
import { workflowTestEnvironment, type StubActivities } from './environment.js';

/**
 * A connector's refused conversion waits in the review queue (workflows/review.ts), as a workflow
 * with stubbed activities: it enters from the file's workflow, answers what was read, takes a
 * correction that is refused again without leaving the queue, and files the one that builds where
 * the route files its results.
 */

const workflows = workflowTestEnvironment();

const read: Invoice = { invoiceNumber: 'RE-7', invoiceIssueDate: '2026-11-02', seller: { sellerName: 'Acme GmbH' } } as Invoice;
const analysis: DocumentAnalysis = {
  extractionConfidence: 0.8,
  invoice: read,
  pageCount: 1,
  source: 'text-layer',
  fields: { invoiceNumber: { confidence: 0.99, source: 'printed' } },
  candidates: { 'buyer.buyerName': ['Beta AG', 'Gamma KG'] },
};

/** The conversion's steps: the prepare step refuses an invoice without a buyer, as the real one does. */
function steps(filed: FileConnectorResultInput[], kept: Array<{ read: unknown; confirmed: unknown }> = []): StubActivities {
  return {
    stageConnectorFile: async (i: { file: { path: string } }) => ({ blobKey: `blob:${i.file.path}`, kind: 'pdf' }),
    analyseDocument: async () => analysis,
    prepareZugferdInvoice: async (i: { invoice: Invoice }) => {
      if (!i.invoice.buyer?.buyerName)
        throw ApplicationFailure.create({
          nonRetryable: true,
          type: 'FIELDS_MISSING',
          message: 'Mandatory fields were not found on the page: BT-44',
          details: [
            {
              fields: [{ field: 'invoice.buyer.buyerName', bt: 'BT-44', message: 'Add the buyer', candidates: ['Beta AG'] }],
              userMessage: 'Add the buyer',
            },
          ],
        });
      return { invoiceBlobKey: 'invoice-json', profile: 'EN16931', filled: [] };
    },
    buildInvoiceXml: async () => ({ xmlBlobKey: 'xml' }),
    buildZugferdPdf: async (i: BuildZugferdInput) => ({
      pdfBlobKey: 'zugferd-pdf',
      profile: 'EN16931',
      converted: i.convert !== 'auto',
      substitutedFonts: 0,
      attachments: [],
    }),
    validateZugferdPdf: async () => ({ valid: true, pdfValid: true, findings: [], artefacts: [] }),
    storeDocument: async (i: { documentId: string }) => ({ documentId: i.documentId }),
    discardBlobs: async () => {},
    keepLabelledExample: async (i: { read: unknown; confirmed: unknown }) => (kept.push(i), { kept: true }),
    fileConnectorResult: async (i: FileConnectorResultInput) => {
      filed.push(i);
      const done = i.outcome.kind === 'done';
      return {
        status: done ? 'done' : 'refused',
        inputPath: done ? 'done/2026-11-30/RE-7.pdf' : 'error/RE-7.pdf',
        reportPath: done ? 'out/RE-7.report.json' : 'error/RE-7.report.json',
        ...(done ? { resultPath: 'out/RE-7-zugferd.pdf' } : {}),
      };
    },
  };
}

const fileInput = (taskQueue: string, reviewDays?: number): ConnectorFileInput & { activityQueue: string } => {
  const hash = randomUUID();
  return {
    ctx: { requestId: `inbox-${hash}`, accountId: 'acc-1', source: { kind: 'connector', route: 'inbox', file: 'RE-7.pdf', hash } },
    route: 'inbox',
    operation: 'createZugferdFromPdf',
    options: {},
    file: { name: 'RE-7.pdf', path: 'processing/inbox/RE-7.pdf', hash },
    activityQueue: taskQueue,
    ...(reviewDays !== undefined ? { reviewDays } : {}),
  };
};

/** Runs a file's workflow to its end; answers the review it left waiting (its handle), if any. */
async function refusedFile(taskQueue: string, input: ConnectorFileInput & { activityQueue: string }) {
  const workflowId = `connectorFile-inbox-${input.file.hash}`;
  const client = workflows.env().client;
  await client.workflow.execute(processConnectorFile, { taskQueue, workflowId, args: [input] });
  const review: WorkflowHandle<typeof reviewConversion> = client.workflow.getHandle(`review-${workflowId}`);
  return review;
}

async function awaitingReview(handle: WorkflowHandle<typeof reviewConversion>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while ((await handle.describe()).typedSearchAttributes.get(OUTCOME) !== 'awaiting-review' || !(await canQuery(handle))) {
    if (Date.now() > deadline) throw new Error('the review never waited for a person');
    await new Promise((r) => setTimeout(r, 100));
  }
}

const canQuery = (handle: WorkflowHandle<typeof reviewConversion>) =>
  handle.query(reviewEntry).then(
    () => true,
    () => false,
  );

describe('the review queue (workflow, stubbed activities)', () => {
  it('holds a refused conversion until a correction builds, then files it where the route files results', async () => {
    const filed: FileConnectorResultInput[] = [];
    const kept: Array<{ read: unknown; confirmed: unknown }> = [];
    await workflows.withWorker(steps(filed, kept), async (taskQueue) => {
      const review = await refusedFile(taskQueue, fileInput(taskQueue, 30));
      await awaitingReview(review);

      const entry = await review.query(reviewEntry);
      expect(entry).toMatchObject({ route: 'inbox', fileName: 'RE-7.pdf', fileType: 'pdf', refusal: { code: 'FIELDS_MISSING' } });
      expect(entry.refusal.fields?.[0]).toMatchObject({ bt: 'BT-44', candidates: ['Beta AG'] });
      expect(entry.analysis.invoice).toEqual(read);
      expect(entry.analysis.candidates).toEqual(analysis.candidates);

      const again = await review.executeUpdate(correctInvoice, { args: [{ invoice: { ...read, invoiceNumber: 'RE-7a' } }] });
      expect(again).toMatchObject({ created: false, code: 'FIELDS_MISSING', fields: [{ bt: 'BT-44' }] });
      expect((await review.query(reviewEntry)).lastAttempt).toEqual(again);

      const done = await review.executeUpdate(correctInvoice, {
        args: [{ invoice: { ...read, buyer: { buyerName: 'Beta AG' } }, seconds: 42 }],
      });
      expect(done).toMatchObject({ created: true });
      expect(await review.result()).toEqual({
        status: 'created',
        documentId: (done as { documentId: string }).documentId,
        inputPath: 'done/2026-11-30/RE-7.pdf',
        resultPath: 'out/RE-7-zugferd.pdf',
      });
      const described = await review.describe();
      expect(described.typedSearchAttributes.get(OUTCOME)).toBe('valid');
      // The time the person took, for the queue's statistics.
      expect(described.memo?.reviewSeconds).toBe(42);
    });
    // First the refusal, filed into error/; then the person's result, from there.
    expect(filed.map((f) => [f.outcome.kind, f.file.path, f.reviewedAfter])).toEqual([
      ['refused', 'processing/inbox/RE-7.pdf', undefined],
      ['done', 'error/RE-7.pdf', 'FIELDS_MISSING'],
    ]);
    expect(filed[1]!.outcome).toMatchObject({ kind: 'done', resultBlobKey: 'zugferd-pdf' });
    // What the person confirmed is kept as a labelled example, beside what was read.
    expect(kept).toEqual([
      expect.objectContaining({ pdfBlobKey: 'zugferd-pdf', read, confirmed: { ...read, buyer: { buyerName: 'Beta AG' } } }),
    ]);
  });

  it("holds an API call's refused conversion on its kept upload and stores the corrected e-invoice, filing nothing", async () => {
    const filed: FileConnectorResultInput[] = [];
    const staged: unknown[] = [];
    const stubs = { ...steps(filed), stageConnectorFile: async (i: unknown) => (staged.push(i), { blobKey: 'never', kind: 'pdf' }) };
    await workflows.withWorker(stubs, async (taskQueue) => {
      const review = await workflows.env().client.workflow.start(reviewConversion, {
        taskQueue,
        workflowId: `review-${randomUUID()}`,
        args: [
          {
            ctx: { requestId: 'r-1', accountId: 'acc-1', source: { kind: 'request', requestId: 'r-1' } },
            origin: { kind: 'api', fileName: 'RE-7.pdf', fileType: 'pdf', fileBlobKey: 'kept-upload' },
            refusal: { code: 'FIELDS_MISSING', message: 'Add the buyer' },
            keepDays: 30,
          },
        ],
      });
      await awaitingReview(review);
      expect(await review.query(reviewEntry)).toMatchObject({ origin: 'api', fileName: 'RE-7.pdf', fileBlobKey: 'kept-upload' });
      expect((await review.query(reviewEntry)).route).toBeUndefined();
      const done = await review.executeUpdate(correctInvoice, { args: [{ invoice: { ...read, buyer: { buyerName: 'Beta AG' } } }] });
      expect(await review.result()).toEqual({ status: 'created', documentId: (done as { documentId: string }).documentId });
    });
    expect(staged).toEqual([]);
    expect(filed).toEqual([]);
  });

  it('ends unhandled after its time, leaving the file in error/', async () => {
    const filed: FileConnectorResultInput[] = [];
    await workflows.withWorker(steps(filed), async (taskQueue) => {
      // 0.00002 days: under two seconds.
      const review = await refusedFile(taskQueue, fileInput(taskQueue, 0.00002));
      expect(await review.result()).toEqual({ status: 'expired' });
      expect((await review.describe()).typedSearchAttributes.get(OUTCOME)).toBe('expired');
    });
    expect(filed.map((f) => f.outcome.kind)).toEqual(['refused']);
  });

  it('keeps no entry for a route without a queue', async () => {
    await workflows.withWorker(steps([]), async (taskQueue) => {
      const review = await refusedFile(taskQueue, fileInput(taskQueue));
      await expect(review.describe()).rejects.toThrow(/not found/i);
    });
  });

  it('keeps no entry for a refusal no typing settles (a page without text)', async () => {
    const stubs = { ...steps([]), analyseDocument: async () => Promise.reject(ApplicationFailure.nonRetryable('No text', 'PDF_NO_TEXT')) };
    await workflows.withWorker(stubs, async (taskQueue) => {
      const review = await refusedFile(taskQueue, fileInput(taskQueue, 30));
      await expect(review.describe()).rejects.toThrow(/not found/i);
    });
  });
});
