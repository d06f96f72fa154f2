import { execFile } from 'node:child_process';
import { readdirSync, statSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import { invoiceSchema } from '../src/invoice/model.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../src/render/index.js';
import { send, type Target } from './lib/keyed-client.js';
import { rssMiB } from './lib/process-memory.js';
import { quantile } from './lib/quantile.js';
import { repoRoot } from './lib/spawn-service.js';
import { startSplitService, type SplitService } from './lib/split-service.js';

/**
 * Load test (not in CI's time budget): `node dist-tools/scripts/load-test.js [--requests 3000]
 * [--concurrency 8] [--seconds 600] [--sample-seconds 5] [--database-url postgres://…]`.
 * API, worker and Temporal dev server run as processes of their own, as in production. A mix of
 * requests, each sent once (creates and sends with an Idempotency-Key of their own), runs at the
 * given concurrency until all are sent or the time is up: XML from JSON, XML from JSON with
 * e-mail, PDF to ZUGFeRD, XML validation, PDF analysis, e-mail delivery, in turn.
 *
 * Prints per endpoint the count, the errors (any answer but 2xx, or none) and p50/p95/p99 of
 * the wall time; the resident memory of each process every few seconds; and the database size
 * (with the stored files and Temporal's state) before and after. Memory is judged after warm-up
 * (the first quarter of the samples): a process whose peak in the last quarter lies more than
 * 128 MiB above its peak in the second quarter is growing. Exit code 1 on an error or a growing process.
 */

const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '3000' },
    concurrency: { type: 'string', default: '8' },
    seconds: { type: 'string', default: '600' },
    'sample-seconds': { type: 'string', default: '5' },
    'database-url': { type: 'string' },
  },
});
const total = Number(values.requests);
const concurrency = Number(values.concurrency);
const deadline = Date.now() + Number(values.seconds) * 1000;
const GROWTH_LIMIT_MIB = 128;

interface Kind {
  name: string;
  path: string;
  keyed: boolean;
  body: (i: number) => unknown;
}

