import { execFile } from 'node:child_process';
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, sendUntilAnswered, type Answer, type Target } from '../../scripts/lib/keyed-client.js';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { startSplitService, type SplitService } from '../../scripts/lib/split-service.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { startSmtpSink, receivedFor, type SmtpSink } from '../mail/smtp-sink.js';
import { fixtureInvoice, invoicePdf } from '../reading/fixtures.js';
import { waitFor } from '../support/wait-for.js';

/**
 * Issue 15, items 1 to 3, with the API, the worker and Temporal as processes of their own, as an
 * operator scales the service: a process is killed (SIGKILL) where each item's failure was
 * seen, and the client retries with its Idempotency-Key. The API waits at most 10 s for a
 * workflow (WORKFLOW_WAIT_SECONDS), so a stalled workflow answers 504 in this test's time.
 */

const exec = promisify(execFile);
const CREATE_XML = '/api/v1/zugferd/createXinvoiceFromJson';
const CREATE_PDF = '/api/v1/zugferd/createZugferdFromJson';
const invoice = fixtureInvoice();
const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString('base64');
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

let sink: SmtpSink;
let split: SplitService;
let target: Target;
let storage: Storage;
let temporal: Client;
let n = 0;

const transport = (receiver: string) => ({
  type: 'email',
  useTransport: true,
  sender: 'rechnung@acme.example',
  receiver,
  subject: 'Rechnung {invoicenumber}',
  message: 'Anbei.',
});
const documentCount = async () => (await storage.documents.list(split.api.accountId, { limit: 200 })).documents.length;

async function runningWorkflow(operation: string): Promise<string | undefined> {
  for await (const wf of temporal.workflow.list({ query: `EinvoiceOperation = "${operation}" AND ExecutionStatus = "Running"` }))
    return wf.workflowId;
  return undefined;
}

async function workflowIds(operation: string): Promise<Set<string>> {
  const ids = new Set<string>();
  for await (const wf of temporal.workflow.list({ query: `EinvoiceOperation = "${operation}"` })) ids.add(wf.workflowId);
  return ids;
}

/**
 * Sends a PDF build and waits until its buildZugferdPdf step runs. A build can finish between two
 * looks (it takes about a second); that request is answered, and the build is sent again under a
 * new key, so the kill always lands inside the step.
 */
async function buildCaughtRunning(n: number): Promise<{ answer: Promise<Answer>; before: number }> {
  for (let attempt = 1; attempt <= 3; attempt++) {
    const key = `worker-build-${n}-${attempt}-${Date.now()}`;
    const body = { invoice: { ...invoice, invoiceNumber: `BUILD-${n}-${attempt}` }, invoicePdf64: b64(await invoicePdf(invoice)) };
    const before = await documentCount();
    const earlier = await workflowIds('createZugferdFromJson');
    const answer = sendUntilAnswered(target, CREATE_PDF, body, key, { deadlineMs: 280_000 });
    const workflowId = await waitFor(
      'the workflow',
      async () => [...(await workflowIds('createZugferdFromJson'))].find((id) => !earlier.has(id)),
      60_000,
    );
    const seen = await waitFor(
      'buildZugferdPdf running, or the workflow done',
      async () => {
        const described = await temporal.workflow.getHandle(workflowId).describe();
        if (described.status.name !== 'RUNNING') return 'done';
        const pending = described.raw.pendingActivities ?? [];
        return pending.some((a) => a.activityType?.name === 'buildZugferdPdf' && a.lastStartedTime) && 'running';
      },
      120_000,
      50,
    );
    if (seen === 'running') return { answer, before };
    expect((await answer).status).toBe(200);
  }
  throw new Error('buildZugferdPdf finished between two looks three times');
}

beforeAll(async () => {
  sink = await startSmtpSink();
  split = await startSplitService({
    name: 'recovery',
    env: { WORKFLOW_WAIT_SECONDS: '10' },
    // tesseract.js keeps its language links in a helper folder for the worker's life (the native
    // engine keeps none): item 4 needs a dead worker's folder to see it removed.
    workerEnv: { SMTP_URL: sink.url, SMTP_CA_FILE: sink.certFile, OCR_ENGINE: 'tesseract.js' },
  });
  target = { url: split.api.url, token: split.api.token };
  await exec(
    process.execPath,
    [path.join(repoRoot, 'dist/src/cli/accounts.js'), 'allow-sender', '--account', split.api.accountId, '--sender', 'acme.example'],
    { cwd: repoRoot, env: split.api.env },
  );
  storage = await openStorage({ dataDir: split.api.dataDir, databaseUrl: undefined });
  temporal = new Client({ connection: await Connection.connect({ address: split.api.temporalAddress }), namespace: split.api.namespace });
}, 240_000);

afterAll(async () => {
  await temporal?.connection.close();
  await storage?.close();
  await split?.stop();
  await sink?.close();
});

