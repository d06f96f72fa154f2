import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { invoiceSchema, type Invoice } from '../../src/invoice/model.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../../src/render/index.js';
import { sendUntilAnswered, type Answer, type Target } from './keyed-client.js';
import { prng } from './scan-simulation.js';
import { repoRoot } from './spawn-service.js';
import type { Part, SplitService } from './split-service.js';

/**
 * Fault injection: a mix of create, convert and e-mail requests, each with its Idempotency-Key
 * and sent again until answered, while the API, the worker and the Temporal server are killed
 * (SIGKILL) at random moments and started again. Afterwards the same requests run once more
 * without kills (other keys), and the two runs are compared:
 *
 * - every request answered, with exactly one document per create and convert request;
 * - at most one e-mail per recipient, and the answer's Message-ID is that e-mail's, found once
 *   in the outbox;
 * - every created document, downloaded, and every converted PDF byte-identical to the run
 *   without kills (the service runs with SOURCE_DATE_EPOCH, so equal requests give equal bytes).
 *
 * test/faults/chaos.test.ts runs a short version in CI, scripts/fault-injection.ts 100 kills.
 */

export interface ChaosOptions {
  /** How many kills, spread over the three parts. */
  kills: number;
  /** Requests in flight at once. */
  concurrency: number;
  /** Seconds between kills: uniformly in [min, max]. */
  gapSeconds: [number, number];
  /** Seconds a killed part stays down. */
  downSeconds: [number, number];
  seed: number;
  log?: (line: string) => void;
}

export interface ChaosReport {
  seed: number;
  requests: number;
  kills: Record<Part['name'], number>;
  /** Requests that needed more than one attempt. */
  retried: number;
  attempts: number;
  problems: string[];
  seconds: number;
}

type Kind = 'create' | 'convert' | 'email';

interface Planned {
  index: number;
  kind: Kind;
  path: string;
  body: (run: string) => unknown;
  receiver: (run: string) => string | undefined;
}

interface Done {
  plan: Planned;
  run: string;
  key: string;
  answer: Answer;
}