async function requestMix(): Promise<Kind[]> {
  const invoice = invoiceSchema.parse(
    JSON.parse(await readFile(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8')),
  );
  const xml = await readFile(path.join(repoRoot, 'test/fixtures/validation/xrechnung-minimal.cii.xml'), 'utf8');
  const template = await loadTemplate(templateRoots('/nonexistent'), 'de-standard');
  const pdf = Buffer.from(
    (await renderInvoicePdf(invoice, template, { created: new Date('2025-03-12T10:00:00Z'), fileId: '0'.repeat(32) })).pdf,
  ).toString('base64');
  const email = (i: number) => ({
    type: 'email',
    useTransport: true,
    sender: 'rechnung@acme.example',
    receiver: `load-${i}@customer.example`,
    subject: 'Rechnung {invoicenumber}',
    message: 'Anbei die Rechnung.',
  });
  return [
    {
      name: 'createXinvoiceFromJson',
      path: '/api/v1/zugferd/createXinvoiceFromJson',
      keyed: true,
      body: (i) => ({ invoice: { ...invoice, invoiceNumber: `LOAD-${i}` } }),
    },
    {
      name: 'createXinvoiceFromJson + e-mail',
      path: '/api/v1/zugferd/createXinvoiceFromJson',
      keyed: true,
      body: (i) => ({ invoice: { ...invoice, invoiceNumber: `LOAD-${i}` }, transport: email(i) }),
    },
    {
      name: 'createZugferdFromPdf',
      path: '/createZugferdFromPdf',
      keyed: true,
      body: (i) => ({ fileBase64: pdf, fileName: `load-${i}.pdf` }),
    },
    { name: 'validateXinvoiceXml', path: '/api/v1/zugferd/validateXinvoiceXml', keyed: false, body: () => ({ xinvoiceXML: xml }) },
    {
      name: 'createJSONFromAnalysedPdf',
      path: '/createJSONFromAnalysedPdf',
      keyed: false,
      body: () => ({ pdfInvoiceBase64: pdf, withLineItems: true }),
    },
    {
      name: 'delivery (e-mail)',
      path: '/api/v1/delivery',
      keyed: true,
      body: (i) => ({
        transport: {
          type: 'email',
          useTransport: true,
          email: {
            sender: 'rechnung@acme.example',
            receiver: `load-${i}@customer.example`,
            subject: `Mahnung ${i}`,
            message: 'Bitte zahlen.',
          },
        },
      }),
    },
  ];
}

/** Bytes under a folder (files only). */
function folderBytes(dir: string): number {
  let sum = 0;
  for (const entry of readdirSync(dir, { withFileTypes: true, recursive: true }))
    if (entry.isFile()) sum += statSync(path.join(entry.parentPath, entry.name)).size;
  return sum;
}

async function sizes(split: SplitService): Promise<{ databaseMiB: number; filesMiB: number; temporalMiB: number }> {
  const mib = (bytes: number) => Math.round((bytes / 2 ** 20) * 10) / 10;
  const fileSize = (file: string) => statSync(file, { throwIfNoEntry: false })?.size ?? 0;
  let database: number;
  if (split.api.env.DATABASE_URL) {
    const { openStorage } = await import('../src/storage/index.js');
    const storage = await openStorage({ dataDir: split.api.dataDir, databaseUrl: split.api.env.DATABASE_URL });
    try {
      database = Number((await storage.db.query<{ n: string }>('SELECT pg_database_size(current_database()) AS n')).rows[0]!.n);
    } finally {
      await storage.close();
    }
  } else {
    const file = path.join(split.api.dataDir, 'einvoice.sqlite');
    database = fileSize(file) + fileSize(`${file}-wal`);
  }
  const temporal = fileSize(split.temporalDbFile) + fileSize(`${split.temporalDbFile}-wal`);
  return { databaseMiB: mib(database), filesMiB: mib(folderBytes(split.api.dataDir) - database), temporalMiB: mib(temporal) };
}

const split = await startSplitService({ name: 'load', env: values['database-url'] ? { DATABASE_URL: values['database-url'] } : {} });
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void split.stop().finally(() => process.exit(130)));
try {
  await promisify(execFile)(
    process.execPath,
    [path.join(repoRoot, 'dist/src/cli/accounts.js'), 'allow-sender', '--account', split.api.accountId, '--sender', 'acme.example'],
    { cwd: repoRoot, env: split.api.env },
  );
  const target: Target = { url: split.api.url, token: split.api.token };
  const kinds = await requestMix();
  const before = await sizes(split);
  const started = Date.now();
  const seconds = () => Math.round((Date.now() - started) / 1000);

  let sent = 0;
  const samples: Array<{ t: number; api: number; worker: number; temporal: number }> = [];
  const sample = () => {
    const { api, worker, temporal } = split.parts;
    samples.push({ t: seconds(), api: rssMiB(api.pid()), worker: rssMiB(worker.pid()), temporal: rssMiB(temporal.pid()) });
    const s = samples.at(-1)!;
    console.log(
      `${String(s.t).padStart(5)} s  ${String(sent).padStart(6)} sent  RSS api ${s.api} MiB, worker ${s.worker} MiB, temporal ${s.temporal} MiB`,
    );
  };
  const times = new Map<string, number[]>(kinds.map((k) => [k.name, []]));
  const errors = new Map<string, string[]>(kinds.map((k) => [k.name, []]));
  sample();
  const sampler = setInterval(sample, Number(values['sample-seconds']) * 1000);
  const client = async () => {
    while (sent < total && Date.now() < deadline) {
      const i = sent++;
      const kind = kinds[i % kinds.length]!;
      const t0 = performance.now();
      try {
        const answer = await send(target, kind.path, kind.body(i), kind.keyed ? `load-${started}-${i}` : undefined);
        if (answer.status < 200 || answer.status >= 300)
          errors.get(kind.name)!.push(`${answer.status} ${answer.body.toString('utf8').slice(0, 200)}`);
      } catch (err) {
        errors.get(kind.name)!.push((err as Error).message);
      }
      times.get(kind.name)!.push(performance.now() - t0);
    }
  };
  await Promise.all(Array.from({ length: concurrency }, client));
  clearInterval(sampler);
  sample();
  const elapsed = (Date.now() - started) / 1000;
  const after = await sizes(split);

  console.log(`\n${sent} requests at concurrency ${concurrency} in ${Math.round(elapsed)} s (${(sent / elapsed).toFixed(1)} per s)`);
  console.log('endpoint                             n  errors     p50 ms     p95 ms     p99 ms');
  for (const kind of kinds) {
    const t = times.get(kind.name)!;
    const q = (p: number) => String(Math.round(quantile(t, p))).padStart(10);
    console.log(
      `${kind.name.padEnd(32)} ${String(t.length).padStart(5)} ${String(errors.get(kind.name)!.length).padStart(7)} ${q(0.5)} ${q(0.95)} ${q(0.99)}`,
    );
  }
  for (const [name, list] of errors) for (const e of [...new Set(list)].slice(0, 5)) console.log(`  error ${name}: ${e}`);

  // Warm-up: the first quarter of the samples. Pools (veraPDF, OCR, SaxonJS) grow and shrink with
  // the mix, so single samples swing by a pool's size; a leak shows as a rising envelope, so the
  // peak of the last quarter is compared with the peak of the quarter right after warm-up.
  const quarter = (k: number) => samples.slice(Math.floor((samples.length * k) / 4), Math.floor((samples.length * (k + 1)) / 4));
  const early = quarter(1);
  const tail = quarter(3);
  const growing: string[] = [];
  console.log(`\nRSS peak after warm-up (${early[0]!.t}–${early.at(-1)!.t} s) → peak of the last quarter → end, MiB:`);
  for (const part of ['api', 'worker', 'temporal'] as const) {
    const level = Math.max(...early.map((s) => s[part]));
    const late = Math.max(...tail.map((s) => s[part]));
    console.log(`  ${part.padEnd(9)} ${level} → ${late} → ${samples.at(-1)![part]}`);
    if (late - level > GROWTH_LIMIT_MIB) growing.push(part);
  }
  console.log(
    `\nDatabase ${before.databaseMiB} → ${after.databaseMiB} MiB (${split.api.env.DATABASE_URL ? 'PostgreSQL' : 'SQLite'}), rest of the data folder (documents, outbox, logs) ${before.filesMiB} → ${after.filesMiB} MiB, Temporal state ${before.temporalMiB} → ${after.temporalMiB} MiB`,
  );
  const errorCount = [...errors.values()].reduce((sum, list) => sum + list.length, 0);
  console.log(
    `${errorCount} error(s); memory ${growing.length ? `growing after warm-up: ${growing.join(', ')}` : `flat after warm-up (within ${GROWTH_LIMIT_MIB} MiB)`}`,
  );
  process.exitCode = errorCount || growing.length ? 1 : 0;
} finally {
  await split.stop();
}
