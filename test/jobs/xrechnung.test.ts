import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Client, Connection } from '@temporalio/client';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort, spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';
import type { JobDeps } from '../../src/jobs/submit/run-workflow.js';
import type { Job } from '../../src/jobs/intake/job.js';
import { JobRefusal } from '../../src/jobs/intake/refusal.js';
import { buildXRechnung } from '../../src/jobs/submit/xrechnung.js';
import { BlobStore } from '../../src/storage/blob-store.js';
import { openStorage, type Storage } from '../../src/storage/index.js';

/**
 * The job layer without HTTP: submit functions called directly, as a connector will, against
 * the built service's worker on its real Temporal dev server.
 */

const invoice = JSON.parse(readFileSync(path.resolve(import.meta.dirname, '../fixtures/invoices/01-standard-19.json'), 'utf8'));

let service: SpawnedService;
let storage: Storage;
let deps: JobDeps;
let job: Job;

beforeAll(async () => {
  service = await spawnService({ name: 'jobs', temporalPort: await freePort() });
  storage = await openStorage({ dataDir: service.dataDir, databaseUrl: undefined });
  const connection = await Connection.connect({ address: service.temporalAddress });
  deps = {
    temporal: new Client({ connection, namespace: service.namespace }),
    taskQueue: service.taskQueue,
    blobs: new BlobStore(service.dataDir),
    storage,
  };
  job = {
    account: { accountId: service.accountId },
    source: { kind: 'connector', route: 'test-route', file: 'in/invoice.json', hash: randomUUID() },
    log: pino({ level: 'silent' }),
  };
});

afterAll(async () => {
  await deps?.temporal.connection.close();
  await storage?.close();
  await service?.stop();
});

describe('buildXRechnung', () => {
  it('builds, validates and stores the XML; the usage record names the operation and the connector source', async () => {
    const built = await buildXRechnung(deps, job, { invoice, syntax: 'CII' });
    expect(built.report.valid, JSON.stringify(built.report.findings)).toBe(true);
    expect(built.xml).toContain(invoice.invoiceNumber);
    expect(built.mail).toBeUndefined();
    const document = await storage.documents.get(built.documentId, service.accountId);
    expect(document?.fileName).toBe(`${invoice.invoiceNumber}.xml`);
    const usage = (await storage.usage.list(service.accountId)).filter((u) => u.documentId === built.documentId);
    expect(usage).toEqual([expect.objectContaining({ operation: 'createXinvoiceFromJson', units: 1, source: job.source })]);
  });

  it('refuses an invoice that does not fit the model with field problems, before any workflow runs', async () => {
    const broken = {
      ...invoice,
      invoiceIssueDate: '31.02.2024',
      documentTotals: { ...invoice.documentTotals, invoiceTotalAmountWithVat: 'lots' },
    };
    const before = await storage.usage.list(service.accountId);
    const refusal = await buildXRechnung(deps, job, { invoice: broken, syntax: 'UBL' }).catch((err: unknown) => err);
    expect(refusal).toBeInstanceOf(JobRefusal);
    expect((refusal as JobRefusal).code).toBe('VALIDATION_ERROR');
    expect((refusal as JobRefusal).options.fields).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ field: 'invoice.invoiceIssueDate', bt: 'BT-2' }),
        expect.objectContaining({ field: 'invoice.documentTotals.invoiceTotalAmountWithVat', bt: 'BT-112' }),
      ]),
    );
    expect(await storage.usage.list(service.accountId)).toEqual(before);
  });
});
