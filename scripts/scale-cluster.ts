import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { invoiceSchema } from '../src/invoice/model.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../src/render/index.js';
import { limitCpus } from './lib/cpu-limit.js';
import { quantile } from './lib/quantile.js';
import { startRoleProcess, type RoleProcess } from './lib/role-process.js';
import { scanProfile, seedOf } from './lib/scan-simulation.js';
import { scannedPdf } from './lib/scanned-pdf.js';
import { repoRoot, spawnService, type SpawnedService } from './lib/spawn-service.js';
import { clusterAvailable, setupSchema, startCluster } from './lib/temporal-cluster.js';

/**
 * Scale test (not a unit test) on a real multi-service Temporal cluster without Docker: the
 * Temporal server built from the Go module proxy (scripts/setup-temporal-cluster.sh) with its
 * schema in PostgreSQL, started as frontend, history, matching and worker processes; the API as
 * a process of its own (EINVOICE_ROLE=api, metadata in the same PostgreSQL); then 1, 2 and 3
 * worker processes, each serving a set of workload queues (EINVOICE_WORKER_QUEUES):
 *
 *   1 worker:  quick,pdf,ocr,mail
 *   2 workers: quick,pdf,mail | ocr
 *   3 workers: quick,mail | pdf | ocr
 *
 * For each layout, three phases, each at least --seconds long and until the last scan is read:
 * XML creation alone (createXinvoiceFromJson, --xml-clients in a closed loop); the same with a
 * burst of scans (image-only PDFs, printed and scanned in simulation) submitted at once to the
 * async analysis, on the OCR queue; and the whole mix: XML creations, ZUGFeRD creations
 * (createZugferdFromJson on a rendered PDF/A), analyses of text PDFs (createJSONFromAnalysedPdf)
 * and the burst of scans. It reports per operation throughput and p50/p95 latency, and how far
 * the burst raised the p95 of XML creation. --ocr-nice starts a worker that serves only OCR at a
 * lower CPU priority; --ocr-cpus limits it to that many cores with a control group, as a container
 * CPU limit does (deploy/): on one machine, what a machine of its own does for OCR in a cluster.
 *
 *   bash scripts/scale-cluster.sh [--layouts 1,2,3] [--seconds 45] [--scans 12] [--xml-clients 2] [--ocr-nice 10] [--ocr-cpus 0.5] [--json FILE]
 *
 * (the shell script builds the server once, starts a private PostgreSQL and runs this with --postgres-url).
 */

const { values: args } = parseArgs({
  options: {
    'postgres-url': { type: 'string' },
    layouts: { type: 'string', default: '1,2,3' },
    seconds: { type: 'string', default: '45' },
    scans: { type: 'string', default: '12' },
    'xml-clients': { type: 'string', default: '2' },
    shards: { type: 'string', default: '16' },
    /** CPU priority of a worker process that serves only OCR (nice value; 0: none). */
    'ocr-nice': { type: 'string', default: '0' },
    /** Cores a worker process that serves only OCR may use (a cgroup CPU quota; 0: no limit). */
    'ocr-cpus': { type: 'string', default: '0' },
    json: { type: 'string' },
    keep: { type: 'boolean', default: false },
  },
});
if (!args['postgres-url']) throw new Error('--postgres-url is required (scripts/scale-cluster.sh starts a private PostgreSQL)');
if (!clusterAvailable()) throw new Error('The Temporal server is not built: run scripts/setup-temporal-cluster.sh');
const SECONDS = Number(args.seconds);
const SCANS = Number(args.scans);
const XML_CLIENTS = Number(args['xml-clients']);
const OCR_NICE = Number(args['ocr-nice']);
const OCR_CPUS = Number(args['ocr-cpus']);

const LAYOUTS: Record<string, string[]> = {
  '1': ['quick,pdf,ocr,mail'],
  '2': ['quick,pdf,mail', 'ocr'],
  '3': ['quick,mail', 'pdf', 'ocr'],
};

