import { afterAll, beforeAll, expect, it } from 'vitest';
import { memoryProblem, runFuzz } from '../../scripts/lib/fuzz.js';
import { spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';

/**
 * Fuzzing the JSON and XML parsers and the file intake through the HTTP API (scripts/lib/fuzz.ts
 * makes the cases): 500 generated requests, none answered 500 or above, and the service's memory
 * does not keep growing. `node dist-tools/scripts/fuzz.js --runs 10000` is the long run. FUZZ_SEED
 * repeats a run.
 */

let service: SpawnedService;
beforeAll(async () => {
  service = await spawnService({ name: 'fuzz' });
}, 180_000);
afterAll(() => service?.stop());

it('500 generated requests: no answer of 500 or above, memory bounded', { timeout: 1_200_000 }, async () => {
  const seed = Number(process.env.FUZZ_SEED ?? Date.now() % 1_000_000);
  const report = await runFuzz(
    { url: service.url, token: service.token, pid: service.pid()! },
    { runs: 500, seed, log: (line) => console.log(`[fuzz ${seed}] ${line}`) },
  );
  console.log(`[fuzz ${seed}] ${JSON.stringify(report)}`);
  expect(report.failures, `seed ${seed}`).toEqual([]);
  expect(report.cases).toBe(500);
  expect(memoryProblem(report), `seed ${seed}`).toBeUndefined();
});
