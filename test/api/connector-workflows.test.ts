import { randomUUID } from 'node:crypto';
import { ApplicationFailure } from '@temporalio/common';
import { Worker } from '@temporalio/worker';
import { describe, expect, it } from 'vitest';
import type { ConnectorActivities } from '../../activities/connectors.js';
import type { ConnectorFileInput, FileConnectorResultInput } from '../../connectors/file-operation.js';
import type { LookAtRouteInput, RouteLook } from '../../connectors/watch-operation.js';
import { processConnectorFile } from '../../workflows/connector-file.js';
import { lookNow, watchRoute } from '../../workflows/watch-route.js';
import { temporalForTests, WORKFLOW_BUNDLE, withQueueWorkers } from '../support/queue-workers.js';
import { byName } from './client.js';

/**
 * The connector workflows on the real Temporal dev server with stubbed activities: what a file's
 * workflow hands the file-away step for each way the operation ends, that a source which is down
 * is waited for rather than failing the file, and that a route's watcher looks again at once when
 * asked.
 */

const server = byName('sqlite');
const taskQueue = `connector-workflows-test-${randomUUID()}`;

const temporal = temporalForTests(server.temporalAddress, server.namespace);

const ctx = () => ({
  requestId: randomUUID(),
  accountId: 'test',
  source: { kind: 'connector' as const, route: 'inbox', file: 'RE-1.json', hash: randomUUID() },
});
const fileInput = (operation: ConnectorFileInput['operation']): ConnectorFileInput & { activityQueue: string } => ({
  ctx: ctx(),
  route: 'inbox',
  operation,
  options: {},
  file: { name: 'RE-1.json', path: 'processing/inbox/RE-1.json', hash: 'h' },
  activityQueue: taskQueue,
});

/** Runs one file's workflow with the given activities; returns what the file-away step was handed. */
async function runFile(input: ConnectorFileInput & { activityQueue: string }, activities: Record<string, (...args: never[]) => unknown>) {
  const filed: FileConnectorResultInput[] = [];
  const stubs = {
    async fileConnectorResult(i: FileConnectorResultInput) {
      filed.push(i);
      return { status: i.outcome.kind === 'done' ? 'done' : 'refused', inputPath: 'done/x', reportPath: 'done/x.report.json' };
    },
    async discardBlobs() {},
    ...activities,
  };
  // The connector's source steps are on the connectors' queue, here the workflows' own (quick) queue.
  const result = await withQueueWorkers(
    { connection: temporal.connection, namespace: server.namespace, taskQueue, activities: stubs },
    () =>
      temporal.client.workflow.execute(processConnectorFile, {
        taskQueue,
        workflowId: `connectorFile-test-${randomUUID()}`,
        args: [input],
      }),
  );
  return { result, filed };
}

const validReport = { valid: true, findings: [], artefacts: [{ name: 'EN16931 CII', version: '1.3.15' }] };

