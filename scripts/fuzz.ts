import { parseArgs } from 'node:util';
import { memoryProblem, runFuzz } from './lib/fuzz.js';
import { spawnService } from './lib/spawn-service.js';

/**
 * The long fuzzing run (not in CI's time budget): `node dist-tools/scripts/fuzz.js [--runs 10000]
 * [--seed N]`. Starts the service, sends the generated requests of scripts/lib/fuzz.ts one after
 * another and prints the statuses, every answer of 500 or above with what was sent, and the
 * service's resident memory after each tenth and its peak. Exit code 1 when an answer was 500 or
 * above or memory was not bounded (scripts/lib/fuzz.ts: memoryProblem).
 */

const { values } = parseArgs({ options: { runs: { type: 'string', default: '10000' }, seed: { type: 'string' } } });
const seed = Number(values.seed ?? Date.now() % 1_000_000);
const service = await spawnService({ name: 'fuzz' });
try {
  const report = await runFuzz(
    { url: service.url, token: service.token, pid: service.pid()! },
    { runs: Number(values.runs), seed, log: (line) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`) },
  );
  console.log(JSON.stringify(report, null, 2));
  const memory = memoryProblem(report);
  console.log(
    `${report.cases} cases in ${report.seconds} s, seed ${seed}: ${report.failures.length} answer(s) of 500 or above; service RSS ${report.rssMiB.join(' → ')} MiB, peak ${report.peak.rssMiB} MiB; memory ${memory ?? 'bounded'}`,
  );
  process.exitCode = report.failures.length || memory ? 1 : 0;
} finally {
  await service.stop();
}
