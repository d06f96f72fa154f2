import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { LocalSource } from '../connectors/sources/local.js';
import type { FolderSource } from '../connectors/sources/source.js';
import { SftpSource } from '../connectors/sources/sftp.js';
import { invoiceSchema, type Invoice } from '../src/invoice/model.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../src/render/index.js';
import { quantile } from './lib/quantile.js';
import { startRoleProcess, type RoleProcess } from './lib/role-process.js';
import { scanProfile, seedOf } from './lib/scan-simulation.js';
import { scannedPdf } from './lib/scanned-pdf.js';
import { repoRoot, spawnService } from './lib/spawn-service.js';
import { startSshd, type SshdServer } from './lib/sshd.js';

/**
 * Benchmark (not a test): files per minute through connector routes that turn dropped PDFs into
 * ZUGFeRD (createZugferdFromPdf), as an operator runs them: the service (API and worker) and the
 * connectors as two processes, a local folder and an SFTP server (Debian's sshd on loopback).
 *
 *   node dist-tools/scripts/bench-connectors.js [--files 20] [--sources local,sftp] [--kinds text,scan] [--keep]
 *
 * Per source and kind, N invoices are dropped at once into the route's folder: the test fixtures
 * (test/fixtures/invoices) rendered through the built-in templates with their own invoice
 * numbers, as text PDFs ("text") or printed and scanned in simulation into image-only PDFs
 * ("scan", 150–200 dpi, skew, noise, JPEG). The clock runs from the first drop until the last
 * file has its report; a file counts whether it was converted or refused, since either is an
 * answer the person who dropped it gets. The route's minimum age is one second; with the default
 * of ten, every file waits that much longer before it is taken.
 */

const { values: args } = parseArgs({
  options: {
    files: { type: 'string', default: '20' },
    sources: { type: 'string', default: 'local,sftp' },
    kinds: { type: 'string', default: 'text,scan' },
    keep: { type: 'boolean', default: false },
  },
});
const FILES = Math.max(1, Number(args.files) || 20);
const SOURCES = args.sources!.split(',') as Array<'local' | 'sftp'>;
const KINDS = args.kinds!.split(',') as Array<'text' | 'scan'>;
const TEMPLATES = ['de-standard', 'en-standard'];

async function invoices(kind: 'text' | 'scan', count: number, tag: string): Promise<Array<{ name: string; bytes: Uint8Array }>> {
  const dir = path.join(repoRoot, 'test/fixtures/invoices');
  const fixtures = readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .sort();
  const files = [];
  for (let i = 0; i < count; i++) {
    const fixture = fixtures[i % fixtures.length]!;
    const invoice: Invoice = {
      ...invoiceSchema.parse(JSON.parse(readFileSync(path.join(dir, fixture), 'utf8'))),
      invoiceNumber: `BENCH-${tag}-${i + 1}`,
    };
    const template = await loadTemplate(templateRoots('/nonexistent'), TEMPLATES[i % TEMPLATES.length]!);
    const { pdf } = await renderInvoicePdf(invoice, template, {
      created: new Date('2026-01-15T10:00:00Z'),
      fileId: String(i).padStart(32, '0'),
    });
    const name = `${tag}-${String(i + 1).padStart(3, '0')}.pdf`;
    files.push({ name, bytes: kind === 'text' ? pdf : await scannedPdf(pdf, scanProfile(seedOf(name))) });
  }
  return files;
}

interface Report {
  file: string;
  at: string;
  outcome: { kind: string; code?: string };
}

/** The reports of the batch, where the route writes them: out/ for converted files, error/ for refused ones. */
async function reports(source: FolderSource, prefix: string): Promise<Report[]> {
  const found: Report[] = [];
  for (const folder of [`${prefix}/out`, `${prefix}/error`]) {
    for (const e of await source.list(folder)) {
      if (e.name.endsWith('.report.json'))
        found.push(JSON.parse(Buffer.from(await source.read(e.path, 1 << 20)).toString('utf8')) as Report);
    }
  }
  return found;
}

