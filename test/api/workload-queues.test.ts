import { randomUUID } from 'node:crypto';
import { Context } from '@temporalio/activity';
import { describe, expect, it } from 'vitest';
import { workloadQueue } from '../../src/temporal/queues.js';
import { analyseInvoiceFile } from '../../workflows/analysis.js';
import { convertToZugferd } from '../../workflows/convert.js';
import { sendMessage } from '../../workflows/mail.js';
import { createXInvoice } from '../../workflows/xrechnung.js';
import { temporalForTests, withQueueWorkers } from '../support/queue-workers.js';
import { byName } from './client.js';

/**
 * Each step goes to its workload class's task queue (src/temporal/queues.ts), derived from the
 * queue the workflow runs on: the workflows on the real Temporal dev server, with stub
 * activities that note the queue they were served from.
 */

const server = byName('sqlite');
const taskQueue = `workload-queues-test-${randomUUID()}`;
const q = {
  quick: workloadQueue(taskQueue, 'quick'),
  pdf: workloadQueue(taskQueue, 'pdf'),
  ocr: workloadQueue(taskQueue, 'ocr'),
  mail: workloadQueue(taskQueue, 'mail'),
};

const temporal = temporalForTests(server.temporalAddress, server.namespace);

const ctx = () => {
  const requestId = randomUUID();
  return { requestId, accountId: 'test', source: { kind: 'request' as const, requestId } };
};
const report = { valid: true, pdfValid: true, findings: [], artefacts: [] };

/** Stub activities that record, per activity, the queue each ran from. */
function recording() {
  const servedBy: Record<string, string[]> = {};
  const stub =
    <R>(result: R) =>
    async () => {
      const { activityType, taskQueue: queue } = Context.current().info;
      (servedBy[activityType] ??= []).push(queue);
      return result;
    };
  const activities = {
    buildInvoiceXml: stub({ xmlBlobKey: 'xml' }),
    validateInvoiceXml: stub(report),
    storeDocument: stub({ documentId: randomUUID() }),
    createXmlDocument: stub({ documentId: randomUUID(), xmlBlobKey: 'xml', report }),
    analyseDocument: stub({ invoice: {}, pageCount: 1, source: 'ocr', extractionConfidence: 0.9 }),
    prepareZugferdInvoice: stub({ invoiceBlobKey: 'invoice', profile: 'EN16931', filled: [] }),
    imagesToPdfDocument: stub({ pdfBlobKey: 'pdf' }),
    buildZugferdPdf: stub({ pdfBlobKey: 'built', profile: 'EN16931', converted: false, substitutedFonts: 0, attachments: [] }),
    validateZugferdPdf: stub(report),
    discardBlobs: stub(undefined),
    recordMailSend: stub(undefined),
    sendMail: stub(undefined),
    failMailSend: stub(undefined),
  };
  return { servedBy, activities };
}

describe('task queues by workload class (workflows, stub activities)', () => {
  it('keeps XML creation (build, validation, storing) on the quick queue, where the workflows run', async () => {
    const { servedBy, activities } = recording();
    await withQueueWorkers({ connection: temporal.connection, namespace: server.namespace, taskQueue, activities }, () =>
      temporal.client.workflow.execute(createXInvoice, {
        taskQueue,
        workflowId: `xml-${randomUUID()}`,
        args: [{ ctx: ctx(), invoiceBlobKey: 'json', syntax: 'CII', fileName: 'a.xml' }],
      }),
    );
    expect(servedBy).toEqual({ buildInvoiceXml: [q.quick], validateInvoiceXml: [q.quick], storeDocument: [q.quick] });
  });

  it('keeps the one step of an XML creation the API starts on the quick queue', async () => {
    const { servedBy, activities } = recording();
    await withQueueWorkers({ connection: temporal.connection, namespace: server.namespace, taskQueue, activities }, () =>
      temporal.client.workflow.execute(createXInvoice, {
        taskQueue,
        workflowId: `xml-${randomUUID()}`,
        args: [{ ctx: ctx(), invoiceBlobKey: 'json', syntax: 'CII', fileName: 'a.xml', singleStep: true }],
      }),
    );
    expect(servedBy).toEqual({ createXmlDocument: [q.quick] });
  });

  it('sends reading to the OCR queue, images → PDF, embedding and PDF/A checks to the PDF queue', async () => {
    const { servedBy, activities } = recording();
    await withQueueWorkers({ connection: temporal.connection, namespace: server.namespace, taskQueue, activities }, () =>
      temporal.client.workflow.execute(convertToZugferd, {
        taskQueue,
        workflowId: `convert-${randomUUID()}`,
        args: [{ ctx: ctx(), fileBlobKey: 'scan', fileType: 'png', fileName: 'scan.png' }],
      }),
    );
    expect(servedBy).toEqual({
      analyseDocument: [q.ocr],
      prepareZugferdInvoice: [q.quick],
      imagesToPdfDocument: [q.pdf],
      buildInvoiceXml: [q.quick],
      buildZugferdPdf: [q.pdf],
      validateZugferdPdf: [q.pdf],
      storeDocument: [q.quick],
      discardBlobs: [q.quick],
    });
  });

  it('sends e-mail on the mail queue, from the child workflow, which inherits the queue of its parent', async () => {
    const { servedBy, activities } = recording();
    await withQueueWorkers({ connection: temporal.connection, namespace: server.namespace, taskQueue, activities }, () =>
      temporal.client.workflow.execute(sendMessage, {
        taskQueue,
        workflowId: `mail-${randomUUID()}`,
        args: [{ ctx: ctx(), mail: { draftKey: 'draft' } }],
      }),
    );
    expect(servedBy).toEqual({ recordMailSend: [q.quick], sendMail: [q.mail] });
  });

  it('leaves an analysis waiting while no worker serves the OCR queue, and a worker that serves only OCR finishes it', async () => {
    const { servedBy, activities } = recording();
    const handle = await temporal.client.workflow.start(analyseInvoiceFile, {
      taskQueue,
      workflowId: `analysis-${randomUUID()}`,
      args: [{ ctx: ctx(), fileBlobKey: 'scan', fileType: 'png', withLineItems: true }],
    });
    // Workflows and quick steps are served, OCR is not: the workflow runs, its reading waits.
    await withQueueWorkers(
      { connection: temporal.connection, namespace: server.namespace, taskQueue, activities, workloads: ['quick', 'pdf', 'mail'] },
      async () => {
        const deadline = Date.now() + 3_000;
        while (Date.now() < deadline) {
          const pending = (await handle.describe()).raw.pendingActivities ?? [];
          if (pending.some((a) => a.activityType?.name === 'analyseDocument')) break;
          await new Promise((r) => setTimeout(r, 100));
        }
        const pending = (await handle.describe()).raw.pendingActivities ?? [];
        expect(pending.map((a) => a.activityType?.name)).toEqual(['analyseDocument']);
      },
    );
    expect(servedBy).toEqual({});
    await withQueueWorkers(
      { connection: temporal.connection, namespace: server.namespace, taskQueue, activities, workloads: ['quick', 'ocr'] },
      () => handle.result(),
    );
    expect(servedBy).toEqual({ analyseDocument: [q.ocr], discardBlobs: [q.quick] });
  });
});
