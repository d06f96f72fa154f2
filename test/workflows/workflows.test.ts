import { randomUUID } from 'node:crypto';
import path from 'node:path';
import { WorkflowFailedError } from '@temporalio/client';
import { TestWorkflowEnvironment } from '@temporalio/testing';
import { bundleWorkflowCode, Worker, type WorkflowBundleWithSourceMap } from '@temporalio/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toRefusal } from '../../src/jobs/run-workflow.js';
import type { CreateXInvoiceResult, CreateZugferdResult, DocumentAnalysis } from '../../src/jobs/contracts.js';
import { OUTCOME, SEARCH_ATTRIBUTES } from '../../src/temporal/search-attributes.js';
import type { Finding } from '../../src/validation/index.js';
import { analyseInvoiceFile, createXInvoice, createZugferdFromXml } from '../../workflows/index.js';

/**
 * The workflows as workflows: the real bundle of workflows/ on a real Temporal dev server (the
 * CLI that scripts/setup.sh installs), with the activities stubbed, so the orchestration rules are
 * tested alone, in seconds and without PostgreSQL.
 */

const ctx = { requestId: 'r-1', accountId: 'acc-1', source: { kind: 'request' as const, requestId: 'r-1' } };
const cli = process.env.TEMPORAL_CLI ?? path.resolve('.tools/temporal/bin/temporal');

let env: TestWorkflowEnvironment;
let bundle: WorkflowBundleWithSourceMap;

beforeAll(async () => {
  env = await TestWorkflowEnvironment.createLocal({ server: { executable: { type: 'existing-path', path: cli }, searchAttributes: [...SEARCH_ATTRIBUTES], ui: false } });
  bundle = await bundleWorkflowCode({ workflowsPath: path.resolve('workflows/index.ts'), logger: quiet });
}, 120_000);

afterAll(async () => {
  await env?.teardown();
});

/** Runs `body` with a worker that serves every queue the workflows use, with these stub activities. */
async function withWorker<T>(activities: Record<string, (...args: never[]) => Promise<unknown>>, body: (taskQueue: string) => Promise<T>): Promise<T> {
  const taskQueue = `wf-${randomUUID()}`;
  const workers = await Promise.all(
    [taskQueue, `${taskQueue}-pdf`, `${taskQueue}-ocr`, `${taskQueue}-mail`].map((queue, i) =>
      Worker.create({ connection: env.nativeConnection, taskQueue: queue, activities, ...(i === 0 ? { workflowBundle: bundle } : {}) }),
    ),
  );
  const running = workers.map((w) => w.run());
  try {
    return await body(taskQueue);
  } finally {
    for (const w of workers) w.shutdown();
    await Promise.all(running);
  }
}

const quiet = { info() {}, warn() {}, error() {}, debug() {}, trace() {}, log() {} };

const finding = (ruleId: string, source: Finding['source'] = 'pdf'): Finding => ({ ruleId, severity: 'error', message: ruleId, source });

function zugferdReport(findings: Finding[]) {
  const pdfValid = !findings.some((f) => f.source === 'pdf');
  return { valid: findings.length === 0, pdfValid, xmlValid: true, findings, artefacts: [] };
}

describe('createXInvoice', () => {
  it('runs build, validation and storing as local steps in one workflow task, and records the outcome', async () => {
    const calls: string[] = [];
    const result = await withWorker(
      {
        buildInvoiceXml: async () => (calls.push('build'), { xmlBlobKey: 'xml-1', size: 10 }),
        validateInvoiceXml: async () => (calls.push('validate'), { valid: true, syntax: 'CII', findings: [], artefacts: [] }),
        storeDocument: async (input: { documentId: string }) => (calls.push('store'), { documentId: input.documentId }),
      },
      async (taskQueue) => {
        const handle = await env.client.workflow.start(createXInvoice, { taskQueue, workflowId: `x-${randomUUID()}`, args: [{ ctx, invoiceBlobKey: 'inv-1', syntax: 'CII', fileName: 'a.xml' }] });
        const result: CreateXInvoiceResult = await handle.result();
        const history = await handle.fetchHistory();
        const events = history.events!;
        expect(events.filter((e) => e.activityTaskScheduledEventAttributes)).toHaveLength(0);
        expect(events.filter((e) => e.markerRecordedEventAttributes?.markerName === 'core_local_activity')).toHaveLength(3);
        expect(events.filter((e) => e.workflowTaskCompletedEventAttributes)).toHaveLength(1);
        const described = await handle.describe();
        expect(described.typedSearchAttributes.get(OUTCOME)).toBe('valid');
        return result;
      },
    );
    expect(calls).toEqual(['build', 'validate', 'store']);
    expect(result).toMatchObject({ xmlBlobKey: 'xml-1', report: { valid: true } });
  });

  it('a refusal of a step fails the workflow with its code, which the job layer answers, and marks the outcome failed', async () => {
    const { ApplicationFailure } = await import('@temporalio/activity');
    await withWorker(
      {
        buildInvoiceXml: async () => {
          throw ApplicationFailure.nonRetryable('stored invoice does not match the model', 'VALIDATION_ERROR');
        },
      },
      async (taskQueue) => {
        const handle = await env.client.workflow.start(createXInvoice, { taskQueue, workflowId: `x-${randomUUID()}`, args: [{ ctx, invoiceBlobKey: 'inv-1', syntax: 'CII', fileName: 'a.xml' }] });
        const failure = await handle.result().catch((err: unknown) => err);
        expect(failure).toBeInstanceOf(WorkflowFailedError);
        const refusal = toRefusal(failure);
        expect(refusal.code).toBe('VALIDATION_ERROR');
        expect(refusal.options).toMatchObject({ stage: 'buildInvoiceXml', detail: 'stored invoice does not match the model' });
        expect((await handle.describe()).typedSearchAttributes.get(OUTCOME)).toBe('failed');
      },
    );
  });

  it('answers "queued" when the e-mail is not sent within 15 s, and the document is kept', async () => {
    let release!: () => void;
    const sending = new Promise<void>((resolve) => (release = resolve));
    const result = await withWorker(
      {
        buildInvoiceXml: async () => ({ xmlBlobKey: 'xml-1', size: 10 }),
        validateInvoiceXml: async () => ({ valid: true, syntax: 'CII', findings: [], artefacts: [] }),
        storeDocument: async (input: { documentId: string }) => ({ documentId: input.documentId }),
        recordMailSend: async () => undefined,
        // A mail server that holds the message past the request's wait.
        sendMail: () => sending,
        failMailSend: async () => undefined,
      },
      async (taskQueue) => {
        const started = Date.now();
        const mail = { sender: 'a@example.com', receiver: 'b@example.com', subject: 's', message: 'm', attach: true };
        const result = await env.client.workflow.execute(createXInvoice, { taskQueue, workflowId: `x-${randomUUID()}`, args: [{ ctx, invoiceBlobKey: 'inv-1', syntax: 'CII', fileName: 'a.xml', mail } as never] });
        expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
        release();
        return result;
      },
    );
    expect(result.mail?.status).toBe('queued');
    expect(result.documentId).toMatch(/^[0-9a-f-]{36}$/);
  }, 60_000);
});