describe('a connector file (workflow, stubbed activities)', () => {
  it('runs the operation as its own child workflow and hands the result to the file-away step', async () => {
    const { result, filed } = await runFile(fileInput('createXinvoiceFromJson'), {
      stageConnectorFile: async () => ({ blobKey: 'invoice-json', kind: 'json' }),
      buildInvoiceXml: async () => ({ xmlBlobKey: 'xml-blob' }),
      validateInvoiceXml: async () => validReport,
      storeDocument: async () => ({ documentId: randomUUID() }),
    });
    expect(result.status).toBe('done');
    expect(filed).toHaveLength(1);
    expect(filed[0]!.outcome).toEqual({
      kind: 'done',
      resultBlobKey: 'xml-blob',
      valid: true,
      findings: [],
      artefacts: validReport.artefacts,
    });
  });

  it('files a refusal of the staging step with its code and field problems, without running the operation', async () => {
    let built = 0;
    const { result, filed } = await runFile(fileInput('createXinvoiceFromJson'), {
      stageConnectorFile: async () => {
        throw ApplicationFailure.create({
          nonRetryable: true,
          type: 'VALIDATION_ERROR',
          message: 'The invoice does not fit',
          details: [{ fields: [{ field: 'invoice.invoiceIssueDate', bt: 'BT-2', message: 'Required' }] }],
        });
      },
      buildInvoiceXml: async () => {
        built++;
        return { xmlBlobKey: 'never' };
      },
    });
    expect(built).toBe(0);
    expect(result.status).toBe('refused');
    expect(filed[0]!.outcome).toEqual({
      kind: 'refused',
      code: 'VALIDATION_ERROR',
      message: 'The invoice does not fit',
      details: { fields: [{ field: 'invoice.invoiceIssueDate', bt: 'BT-2', message: 'Required' }] },
    });
  });

  it("files the refusal a child workflow's activity raised (a scan without any text)", async () => {
    const { filed } = await runFile(fileInput('createZugferdFromPdf'), {
      stageConnectorFile: async () => ({ blobKey: 'scan', kind: 'jpeg' }),
      analyseDocument: async () => {
        throw ApplicationFailure.nonRetryable('None of the 1 page(s) has readable text.', 'PDF_NO_TEXT');
      },
    });
    expect(filed[0]!.outcome).toMatchObject({ kind: 'refused', code: 'PDF_NO_TEXT', message: 'None of the 1 page(s) has readable text.' });
  });

  it('waits for a source that is down instead of refusing the file', async () => {
    let attempts = 0;
    const { result, filed } = await runFile(fileInput('createXinvoiceFromJson'), {
      stageConnectorFile: async () => {
        if (++attempts < 3) throw new Error('sftp.example.com:22 is not reachable: connect ECONNREFUSED');
        return { blobKey: 'invoice-json', kind: 'json' };
      },
      buildInvoiceXml: async () => ({ xmlBlobKey: 'xml-blob' }),
      validateInvoiceXml: async () => validReport,
      storeDocument: async () => ({ documentId: randomUUID() }),
    });
    expect(attempts).toBe(3);
    expect(result.status).toBe('done');
    expect(filed).toHaveLength(1);
  }, 60_000);
});

describe("a route's watcher (workflow, stubbed activities)", () => {
  it('looks at its interval, at once when a folder watcher asks, and hands each look the one before', async () => {
    const looks: Array<{ at: number; previous: LookAtRouteInput['previous'] }> = [];
    const lookAtRoute: ConnectorActivities['lookAtRoute'] = async (input: LookAtRouteInput): Promise<RouteLook> => {
      looks.push({ at: Date.now(), previous: input.previous });
      return {
        look: [{ path: 'in/a.pdf', name: 'a.pdf', size: looks.length, modifiedMs: 0 }],
        pending: false,
        changes: `token-${looks.length}`,
        toStart: [],
        nextLookMs: { pending: 1_000, idle: 600_000 },
      };
    };
    const worker = await Worker.create({
      connection: temporal.connection,
      namespace: server.namespace,
      taskQueue,
      workflowBundle: { codePath: WORKFLOW_BUNDLE },
      activities: { lookAtRoute },
    });
    await worker.runUntil(async () => {
      const handle = await temporal.client.workflow.start(watchRoute, {
        taskQueue,
        workflowId: `watch-test-${randomUUID()}`,
        args: [{ route: 'inbox', activityQueue: taskQueue }],
      });
      const until = async (n: number) => {
        const deadline = Date.now() + 20_000;
        while (looks.length < n && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
      };
      await until(1);
      const asked = Date.now();
      await handle.signal(lookNow);
      await until(2);
      await handle.terminate('test over');
      expect(looks).toHaveLength(2);
      // Ten minutes until the next look, but the signal brought it within seconds.
      expect(looks[1]!.at - asked).toBeLessThan(10_000);
      expect(looks[0]!.previous).toEqual({ look: [], pending: true });
      expect(looks[1]!.previous).toEqual({
        look: [{ path: 'in/a.pdf', name: 'a.pdf', size: 1, modifiedMs: 0 }],
        pending: false,
        changes: 'token-1',
        inHand: [],
      });
    });
  });
});