type Op = 'createXinvoiceFromJson' | 'createZugferdFromJson' | 'analyse text PDF' | 'analyse scan (async)';
interface OpFigures {
  op: Op;
  done: number;
  failed: number;
  perMinute: number;
  p50: number;
  p95: number;
}
interface PhaseResult {
  phase: 'xml alone' | 'xml + scans' | 'mixed';
  seconds: number;
  /** The machine's 1-minute load average at the end of the phase: other work on the machine shows here. */
  load: number;
  ops: OpFigures[];
}
interface LayoutResult {
  workers: number;
  queues: string[];
  phases: PhaseResult[];
  /** p95 of XML creation during the scan burst over its p95 alone. */
  xmlP95Ratio: number;
  /** Peak resident memory of each worker process tree, MiB. */
  peakRssMb: number[];
}

// ---------------------------------------------------------------- inputs

const fixturesDir = path.join(repoRoot, 'test/fixtures/invoices');
const fixtures = readdirSync(fixturesDir)
  .filter((f) => f.endsWith('.json'))
  .sort()
  .map((f) => JSON.parse(readFileSync(path.join(fixturesDir, f), 'utf8')) as Record<string, unknown>);

async function inputs() {
  const template = await loadTemplate(templateRoots('/nonexistent'), 'de-standard');
  const rendered = [];
  for (const [i, fixture] of fixtures.slice(0, 4).entries()) {
    const { pdf } = await renderInvoicePdf(invoiceSchema.parse(fixture), template, {
      created: new Date('2026-01-15T10:00:00Z'),
      fileId: String(i).padStart(32, '0'),
    });
    rendered.push({ fixture, pdf: Buffer.from(pdf) });
  }
  const scans = [];
  for (const [i, r] of rendered.entries()) scans.push(Buffer.from(await scannedPdf(r.pdf, scanProfile(seedOf(`scale-${i}`)))));
  return { rendered, scans };
}

// ---------------------------------------------------------------- load

class Recorder {
  readonly times = new Map<Op, number[]>();
  readonly failures = new Map<Op, number>();
  async time(op: Op, call: () => Promise<void>): Promise<void> {
    const started = performance.now();
    try {
      await call();
      (this.times.get(op) ?? this.times.set(op, []).get(op)!).push(performance.now() - started);
    } catch (err) {
      this.failures.set(op, (this.failures.get(op) ?? 0) + 1);
      console.error(`  ${op} failed: ${(err as Error).message.slice(0, 300)}`);
    }
  }
  figures(seconds: number): OpFigures[] {
    const ops = [...new Set<Op>([...this.times.keys(), ...this.failures.keys()])];
    return ops.map((op) => {
      const t = this.times.get(op) ?? [];
      return {
        op,
        done: t.length,
        failed: this.failures.get(op) ?? 0,
        perMinute: (t.length / seconds) * 60,
        p50: quantile(t, 0.5),
        p95: quantile(t, 0.95),
      };
    });
  }
}

