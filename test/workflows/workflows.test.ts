import { randomUUID } from 'node:crypto';
import { WorkflowFailedError } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import { toRefusal } from '../../src/jobs/submit/run-workflow.js';
import type { DocumentAnalysis } from '../../src/operations/analysis.js';
import type { CreateXInvoiceResult } from '../../src/operations/xrechnung.js';
import { OUTCOME } from '../../src/temporal/search-attributes.js';
import { analyseInvoiceFile, createXInvoice } from '../../workflows/index.js';
import { workflowTestEnvironment } from './environment.js';

/** XML creation and analysis as workflows, with stubbed activities (see environment.ts). */

const ctx = { requestId: 'r-1', accountId: 'acc-1', source: { kind: 'request' as const, requestId: 'r-1' } };
const workflows = workflowTestEnvironment();
const withWorker = workflows.withWorker;
describe('createXInvoice', () => {
  it('without singleStep (runs started before it), runs build, validation and storing as three local steps in one workflow task, and records the outcome', async () => {
    const calls: string[] = [];
    const result = await withWorker(
      {
        buildInvoiceXml: async () => (calls.push('build'), { xmlBlobKey: 'xml-1', size: 10 }),
        validateInvoiceXml: async () => (calls.push('validate'), { valid: true, syntax: 'CII', findings: [], artefacts: [] }),
        storeDocument: async (input: { documentId: string }) => (calls.push('store'), { documentId: input.documentId }),
      },
      async (taskQueue) => {
        const handle = await workflows.env().client.workflow.start(createXInvoice, {
          taskQueue,
          workflowId: `x-${randomUUID()}`,
          args: [{ ctx, invoiceBlobKey: 'inv-1', syntax: 'CII', fileName: 'a.xml' }],
        });
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

  it('with singleStep (as the API starts it), builds, validates and stores in one local step, and records no patch', async () => {
    const inputs: unknown[] = [];
    const result = await withWorker(
      {
        createXmlDocument: async (input: { document: { documentId: string } }) => (
          inputs.push(input),
          {
            documentId: input.document.documentId,
            xmlBlobKey: 'xml-1',
            report: { valid: true, syntax: 'CII', findings: [], artefacts: [] },
          }
        ),
      },
      async (taskQueue) => {
        const handle = await workflows.env().client.workflow.start(createXInvoice, {
          taskQueue,
          workflowId: `x-${randomUUID()}`,
          args: [{ ctx, invoiceBlobKey: 'inv-1', syntax: 'CII', fileName: 'a.xml', singleStep: true }],
        });
        const result: CreateXInvoiceResult = await handle.result();
        const markers = (await handle.fetchHistory()).events!.filter((e) => e.markerRecordedEventAttributes);
        expect(markers.map((e) => e.markerRecordedEventAttributes!.markerName)).toEqual(['core_local_activity']);
        expect((await handle.describe()).typedSearchAttributes.get(OUTCOME)).toBe('valid');
        return result;
      },
    );
    expect(inputs).toMatchObject([
      {
        invoiceBlobKey: 'inv-1',
        syntax: 'CII',
        document: {
          kind: 'xrechnung-xml',
          fileName: 'a.xml',
          meta: { syntax: 'CII' },
          usage: { operation: 'createXinvoiceFromJson', units: 1 },
        },
      },
    ]);
    expect(result).toMatchObject({
      documentId: (inputs[0] as { document: { documentId: string } }).document.documentId,
      xmlBlobKey: 'xml-1',
    });
  });

  it('with singleStep, a refusal names the one step', async () => {
    const { ApplicationFailure } = await import('@temporalio/activity');
    await withWorker(
      {
        createXmlDocument: async () => {
          throw ApplicationFailure.nonRetryable('stored invoice does not match the model', 'VALIDATION_ERROR');
        },
      },
      async (taskQueue) => {
        const handle = await workflows.env().client.workflow.start(createXInvoice, {
          taskQueue,
          workflowId: `x-${randomUUID()}`,
          args: [{ ctx, invoiceBlobKey: 'inv-1', syntax: 'CII', fileName: 'a.xml', singleStep: true }],
        });
        const refusal = toRefusal(await handle.result().catch((err: unknown) => err));
        expect(refusal.code).toBe('VALIDATION_ERROR');
        expect(refusal.options).toMatchObject({ stage: 'createXmlDocument' });
        expect((await handle.describe()).typedSearchAttributes.get(OUTCOME)).toBe('failed');
      },
    );
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
        const handle = await workflows.env().client.workflow.start(createXInvoice, {
          taskQueue,
          workflowId: `x-${randomUUID()}`,
          args: [{ ctx, invoiceBlobKey: 'inv-1', syntax: 'CII', fileName: 'a.xml' }],
        });
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
        const result = await workflows.env().client.workflow.execute(createXInvoice, {
          taskQueue,
          workflowId: `x-${randomUUID()}`,
          args: [{ ctx, invoiceBlobKey: 'inv-1', syntax: 'CII', fileName: 'a.xml', mail } as never],
        });
        expect(Date.now() - started).toBeGreaterThanOrEqual(14_000);
        release();
        return result;
      },
    );
    expect(result.mail?.status).toBe('queued');
    expect(result.documentId).toMatch(/^[0-9a-f-]{36}$/);
  }, 60_000);
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
          workflows.env().client.workflow.execute(analyseInvoiceFile, {
            taskQueue,
            workflowId: `a-${randomUUID()}`,
            args: [{ ctx, fileBlobKey, fileType: 'pdf', withLineItems: false }],
          });
        await expect(run('broken')).rejects.toBeInstanceOf(WorkflowFailedError);
        await expect(run('good')).resolves.toMatchObject({ pageCount: 1 });
      },
    );
    expect(discarded).toEqual([['broken'], ['good']]);
  });
});
