import { execFile } from 'node:child_process';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { runChaos } from './lib/chaos.js';
import { repoRoot } from './lib/spawn-service.js';
import { startSplitService } from './lib/split-service.js';

/**
 * Fault injection at length (not in CI's time budget): `node dist-tools/scripts/fault-injection.js
 * [--kills 100] [--concurrency 4] [--gap-seconds 2,10] [--down-seconds 0.5,5] [--seed N]
 * [--database-url postgres://…]`. API, worker and Temporal dev server run as processes of their
 * own and are killed (SIGKILL) at random moments (seconds between kills and seconds down drawn
 * from the given ranges) while create, convert and e-mail requests with Idempotency-Keys are retried until answered;
 * then scripts/lib/chaos.ts checks one document per request, one e-mail per recipient and the
 * bytes against a run without kills. Exit code 1 when a check failed.
 */

const { values } = parseArgs({
  options: {
    kills: { type: 'string', default: '100' },
    concurrency: { type: 'string', default: '4' },
    'gap-seconds': { type: 'string', default: '2,10' },
    'down-seconds': { type: 'string', default: '0.5,5' },
    seed: { type: 'string' },
    'database-url': { type: 'string' },
  },
});
/** "min,max" in seconds. */
function range(text: string): [number, number] {
  const [lo, hi] = text.split(',').map(Number);
  if (!(lo! >= 0 && hi! >= lo!)) throw new Error(`expected "min,max" seconds, got "${text}"`);
  return [lo!, hi!];
}
const seed = Number(values.seed ?? Date.now() % 1_000_000);
// The API answers 504 after a minute (the client sends again, and joins the same workflow), as behind a proxy.
const env = {
  SOURCE_DATE_EPOCH: '1767225600',
  WORKFLOW_WAIT_SECONDS: '60',
  ...(values['database-url'] ? { DATABASE_URL: values['database-url'] } : {}),
};
const split = await startSplitService({ name: 'fault-injection', env });
// Ctrl-C stops the processes it started too.
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void split.stop().finally(() => process.exit(130)));
try {
  await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'dist/src/cli/accounts.js'), 'allow-sender', '--account', split.api.accountId, '--sender', 'acme.example'],
    { cwd: repoRoot, env: split.api.env },
  );
  const report = await runChaos(split, {
    kills: Number(values.kills),
    concurrency: Number(values.concurrency),
    gapSeconds: range(values['gap-seconds']),
    downSeconds: range(values['down-seconds']),
    seed,
    log: (line) => console.log(`${new Date().toISOString().slice(11, 19)} ${line}`),
  });
  console.log(JSON.stringify(report, null, 2));
  console.log(
    report.problems.length
      ? `FAILED: ${report.problems.length} problem(s); repeat with --seed ${seed}`
      : `passed: ${report.requests} requests, ${Object.values(report.kills).reduce((a, b) => a + b, 0)} kills (${JSON.stringify(report.kills)}), ${report.retried} answered only after a retry, ${report.seconds} s`,
  );
  process.exitCode = report.problems.length ? 1 : 0;
} finally {
  await split.stop();
}