describe('createZugferdFromXml: convert again, then refuse', () => {
  it('converts with Ghostscript when the unconverted result fails PDF/A, then substitutes fonts, then refuses with the rule ids', async () => {
    const builds: string[] = [];
    await withWorker(
      {
        buildZugferdPdf: async (input: { convert: string }) => (
          builds.push(input.convert), { pdfBlobKey: `pdf-${input.convert}`, profile: 'EN16931', converted: input.convert !== 'auto', substitutedFonts: 0, attachments: [] }
        ),
        // Every result fails; after conversion only the font rules remain.
        validateZugferdPdf: async (input: { pdfBlobKey: string }) => zugferdReport(input.pdfBlobKey === 'pdf-auto' ? [finding('PDFA-6.1.3-1')] : [finding('PDFA-6.2.11.4.1-1')]),
        storeDocument: async () => ({ documentId: 'never' }),
      },
      async (taskQueue) => {
        const failure = await env.client.workflow
          .execute(createZugferdFromXml, { taskQueue, workflowId: `z-${randomUUID()}`, args: [{ ctx, xmlBlobKey: 'x', pdfBlobKey: 'p', fileName: 'a.pdf' }] })
          .catch((err: unknown) => err);
        expect(failure).toBeInstanceOf(WorkflowFailedError);
        const cause = (failure as WorkflowFailedError).cause as { type?: string; details?: unknown[] };
        expect(cause.type).toBe('PDF_NOT_CONVERTIBLE');
        expect(cause.details?.[0]).toMatchObject({ ruleCodes: ['PDFA-6.2.11.4.1-1'] });
      },
    );
    expect(builds).toEqual(['auto', 'always', 'substitute-fonts']);
  });

  it('stores the converted result when conversion mends it, without a third build', async () => {
    const builds: string[] = [];
    const result = await withWorker(
      {
        buildZugferdPdf: async (input: { convert: string }) => (
          builds.push(input.convert), { pdfBlobKey: `pdf-${input.convert}`, profile: 'EN16931', converted: input.convert !== 'auto', substitutedFonts: 0, attachments: [] }
        ),
        validateZugferdPdf: async (input: { pdfBlobKey: string }) => zugferdReport(input.pdfBlobKey === 'pdf-auto' ? [finding('PDFA-6.1.3-1')] : []),
        storeDocument: async (input: { documentId: string; blobKey: string }) => ({ documentId: input.documentId }),
      },
      (taskQueue) =>
        env.client.workflow.execute(createZugferdFromXml, { taskQueue, workflowId: `z-${randomUUID()}`, args: [{ ctx, xmlBlobKey: 'x', pdfBlobKey: 'p', fileName: 'a.pdf' }] }) as Promise<CreateZugferdResult>,
    );
    expect(builds).toEqual(['auto', 'always']);
    expect(result).toMatchObject({ pdfBlobKey: 'pdf-always', converted: true, report: { valid: true } });
  });
});

describe('analyseInvoiceFile', () => {
  it('deletes the uploaded file when the analysis fails, and when it succeeds', async () => {
    const discarded: string[][] = [];
    const { ApplicationFailure } = await import('@temporalio/activity');
    const analysis = { pageCount: 1, source: 'text-layer', extractionConfidence: 0.9 } as unknown as DocumentAnalysis;
    await withWorker(
      {
        analyseDocument: async (input: { fileBlobKey: string }) => {
          if (input.fileBlobKey === 'broken') throw ApplicationFailure.nonRetryable('not a PDF', 'UNSUPPORTED_FILE');
          return analysis;
        },
        discardBlobs: async (input: { keys: string[] }) => void discarded.push(input.keys),
      },
      async (taskQueue) => {
        const run = (fileBlobKey: string) =>
          env.client.workflow.execute(analyseInvoiceFile, { taskQueue, workflowId: `a-${randomUUID()}`, args: [{ ctx, fileBlobKey, fileType: 'pdf', withLineItems: false }] });
        await expect(run('broken')).rejects.toBeInstanceOf(WorkflowFailedError);
        await expect(run('good')).resolves.toMatchObject({ pageCount: 1 });
      },
    );
    expect(discarded).toEqual([['broken'], ['good']]);
  });
});
