import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorCounts, enterConnectorFile, finishConnectorFile } from '../../src/storage/connector-ledger.js';
import type { Database } from '../../src/storage/database.js';
import { BACKENDS, SETUP_TIMEOUT_MS, openTestDatabase } from './helpers.js';

describe.each(BACKENDS)('connector ledger on %s', (backend) => {
  let db: Database;
  let cleanup: () => Promise<void>;
  beforeAll(async () => {
    ({ db, cleanup } = await openTestDatabase(backend));
  }, SETUP_TIMEOUT_MS);
  afterAll(() => cleanup?.());

  const file = (hash: string, fileName = 'invoice.pdf') => ({
    route: 'copier',
    contentHash: hash,
    workflowId: `connectorFile-copier-${hash}`,
    fileName,
  });

  it('makes exactly one of 10 concurrent entries of the same content the first; the others see it processing', async () => {
    const results = await Promise.all(Array.from({ length: 10 }, (_, i) => enterConnectorFile(db, file('h1', `copy-${i}.pdf`), 1_000)));
    expect(results.filter((r) => r.outcome === 'new')).toHaveLength(1);
    expect(results.filter((r) => r.outcome === 'processing')).toHaveLength(9);
  });

  it('calls a later copy of finished content a duplicate, naming the first copy', async () => {
    await enterConnectorFile(db, file('h2', 'first.pdf'), 1_000);
    await finishConnectorFile(db, { route: 'copier', contentHash: 'h2', status: 'done', resultPath: 'out/first-zugferd.pdf' }, 2_000);
    // A retried activity finishes it again: the first finish time stays.
    await finishConnectorFile(db, { route: 'copier', contentHash: 'h2', status: 'done', resultPath: 'out/first-zugferd.pdf' }, 3_000);
    const again = await enterConnectorFile(db, file('h2', 'second.pdf'), 4_000);
    expect(again).toEqual({
      outcome: 'finished',
      entry: expect.objectContaining({
        fileName: 'first.pdf',
        status: 'done',
        resultPath: 'out/first-zugferd.pdf',
        firstSeenAt: 1_000,
        finishedAt: 2_000,
      }),
    });
    // The same content on another route is another job.
    expect((await enterConnectorFile(db, { ...file('h2'), route: 'scanner' })).outcome).toBe('new');
  });

  it('counts files per route and state', async () => {
    await enterConnectorFile(db, file('h3'));
    await finishConnectorFile(db, { route: 'copier', contentHash: 'h3', status: 'refused', resultPath: null });
    expect((await connectorCounts(db)).get('copier')).toEqual({ processing: 1, done: 1, refused: 1, failed: 0 });
  });
});
