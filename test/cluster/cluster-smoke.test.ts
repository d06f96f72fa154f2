import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRoleProcess, type RoleProcess } from '../../scripts/lib/role-process.js';
import { repoRoot, spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';
import { invoiceSchema } from '../../src/invoice/model.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../../src/render/index.js';
import { clusterAvailable, setupSchema, startCluster, type TemporalCluster } from '../../scripts/lib/temporal-cluster.js';

/**
 * The service on a real multi-service Temporal cluster (frontend, history, matching and worker as
 * processes, schema and visibility in PostgreSQL), as scripts/scale-cluster.sh runs it: the API
 * and two worker processes that split the workload queues. Needs the Temporal server built by
 * scripts/setup-temporal-cluster.sh (not part of the default set-up: it takes many minutes), so
 * it is skipped where that has not run.
 */

const available = clusterAvailable() && !!process.env.TEST_DATABASE_URL;
const why = 'needs the Temporal server (bash scripts/setup-temporal-cluster.sh) and TEST_DATABASE_URL (scripts/test.sh)';
if (!available) console.log(`cluster-smoke: skipped, ${why}`);

describe.skipIf(!available)('the service on a multi-service Temporal cluster', () => {
  let cluster: TemporalCluster;
  let service: SpawnedService;
  const workers: RoleProcess[] = [];
  let dir: string | undefined;

  beforeAll(async () => {
    const postgresUrl = process.env.TEST_DATABASE_URL!;
    const prefix = `smoke${Date.now()}_`;
    const admin = new pg.Client({ connectionString: postgresUrl });
    await admin.connect();
    await admin.query(`CREATE DATABASE ${prefix}einvoice`);
    await admin.end();
    dir = mkdtempSync(path.join(os.tmpdir(), 'einvoice-cluster-smoke-'));
    const opts = { postgresUrl, dir, historyShards: 4, databasePrefix: prefix };
    await setupSchema(opts);
    cluster = await startCluster(opts);
    service = await spawnService({
      name: 'cluster-smoke',
      env: {
        EINVOICE_ROLE: 'api',
        TEMPORAL_ADDRESS: cluster.address,
        DATABASE_URL: Object.assign(new URL(postgresUrl), { pathname: `/${prefix}einvoice` }).toString(),
      },
    });
    workers.push(await startRoleProcess(service, 'worker', 'worker-quick-pdf-mail', { EINVOICE_WORKER_QUEUES: 'quick,pdf,mail' }));
    workers.push(await startRoleProcess(service, 'worker', 'worker-ocr', { EINVOICE_WORKER_QUEUES: 'ocr' }));
  }, 240_000);

  afterAll(async () => {
    for (const w of workers) await w.stop();
    await service?.stop();
    await cluster?.stop();
    if (dir) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  it('creates XML (quick queue) and ZUGFeRD (PDF queue) and reads a PDF (OCR queue), served by the worker processes of their queues', async () => {
    const invoice = JSON.parse(readFileSync(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8'));
    const post = (route: string, body: unknown) =>
      fetch(`${service.url}${route}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const created = await post('/api/v1/zugferd/createXinvoiceFromJson', { invoice });
    const xml = (await created.json()) as { valid: boolean; xInvoice: string };
    expect(created.status, JSON.stringify(xml)).toBe(200);
    expect(xml.valid).toBe(true);
    const template = await loadTemplate(templateRoots('/nonexistent'), 'de-standard');
    const { pdf } = await renderInvoicePdf(invoiceSchema.parse(invoice), template, {
      created: new Date('2026-01-15T10:00:00Z'),
      fileId: '0'.repeat(32),
    });
    const built = await post('/api/v1/zugferd/createZugferdFromJson', { invoice, invoicePdf64: Buffer.from(pdf).toString('base64') });
    const zugferd = (await built.json()) as { zugferdValid: boolean };
    expect(built.status, JSON.stringify(zugferd).slice(0, 500)).toBe(200);
    expect(zugferd.zugferdValid).toBe(true);
    const analysed = await post('/createJSONFromAnalysedPdf', { fileBase64: Buffer.from(pdf).toString('base64') });
    const analysis = (await analysed.json()) as { invoice: { invoiceNumber: string } };
    expect(analysed.status, JSON.stringify(analysis).slice(0, 500)).toBe(200);
    expect(analysis.invoice.invoiceNumber).toBe(invoice.invoiceNumber);
    // The reading ran in the OCR worker process, not in the other one.
    expect(readFileSync(workers[1]!.logFile, 'utf8')).toContain('document analysed');
    expect(readFileSync(workers[0]!.logFile, 'utf8')).not.toContain('document analysed');
  }, 180_000);

  it('finds the workflows by the custom search attributes, in visibility on PostgreSQL', async () => {
    const client = new Client({ connection: await Connection.connect({ address: cluster.address }), namespace: service.namespace });
    try {
      const found: string[] = [];
      const deadline = Date.now() + 20_000;
      while (found.length === 0 && Date.now() < deadline) {
        for await (const w of client.workflow.list({ query: `EinvoiceOperation = "createXinvoiceFromJson" AND EinvoiceOutcome = "valid"` }))
          found.push(w.workflowId);
        if (found.length === 0) await new Promise((r) => setTimeout(r, 500));
      }
      expect(found).toHaveLength(1);
      expect(found[0]).toMatch(/^createXinvoiceFromJson-/);
    } finally {
      await client.connection.close();
    }
  });
});