describe('crashes between a request and its answer (issue 15)', () => {
  it(
    'item 1: a create that timed out (504) while the worker was down, retried with its key after the workflow finished: one document, one e-mail',
    { timeout: 240_000 },
    async () => {
      const receiver = `timeout-${++n}@customer.example`;
      const key = `timeout-${n}-${Date.now()}`;
      const body = { invoice: { ...invoice, invoiceNumber: `TIMEOUT-${n}` }, transport: transport(receiver) };
      const before = await documentCount();
      await split.parts.worker.kill();
      const first = await send(target, CREATE_XML, body, key);
      expect(first.status, first.body.toString()).toBe(504);
      expect(first.json.error.code).toBe('UPSTREAM_TIMEOUT');

      await split.parts.worker.start();
      // The workflow goes on without the client: it stores the document and sends the e-mail.
      const mail = await sink.waitFor(receiver, 120_000);
      const retry = await sendUntilAnswered(target, CREATE_XML, body, key, { deadlineMs: 60_000 });
      expect(retry.status, retry.body.toString()).toBe(200);
      expect(retry.json.transport.send.messageId).toBe(mail.parsed.messageId);
      const again = await send(target, CREATE_XML, body, key);
      expect(again.headers.get('x-idempotency-key-reused')).toBe('true');
      expect(again.json).toEqual(retry.json);

      await pause(3_000); // a second workflow, if one had started, would have sent by now
      expect(await documentCount()).toBe(before + 1);
      expect(receivedFor(sink, receiver)).toHaveLength(1);
    },
  );

  it(
    "item 2: the API killed during a request; the retry with the key gets the workflow's result, not IDEMPOTENCY_IN_PROGRESS",
    { timeout: 240_000 },
    async () => {
      const key = `api-crash-${++n}-${Date.now()}`;
      const body = { invoice: { ...invoice, invoiceNumber: `APICRASH-${n}` } };
      const before = await documentCount();
      await split.parts.worker.kill();
      const lost = send(target, CREATE_XML, body, key).then(
        (a) => `answered ${a.status}`,
        (err: Error) => `lost: ${err.message}`,
      );
      await waitFor('the workflow of the request', () => runningWorkflow('createXinvoiceFromJson'), 30_000);
      await split.parts.api.kill();
      expect(await lost).toMatch(/^lost/);
      await split.parts.api.start();
      await split.parts.worker.start();

      const started = Date.now();
      const retry = await send(target, CREATE_XML, body, key);
      expect(retry.status, retry.body.toString()).toBe(200);
      // Joined the running workflow: as long as the work takes, not the 150 s a lock row made it wait.
      expect(Date.now() - started).toBeLessThan(60_000);
      expect(await documentCount()).toBe(before + 1);
      expect((await storage.documents.get(retry.json.documentId, split.api.accountId))?.workflowId).toMatch(/^createXinvoiceFromJson-key-/);
    },
  );

  it(
    'item 3: the worker killed during a PDF build: the request is answered within seconds of the restart, one document',
    { timeout: 300_000 },
    async () => {
      const { answer, before } = await buildCaughtRunning(++n);
      const killedAt = Date.now();
      const killedPid = split.parts.worker.pid();
      const leftBehind = () => readdirSync(tmpdir()).filter((name) => name.startsWith('einvoice-') && name.includes(`-${killedPid}-`));
      await split.parts.worker.kill();
      // Item 4: the dead worker's helper folders (tesseract's language links at least) are there until a worker starts.
      expect(leftBehind()).not.toEqual([]);
      await split.parts.worker.start();
      expect(leftBehind()).toEqual([]);
      const done = await answer;
      expect(done.status, done.body.toString()).toBe(200);
      // The heartbeat timeout (30 s) notices the dead worker; without it the step's 4-minute start-to-close timeout would.
      expect(Date.now() - killedAt).toBeLessThan(90_000);
      expect(await documentCount()).toBe(before + 1);
    },
  );

  it(
    'item 3: the worker killed while the SMTP server holds the message: sent within seconds of the restart, once, with one Message-ID',
    { timeout: 240_000 },
    async () => {
      const receiver = `held-${++n}@customer.example`;
      sink.plan(receiver, (attempt) => (attempt === 1 ? 'hold' : undefined));
      const key = `worker-mail-${n}-${Date.now()}`;
      const body = {
        transport: {
          type: 'email',
          useTransport: true,
          email: { sender: 'rechnung@acme.example', receiver, subject: 'Zahlungserinnerung', message: 'Bitte zahlen.' },
        },
      };
      const answered = sendUntilAnswered(target, '/api/v1/delivery', body, key, { deadlineMs: 200_000 });
      await waitFor('the held transaction', async () => sink.transactions.get(receiver) === 1, 60_000);
      const killedAt = Date.now();
      await split.parts.worker.kill();
      await split.parts.worker.start();
      const mail = await sink.waitFor(receiver, 120_000);
      // The SENDING profile's 20 s heartbeat timeout; before, the attempt's 3-minute start-to-close timeout.
      expect(Date.now() - killedAt).toBeLessThan(75_000);
      const first = await answered;
      expect([200, 202], first.body.toString()).toContain(first.status);
      expect(mail.parsed.messageId).toBe(first.json.send.messageId);
      await pause(3_000);
      expect(receivedFor(sink, receiver)).toHaveLength(1);
      const replay = await send(target, '/api/v1/delivery', body, key);
      expect(replay.headers.get('x-idempotency-key-reused')).toBe('true');
    },
  );
});