const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function runChaos(split: SplitService, opts: ChaosOptions): Promise<ChaosReport> {
  const log = opts.log ?? (() => undefined);
  const rnd = prng(opts.seed); // seeded, so that a failing run can be repeated
  const between = ([lo, hi]: [number, number]) => (lo + (hi - lo) * rnd()) * 1000;
  const target: Target = { url: split.api.url, token: split.api.token };
  const started = Date.now();
  const plans = await planner();
  const documentsBefore = await documentCount(split);

  // The kills, one after another, while requests flow.
  const kills: ChaosReport['kills'] = { temporal: 0, api: 0, worker: 0 };
  let killing = true;
  const killer = (async () => {
    // Spread evenly: each part once in every three kills, in a random order.
    const order: Part[] = [];
    while (order.length < opts.kills) order.push(...Object.values(split.parts).sort(() => rnd() - 0.5));
    for (let k = 0; k < opts.kills; k++) {
      await pause(between(opts.gapSeconds));
      const part = order[k]!;
      await part.kill();
      kills[part.name]++;
      log(`kill ${k + 1}/${opts.kills}: ${part.name}`);
      await pause(between(opts.downSeconds));
      await startAgain(split, part);
    }
    killing = false;
  })();

  const chaos: Done[] = [];
  const problems: string[] = [];
  let next = 0;
  const client = async () => {
    while (killing) {
      const plan = plans(next++);
      const key = `chaos-${opts.seed}-${plan.index}`;
      try {
        const answer = await sendUntilAnswered(target, plan.path, plan.body('chaos'), key, { deadlineMs: 900_000 });
        chaos.push({ plan, run: 'chaos', key, answer });
        log(`${plan.kind} #${plan.index}: ${answer.status} after ${answer.attempts} attempt(s), ${Math.round(answer.ms / 1000)} s`);
      } catch (err) {
        problems.push(`${plan.kind} #${plan.index}: ${(err as Error).message}`);
      }
    }
  };
  await Promise.all([killer, ...Array.from({ length: opts.concurrency }, client)]);
  log(`${chaos.length} requests during ${opts.kills} kills; now the same once more without kills`);

  const answered = (d: Done) => d.answer.status >= 200 && d.answer.status < 300;
  for (const d of chaos.filter((d) => !answered(d)))
    problems.push(`${d.plan.kind} #${d.plan.index}: answered ${d.answer.status} ${d.answer.body.toString('utf8').slice(0, 200)}`);
  const created = chaos.filter((d) => d.plan.kind !== 'email').length;
  const documentsAfter = await documentCount(split);
  if (documentsAfter - documentsBefore !== created)
    problems.push(`${created} create and convert requests made ${documentsAfter - documentsBefore} documents`);

  const reference: Done[] = [];
  for (const d of chaos) {
    const key = `reference-${opts.seed}-${d.plan.index}`;
    reference.push({
      plan: d.plan,
      run: 'reference',
      key,
      answer: await sendUntilAnswered(target, d.plan.path, d.plan.body('reference'), key, { deadlineMs: 600_000 }),
    });
  }
  for (const [d, r] of chaos.map((d, i) => [d, reference[i]!] as const).filter(([d]) => answered(d) && d.plan.kind !== 'email')) {
    const [a, b] = await Promise.all([documentBytes(d), documentBytes(r)]);
    if (!a.equals(b))
      problems.push(`${d.plan.kind} #${d.plan.index}: the document differs from the run without kills (${a.length} vs ${b.length} bytes)`);
  }
  problems.push(...(await mailProblems(split, chaos.filter(answered))));

  return {
    seed: opts.seed,
    requests: chaos.length,
    kills,
    retried: chaos.filter((d) => d.answer.attempts > 1).length,
    attempts: chaos.reduce((sum, d) => sum + d.answer.attempts, 0),
    problems,
    seconds: Math.round((Date.now() - started) / 1000),
  };
}

/** A killed part comes back; the API and the worker need the Temporal server to start. */
async function startAgain(split: SplitService, part: Part): Promise<void> {
  if (part.name !== 'temporal' && !split.parts.temporal.running()) await split.parts.temporal.start();
  await part.start();
}

