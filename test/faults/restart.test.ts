import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { send, sendUntilAnswered, type Target } from '../../scripts/lib/keyed-client.js';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { startSplitService, type SplitService } from '../../scripts/lib/split-service.js';
import { openStorage } from '../../src/storage/index.js';
import { fixtureInvoice, invoicePdf } from '../reading/fixtures.js';
import { createTestEnv, type TestEnv } from '../storage/helpers.js';

/**
 * Restart persistence (issue 15): everything stopped as an operator stops it (the Temporal dev
 * server, its state in a SQLite file; the API; the worker) and started again on the same data.
 * Every account, document, idempotency key and job is still there, and the work that was under
 * way when it stopped (a create waiting for its worker, an async analysis) finishes. On SQLite
 * and on PostgreSQL.
 */

const exec = promisify(execFile);
const CREATE = '/api/v1/zugferd/createXinvoiceFromJson';
const invoice = fixtureInvoice();

describe.each(['sqlite', 'postgres'] as const)('stopping everything and starting again (%s)', (backend) => {
  let env: TestEnv | undefined;
  let split: SplitService;
  let target: Target;

  beforeAll(async () => {
    env = backend === 'postgres' ? await createTestEnv('postgres') : undefined;
    split = await startSplitService({ name: `restart-${backend}`, env: env ? { DATABASE_URL: env.config.databaseUrl! } : {} });
    target = { url: split.api.url, token: split.api.token };
    await exec(
      process.execPath,
      [path.join(repoRoot, 'dist/src/cli/accounts.js'), 'allow-sender', '--account', split.api.accountId, '--sender', 'acme.example'],
      { cwd: repoRoot, env: split.api.env },
    );
  }, 240_000);
  afterAll(async () => {
    await split?.stop();
    await env?.cleanup();
  });

  const documentIds = async () => {
    const storage = await openStorage({ dataDir: split.api.dataDir, databaseUrl: split.api.env.DATABASE_URL });
    try {
      return (await storage.documents.list(split.api.accountId, { limit: 200 })).documents.map((d) => d.id).sort();
    } finally {
      await storage.close();
    }
  };

  it('keeps accounts, documents, keys and jobs, and finishes the work under way', { timeout: 420_000 }, async () => {
    const done = await sendUntilAnswered(target, CREATE, { invoice: { ...invoice, invoiceNumber: 'KEEP-1' } }, 'keep-1', {
      deadlineMs: 120_000,
    });
    expect(done.status, done.body.toString()).toBe(200);
    const xml = Buffer.from(await (await fetch(done.json.downloadURL)).arrayBuffer());

    // Work under way at the stop: no worker to do it.
    await split.parts.worker.stop();
    const pendingBody = {
      invoice: { ...invoice, invoiceNumber: 'PENDING-1' },
      transport: {
        type: 'email',
        useTransport: true,
        sender: 'rechnung@acme.example',
        receiver: 'pending@customer.example',
        subject: 'Rechnung {invoicenumber}',
        message: 'Anbei.',
      },
    };
    const pending = send(target, CREATE, pendingBody, 'pending-1').catch(() => undefined); // cut off by the stop
    const job = await send(target, '/createJSONFromAnalysedPdfAsync', {
      pdfInvoiceBase64: Buffer.from(await invoicePdf(invoice)).toString('base64'),
    });
    expect(job.status, job.body.toString()).toBe(200);
    await new Promise((r) => setTimeout(r, 2_000));

    const before = await documentIds();
    await split.parts.api.stop();
    await split.parts.temporal.stop();
    await pending;
    await split.parts.temporal.start();
    await split.parts.api.start();
    // Every stored document is still recorded (checked before the worker can add the pending one).
    expect(before.length).toBeGreaterThan(0);
    expect(await documentIds()).toEqual(before);
    await split.parts.worker.start();

    // The account and its token.
    const sends = await fetch(`${target.url}/api/v1/delivery/sends`, { headers: { authorization: `Bearer ${target.token}` } });
    expect(sends.status).toBe(200);
    // The document, byte for byte, through the link given before the stop.
    expect(Buffer.from(await (await fetch(done.json.downloadURL)).arrayBuffer()).equals(xml)).toBe(true);
    // The key: the same answer, nothing created again.
    const replay = await send(target, CREATE, { invoice: { ...invoice, invoiceNumber: 'KEEP-1' } }, 'keep-1');
    expect(replay.headers.get('x-idempotency-key-reused')).toBe('true');
    expect(replay.json).toEqual(done.json);
    // The create that was waiting for a worker finishes: its key gives its one document and e-mail.
    const finished = await sendUntilAnswered(target, CREATE, pendingBody, 'pending-1', { deadlineMs: 180_000 });
    expect(finished.status, finished.body.toString()).toBe(200);
    expect(finished.json.transport.send.status).toBe('sent');
    expect((await documentIds()).length).toBe(before.length + 1);
    // The async job started before the stop.
    const deadline = Date.now() + 240_000;
    let status: any;
    do {
      await new Promise((r) => setTimeout(r, 2_000));
      status = await (
        await fetch(`${target.url}/rechnungsapi-invoice-async-status?id=${job.json.job_id}`, {
          headers: { authorization: `Bearer ${target.token}` },
        })
      ).json();
    } while (status.status === 'processing' && Date.now() < deadline);
    expect(status.status).toBe('done');
    expect(status.result.invoice.invoiceNumber).toBe(invoice.invoiceNumber);
  });
});
