import { Client, Connection } from '@temporalio/client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { retentionScheduleId } from '../../src/temporal/schedules.js';
import { byName } from './client.js';

/**
 * The retention job runs as a Temporal Schedule that the worker sets up: every hour, one run at a
 * time. Triggered here, it removes an idempotency key whose 24 hours are over (the full set of
 * rules is test/storage/retention.test.ts).
 */

const service = byName('sqlite');
let temporal: Client;
let storage: Storage;

beforeAll(async () => {
  temporal = new Client({ connection: await Connection.connect({ address: service.temporalAddress }), namespace: service.namespace });
  storage = await openStorage({ dataDir: service.dataDir, databaseUrl: undefined });
});
afterAll(async () => {
  await storage?.close();
  await temporal?.connection.close();
});

it("is a Temporal Schedule: hourly, no overlap, on the worker's queue; a run removes what expired", { timeout: 120_000 }, async () => {
  const schedule = temporal.schedule.getHandle(retentionScheduleId(service.taskQueue));
  const described = await schedule.describe();
  expect(described.spec.intervals).toEqual([expect.objectContaining({ every: 3_600_000 })]);
  expect(described.policies.overlap).toBe('SKIP');
  expect(described.action).toMatchObject({ type: 'startWorkflow', workflowType: 'retention', taskQueue: service.taskQueue });

  await storage.idempotency.claim({ accountId: service.accountId, key: 'retention-test', requestHash: 'h', ttlMs: 1 }, Date.now() - 60_000);
  const { rows } = await storage.db.query<{ n: number }>("SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = 'retention-test'");
  expect(Number(rows[0]!.n)).toBe(1);
  const before = (await schedule.describe()).info.recentActions.length;
  await schedule.trigger();
  const deadline = Date.now() + 90_000;
  for (;;) {
    const recent = (await schedule.describe()).info.recentActions;
    const run = recent.length > before ? recent.at(-1)! : undefined;
    if (run) {
      const result = await temporal.workflow.getHandle(run.action.workflow.workflowId).result();
      expect(result.idempotencyKeys).toBeGreaterThanOrEqual(1);
      break;
    }
    if (Date.now() > deadline) throw new Error('the triggered retention run did not start');
    await new Promise((r) => setTimeout(r, 500));
  }
  const after = await storage.db.query<{ n: number }>("SELECT COUNT(*) AS n FROM idempotency_keys WHERE key = 'retention-test'");
  expect(Number(after.rows[0]!.n)).toBe(0);
});
