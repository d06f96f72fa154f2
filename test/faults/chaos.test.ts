import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runChaos } from '../../scripts/lib/chaos.js';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import { startSplitService, type SplitService } from '../../scripts/lib/split-service.js';

/**
 * The fault-injection suite of issue 15, short: 8 kills (SIGKILL) of the API, the worker and the
 * Temporal server at random moments during create, convert and e-mail requests that carry
 * Idempotency-Keys and are retried until answered (scripts/lib/chaos.ts has the checks).
 * `node dist-tools/scripts/fault-injection.js` runs 100 kills. CHAOS_SEED repeats a run.
 */

const exec = promisify(execFile);
let split: SplitService;

beforeAll(async () => {
  split = await startSplitService({ name: 'chaos', env: { SOURCE_DATE_EPOCH: '1767225600' } });
  await exec(
    process.execPath,
    [path.join(repoRoot, 'dist/src/cli/accounts.js'), 'allow-sender', '--account', split.api.accountId, '--sender', 'acme.example'],
    { cwd: repoRoot, env: split.api.env },
  );
}, 240_000);

afterAll(() => split?.stop());

it(
  '8 kills of API, worker and Temporal: one document per request, one e-mail per recipient, the same bytes as without kills',
  { timeout: 1_200_000 },
  async () => {
    const seed = Number(process.env.CHAOS_SEED ?? Date.now() % 1_000_000);
    const report = await runChaos(split, {
      kills: 8,
      concurrency: 3,
      gapSeconds: [3, 8],
      downSeconds: [0.5, 3],
      seed,
      log: (line) => console.log(`[chaos ${seed}] ${line}`),
    });
    console.log(`[chaos ${seed}] ${JSON.stringify(report)}`);
    expect(report.problems, `seed ${seed}`).toEqual([]);
    expect(report.requests).toBeGreaterThanOrEqual(9);
    // The kills hit requests in flight: some were answered only on a later attempt.
    expect(report.retried).toBeGreaterThan(0);
  },
);
