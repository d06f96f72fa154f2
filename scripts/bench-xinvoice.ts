import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { repoRoot, spawnService } from './lib/spawn-service.js';
import { quantile } from './lib/quantile.js';
import { treeCpuMs } from './lib/process-memory.js';

/**
 * Benchmark (not a test): createXinvoiceFromJson end to end — HTTP, Temporal
 * workflow (build → validate → store), official rules — on this machine.
 *   node dist-tools/scripts/bench-xinvoice.js [--requests 60] [--concurrency 8] [--warm-up 5] [--database-url postgres://…]
 */
const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '60' },
    concurrency: { type: 'string', default: '8' },
    // The JVM compiles the rules' hot paths over the first hundreds of invoices: with a few warm-up
    // requests the sequential figures include that compiling; with a few hundred they do not.
    'warm-up': { type: 'string', default: '5' },
    'database-url': { type: 'string' },
  },
});
const requests = Number(values.requests);
const concurrency = Number(values.concurrency);

const fixturesDir = path.join(repoRoot, 'test/fixtures/invoices');
const invoices = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(fixturesDir, f), 'utf8')));

const service = await spawnService({ name: 'bench', env: values['database-url'] ? { DATABASE_URL: values['database-url'] } : {} });
try {
  const once = async (i: number): Promise<number> => {
    const started = performance.now();
    const res = await fetch(`${service.url}/api/v1/zugferd/createXinvoiceFromJson`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ invoice: invoices[i % invoices.length] }),
    });
    const body = (await res.json()) as { valid?: boolean };
    if (res.status !== 200 || body.valid !== true) throw new Error(`request ${i}: HTTP ${res.status} valid=${body.valid}`);
    return performance.now() - started;
  };

  for (let i = 0; i < Number(values['warm-up']); i++) await once(i); // warm-up: JIT, compiled rules, connections

  const cpu = (): CpuSnapshot => ({ service: treeCpuMs(service.pid()), client: process.cpuUsage() });
  const atStart = cpu();
  const sequential: number[] = [];
  for (let i = 0; i < requests; i++) sequential.push(await once(i));
  const afterSequential = cpu();

  const concurrent: number[] = [];
  let next = 0;
  const wallStart = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < requests) concurrent.push(await once(next++));
    }),
  );
  const wall = (performance.now() - wallStart) / 1000;
  const atEnd = cpu();

  console.log(`createXinvoiceFromJson, ${invoices.length} fixture invoices, database ${values['database-url'] ? 'PostgreSQL' : 'SQLite'}`);
  console.log(`sequential  n=${requests}: median ${pct(sequential, 50)} ms, p95 ${pct(sequential, 95)} ms`);
  console.log(
    `concurrency ${concurrency} n=${requests}: median ${pct(concurrent, 50)} ms, p95 ${pct(concurrent, 95)} ms, throughput ${(requests / wall).toFixed(1)} requests/s`,
  );
  console.log(`CPU per request, sequential:  ${cpuPerRequest(atStart, afterSequential)}`);
  console.log(`CPU per request, concurrent:  ${cpuPerRequest(afterSequential, atEnd)}`);
} finally {
  await service.stop();
}

/** Milliseconds of CPU per request by process (the service's node, its Temporal dev server, …) and for this client. */
interface CpuSnapshot {
  service: Map<string, number>;
  client: NodeJS.CpuUsage;
}

function cpuPerRequest(from: CpuSnapshot, to: CpuSnapshot): string {
  const parts = [...to.service].map(([comm, ms]) => [comm, (ms - (from.service.get(comm) ?? 0)) / requests] as const);
  const client = (to.client.user + to.client.system - from.client.user - from.client.system) / 1000 / requests;
  return [...parts.filter(([, ms]) => ms >= 0.5), ['bench client', client] as const]
    .map(([c, ms]) => `${c} ${ms.toFixed(1)} ms`)
    .join(', ');
}

function pct(values: number[], p: number): string {
  return quantile(values, p / 100).toFixed(0);
}