/** The requests, by index: create (XML with e-mail), convert (a PDF to ZUGFeRD), e-mail (delivery), in turn. */
async function planner(): Promise<(index: number) => Planned> {
  const fixture = invoiceSchema.parse(
    JSON.parse(await readFile(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8')),
  );
  const template = await loadTemplate(templateRoots('/nonexistent'), 'de-standard');
  const pdfs = new Map<number, string>();
  const pdfOf = async (invoice: Invoice) =>
    Buffer.from(
      (await renderInvoicePdf(invoice, template, { created: new Date('2025-03-12T10:00:00Z'), fileId: '0'.repeat(32) })).pdf,
    ).toString('base64');
  // Rendering takes a moment: a few distinct PDFs, reused.
  for (let i = 0; i < 4; i++) pdfs.set(i, await pdfOf({ ...fixture, invoiceNumber: `CONV-${i}` }));
  const transport = (receiver: string, subject: string) => ({
    type: 'email',
    useTransport: true,
    sender: 'rechnung@acme.example',
    receiver,
    subject,
    message: 'Anbei die Rechnung.',
  });
  return (index) => {
    const kind = (['create', 'convert', 'email'] as const)[index % 3]!;
    const receiver = (run: string) => (kind === 'convert' ? undefined : `${kind}-${index}-${run}@customer.example`);
    if (kind === 'create') {
      return {
        index,
        kind,
        path: '/api/v1/zugferd/createXinvoiceFromJson',
        receiver,
        body: (run) => ({
          invoice: { ...fixture, invoiceNumber: `CHAOS-${index}` },
          transport: transport(receiver(run)!, 'Rechnung {invoicenumber}'),
        }),
      };
    }
    if (kind === 'convert')
      return {
        index,
        kind,
        path: '/createZugferdFromPdf',
        receiver,
        body: () => ({ fileBase64: pdfs.get(index % pdfs.size), fileName: `scan-${index}.pdf` }),
      };
    return {
      index,
      kind,
      path: '/api/v1/delivery',
      receiver,
      body: (run) => ({
        transport: {
          type: 'email',
          useTransport: true,
          email: { sender: 'rechnung@acme.example', receiver: receiver(run), subject: `Mahnung ${index}`, message: 'Bitte zahlen.' },
        },
      }),
    };
  };
}

/** The created document as its link serves it, or the converted PDF as answered. */
async function documentBytes(d: Done): Promise<Buffer> {
  if (d.plan.kind === 'convert') return d.answer.body;
  const res = await fetch(d.answer.json.downloadURL as string);
  if (!res.ok) throw new Error(`download of ${d.plan.kind} #${d.plan.index} answered ${res.status}`);
  return Buffer.from(await res.arrayBuffer());
}

async function documentCount(split: SplitService): Promise<number> {
  const { openStorage } = await import('../../src/storage/index.js');
  const storage = await openStorage({ dataDir: split.api.dataDir, databaseUrl: split.api.env.DATABASE_URL });
  try {
    const { rows } = await storage.db.query<{ n: number | string }>('SELECT COUNT(*) AS n FROM documents WHERE account_id = $1', [
      split.api.accountId,
    ]);
    return Number(rows[0]!.n);
  } finally {
    await storage.close();
  }
}

/**
 * Every recipient got at most one e-mail, and every answered request's e-mail (queued ones are
 * waited for) is in the outbox exactly once, under the Message-ID the answer named.
 */
async function mailProblems(split: SplitService, done: Done[]): Promise<string[]> {
  const expected = done
    .filter((d) => d.plan.receiver(d.run))
    .map((d) => ({
      d,
      receiver: d.plan.receiver(d.run)!,
      messageId: (d.answer.json.transport?.send ?? d.answer.json.send)?.messageId as string | undefined,
    }));
  const outbox = path.join(split.api.dataDir, 'outbox');
  const deadline = Date.now() + 180_000;
  for (;;) {
    const mails = await outboxMails(outbox);
    const problems: string[] = [];
    for (const { d, receiver, messageId } of expected) {
      const to = mails.filter((m) => m.to.includes(receiver));
      if (to.length > 1) problems.push(`${d.plan.kind} #${d.plan.index}: ${to.length} e-mails to ${receiver}`);
      else if (to.length === 0) problems.push(`${d.plan.kind} #${d.plan.index}: no e-mail to ${receiver}`);
      else if (to[0]!.messageId !== messageId)
        problems.push(`${d.plan.kind} #${d.plan.index}: the e-mail has Message-ID ${to[0]!.messageId}, the answer named ${messageId}`);
    }
    const ids = mails.map((m) => m.messageId);
    const twice = ids.filter((id, i) => ids.indexOf(id) !== i);
    if (twice.length) problems.push(`Message-IDs in the outbox more than once: ${[...new Set(twice)].join(', ')}`);
    // Only missing mail may still come (a queued send being retried); anything else is final.
    if (problems.every((p) => !p.includes('no e-mail')) || Date.now() > deadline) return problems;
    await pause(2_000);
  }
}

async function outboxMails(dir: string): Promise<Array<{ messageId: string; to: string }>> {
  const names = (await readdir(dir).catch(() => [])).filter((n) => n.endsWith('.eml'));
  return Promise.all(
    names.map(async (name) => {
      const head = (await readFile(path.join(dir, name), 'latin1')).split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, ' ');
      const header = (field: string) => new RegExp(`^${field}:\\s*(.*)$`, 'im').exec(head)?.[1]?.trim() ?? '';
      return { messageId: header('Message-ID'), to: header('To') };
    }),
  );
}