async function main(): Promise<void> {
  const box = mkdtempSync(path.join(os.tmpdir(), 'bench-connectors-'));
  let sshd: SshdServer | undefined;
  const service = await spawnService({ name: 'bench-connectors' });
  let connectors: RoleProcess | undefined;
  const sources = new Map<string, FolderSource>();
  try {
    const sourceConfig: string[] = [];
    if (SOURCES.includes('local')) {
      sourceConfig.push(`  local: { kind: local, root: ${path.join(box, 'local')}, pollSeconds: 2 }`);
      sources.set('local', new LocalSource({ root: path.join(box, 'local') }));
    }
    if (SOURCES.includes('sftp')) {
      sshd = await startSshd();
      const keyFile = path.join(box, 'sftp.key');
      writeFileSync(keyFile, sshd.privateKey, { mode: 0o600 });
      const root = path.join(box, 'sftp');
      sourceConfig.push(
        `  sftp: { kind: sftp, host: ${sshd.host}, port: ${sshd.port}, username: ${sshd.username}, root: ${root}, privateKey: { file: ${keyFile} }, hostKeySha256: "${sshd.hostKeySha256}", pollSeconds: 2 }`,
      );
      sources.set(
        'sftp',
        new SftpSource({
          host: sshd.host,
          port: sshd.port,
          username: sshd.username,
          privateKey: sshd.privateKey,
          hostKeySha256: sshd.hostKeySha256,
          root,
        }),
      );
    }
    const routes = SOURCES.flatMap((s) =>
      KINDS.map(
        (k) => `  - name: ${s}-${k}
    account: ${service.accountId}
    source: ${s}
    folder: ${k}/in
    files: "*.pdf"
    operation: createZugferdFromPdf
    output: { folder: ${k}/out }
    done: ${k}/done
    error: ${k}/error
    minAgeSeconds: 1`,
      ),
    );
    const configFile = path.join(service.dataDir, 'bench-connectors.yaml');
    writeFileSync(configFile, `sources:\n${sourceConfig.join('\n')}\nroutes:\n${routes.join('\n')}\n`);
    connectors = await startRoleProcess(service, 'connectors', 'connectors', { EINVOICE_CONNECTORS: configFile });

    console.log(
      `${FILES} files per batch, createZugferdFromPdf, one service process (API + worker) and one connectors process, ${os.availableParallelism()} cores\n`,
    );
    console.log('route        files  seconds  files/min  converted  refused (codes)                   per file: median / p95 s');
    for (const kind of KINDS) {
      const batch = await invoices(kind, FILES, kind);
      for (const [name, source] of sources) {
        const dropped = Date.now();
        await Promise.all(batch.map((f) => source.write(`${kind}/in/${f.name}`, f.bytes)));
        const deadline = Date.now() + FILES * (kind === 'scan' ? 60_000 : 20_000);
        let found: Report[] = [];
        while ((found = await reports(source, kind)).length < FILES) {
          if (Date.now() > deadline)
            throw new Error(`${name}-${kind}: ${found.length} of ${FILES} reports after ${(Date.now() - dropped) / 1000} s`);
          await new Promise((r) => setTimeout(r, 500));
        }
        const seconds = (Math.max(...found.map((r) => Date.parse(r.at))) - dropped) / 1000;
        const latencies = found.map((r) => (Date.parse(r.at) - dropped) / 1000);
        const refused = found.filter((r) => r.outcome.kind !== 'done');
        const codes = new Map<string, number>();
        for (const r of refused) codes.set(r.outcome.code ?? r.outcome.kind, (codes.get(r.outcome.code ?? r.outcome.kind) ?? 0) + 1);
        const codeText = [...codes].map(([c, n]) => `${c} ${n}`).join(', ');
        console.log(
          `${`${name}-${kind}`.padEnd(12)} ${String(FILES).padStart(5)}  ${seconds.toFixed(1).padStart(7)}  ${((FILES / seconds) * 60).toFixed(1).padStart(9)}  ${String(FILES - refused.length).padStart(9)}  ${`${refused.length}${codeText ? ` (${codeText})` : ''}`.padEnd(32)}  ${quantile(latencies, 0.5).toFixed(1)} / ${quantile(latencies, 0.95).toFixed(1)}`,
        );
      }
    }
  } finally {
    await Promise.all([...sources.values()].map((s) => s.close()));
    await connectors?.stop();
    await service.stop();
    await sshd?.dispose();
    if (!args.keep) rmSync(box, { recursive: true, force: true });
  }
}

await main();