function client(service: SpawnedService) {
  const post = async (route: string, body: unknown, check: (json: any) => boolean): Promise<any> => {
    const res = await fetch(`${service.url}${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status !== 200 || !check(json)) throw new Error(`${route}: HTTP ${res.status} ${JSON.stringify(json).slice(0, 300)}`);
    return json;
  };
  const get = async (route: string): Promise<any> => {
    const res = await fetch(`${service.url}${route}`, { headers: { authorization: `Bearer ${service.token}` } });
    if (res.status !== 200) throw new Error(`${route}: HTTP ${res.status}`);
    return res.json();
  };
  return { post, get };
}

type Inputs = Awaited<ReturnType<typeof inputs>>;

function operations(service: SpawnedService, input: Inputs) {
  const { post, get } = client(service);
  let n = 0;
  const next = <T>(list: T[]) => list[n++ % list.length]!;
  return {
    xml: () => post('/api/v1/zugferd/createXinvoiceFromJson', { invoice: next(fixtures) }, (j) => typeof j.xInvoice === 'string'),
    zugferd: () => {
      const r = next(input.rendered);
      return post(
        '/api/v1/zugferd/createZugferdFromJson',
        { invoice: r.fixture, invoicePdf64: r.pdf.toString('base64') },
        (j) => j.zugferdValid === true,
      );
    },
    analyseText: () =>
      post('/createJSONFromAnalysedPdf', { fileBase64: next(input.rendered).pdf.toString('base64') }, (j) => j.invoice !== undefined),
    analyseScan: async (scan: Buffer) => {
      const { job_id: id } = await post(
        '/createJSONFromAnalysedPdfAsync',
        { fileBase64: scan.toString('base64') },
        (j) => typeof j.job_id === 'string',
      );
      for (;;) {
        const status = await get(`/service-invoice-async-status?id=${id}`);
        if (status.status === 'done') return;
        if (status.status === 'failed') throw new Error(`scan analysis failed: ${JSON.stringify(status.error)}`);
        // Polls load the API and Temporal like any request: once a second (the API suggests three).
        await new Promise((r) => setTimeout(r, 1000));
      }
    },
  };
}

/** `clients` loops calling `op` until `until()` says stop. */
async function closedLoop(recorder: Recorder, op: Op, clients: number, call: () => Promise<unknown>, until: () => boolean): Promise<void> {
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (!until()) await recorder.time(op, async () => void (await call()));
    }),
  );
}

async function runLayout(service: SpawnedService, input: Inputs, workers: number): Promise<LayoutResult> {
  const queues = LAYOUTS[String(workers)]!;
  const procs: RoleProcess[] = [];
  const unlimit: Array<() => void> = [];
  for (const [i, q] of queues.entries()) {
    const name = `worker-${workers}-${i + 1}`;
    const proc = await startRoleProcess(
      service,
      'worker',
      name,
      { EINVOICE_WORKER_QUEUES: q, LOG_LEVEL: 'info' },
      q === 'ocr' && OCR_NICE ? OCR_NICE : 0,
    );
    procs.push(proc);
    if (q === 'ocr' && OCR_CPUS > 0) unlimit.push(limitCpus(proc.child.pid!, OCR_CPUS, `einvoice-scale-${process.pid}-${name}`));
  }
  const peaks = procs.map(() => 0);
  const sampler = setInterval(() => procs.forEach((p, i) => (peaks[i] = Math.max(peaks[i]!, treeRss(p.child.pid!)))), 250);
  try {
    const ops = operations(service, input);
    // Warm-up: compiled rules, veraPDF's JVM, the OCR engines, the sandbox.
    await Promise.all([ops.xml(), ops.zugferd(), ops.analyseText(), ops.analyseScan(input.scans[0]!)]);

    const phases: PhaseResult[] = [];
    // XML creation alone; with a burst of scans; with the whole mix.
    phases.push(await phase('xml alone', 0, false));
    phases.push(await phase('xml + scans', SCANS, false));
    phases.push(await phase('mixed', SCANS, true));
    const p95 = (phase: PhaseResult) => phase.ops.find((o) => o.op === 'createXinvoiceFromJson')!.p95;
    return {
      workers,
      queues,
      phases,
      xmlP95Ratio: p95(phases[1]!) / p95(phases[0]!),
      peakRssMb: peaks.map((b) => Math.round(b / 1024 / 1024)),
    };

    /** XML creation in a closed loop for at least SECONDS, beside a burst of `scans` and, with `mixed`, the other operations; until the last scan is read. */
    async function phase(name: PhaseResult['phase'], scans: number, mixed: boolean): Promise<PhaseResult> {
      const recorder = new Recorder();
      const started = performance.now();
      let scansLeft = scans;
      const burst = Array.from({ length: scans }, (_, i) =>
        recorder.time('analyse scan (async)', () => ops.analyseScan(input.scans[i % input.scans.length]!)).finally(() => scansLeft--),
      );
      const until = () => performance.now() > started + SECONDS * 1000 && scansLeft === 0;
      await Promise.all([
        ...burst,
        closedLoop(recorder, 'createXinvoiceFromJson', XML_CLIENTS, ops.xml, until),
        ...(mixed
          ? [
              closedLoop(recorder, 'createZugferdFromJson', 1, ops.zugferd, until),
              closedLoop(recorder, 'analyse text PDF', 1, ops.analyseText, until),
            ]
          : []),
      ]);
      const seconds = (performance.now() - started) / 1000;
      return { phase: name, seconds, load: os.loadavg()[0]!, ops: recorder.figures(seconds) };
    }
  } finally {
    clearInterval(sampler);
    for (const p of procs) await p.stop();
    for (const remove of unlimit) remove();
  }
}

// ---------------------------------------------------------------- report

function print(results: LayoutResult[]): void {
  const ms = (v: number) => (Number.isNaN(v) ? '-' : v >= 10_000 ? `${(v / 1000).toFixed(1)} s` : `${Math.round(v)} ms`);
  for (const r of results) {
    console.log(
      `\n${r.workers} worker process(es): ${r.queues.map((q) => `[${q}]`).join(' ')}, peak RSS ${r.peakRssMb.map((m) => `${m} MiB`).join(' / ')}`,
    );
    console.log('  phase        operation                  done  failed   per min      p50      p95');
    for (const phase of r.phases) {
      for (const o of phase.ops) {
        console.log(
          `  ${phase.phase.padEnd(12)} ${o.op.padEnd(25)} ${String(o.done).padStart(5)} ${String(o.failed).padStart(7)} ${o.perMinute.toFixed(1).padStart(9)} ${ms(o.p50).padStart(8)} ${ms(o.p95).padStart(8)}`,
        );
      }
      console.log(`  ${''.padEnd(12)} (${phase.seconds.toFixed(0)} s, load average ${phase.load.toFixed(1)})`);
    }
    console.log(
      `  XML creation p95 during the scan burst: ${(r.xmlP95Ratio * 100).toFixed(0)} % of its p95 alone (${r.xmlP95Ratio <= 1.2 ? 'within' : 'ABOVE'} the 120 % bound)`,
    );
  }
}

/** Resident memory of a process and everything below it (sandboxes, veraPDF's JVM, Ghostscript), bytes. */
function treeRss(root: number): number {
  const children = new Map<number, number[]>();
  const rss = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const parent = Number(fields[1]);
      (children.get(parent) ?? children.set(parent, []).get(parent)!).push(Number(entry));
      rss.set(Number(entry), Number(fields[21]) * 4096);
    } catch {
      // ended while we looked
    }
  }
  let total = 0;
  for (const stack = [root]; stack.length;) {
    const pid = stack.pop()!;
    total += rss.get(pid) ?? 0;
    stack.push(...(children.get(pid) ?? []));
  }
  return total;
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'einvoice-scale-'));
  const postgresUrl = args['postgres-url']!;
  const prefix = `scale${Date.now()}_`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${prefix}einvoice`);
  await admin.end();
  const started = performance.now();
  const clusterOpts = { postgresUrl, dir: path.join(dir, 'temporal'), historyShards: Number(args.shards), databasePrefix: prefix };
  await setupSchema(clusterOpts);
  const cluster = await startCluster(clusterOpts);
  console.log(
    `Temporal ${cluster.address}: frontend, history, matching, worker as processes ${Object.values(cluster.pids).join(', ')}; ${args.shards} history shards; schema and start ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  let service: SpawnedService | undefined;
  try {
    const databaseUrl = Object.assign(new URL(postgresUrl), { pathname: `/${prefix}einvoice` }).toString();
    service = await spawnService({
      name: 'scale',
      env: { EINVOICE_ROLE: 'api', TEMPORAL_ADDRESS: cluster.address, DATABASE_URL: databaseUrl, LOG_LEVEL: 'warn' },
    });
    console.log(`API ${service.url} (EINVOICE_ROLE=api), queue ${service.taskQueue}; preparing inputs…`);
    const input = await inputs();
    console.log(
      `mixed load: ${XML_CLIENTS} XML clients, 1 ZUGFeRD client, 1 text-analysis client, a burst of ${SCANS} scans; phases of at least ${SECONDS} s; ${os.availableParallelism()} cores`,
    );
    const results: LayoutResult[] = [];
    for (const workers of args.layouts!.split(',').map(Number)) {
      console.log(`\nlayout with ${workers} worker process(es)…`);
      results.push(await runLayout(service, input, workers));
      print(results.slice(-1));
    }
    console.log('\nsummary');
    print(results);
    if (args.json)
      writeFileSync(
        args.json,
        JSON.stringify(
          {
            cores: os.availableParallelism(),
            seconds: SECONDS,
            scans: SCANS,
            xmlClients: XML_CLIENTS,
            ocrNice: OCR_NICE,
            ocrCpus: OCR_CPUS,
            results,
          },
          null,
          2,
        ),
      );
  } finally {
    await service?.stop();
    await cluster.stop();
    if (!args.keep) rmSync(dir, { recursive: true, force: true });
  }
}

await main();
