import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFile } from 'node:child_process';
import os from 'node:os';
import { promisify } from 'node:util';
import path from 'node:path';
import PostalMime from 'postal-mime';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { repoRoot, spawnService, type SpawnedService } from '../../scripts/lib/spawn-service.js';
import { fixtureInvoice, invoicePdf } from '../reading/fixtures.js';
import { startConnectorsProcess, type ConnectorsProcess } from '../support/connectors-process.js';

/**
 * What a route does beyond what every source's contract checks (route-contract.ts): copies of one
 * invoice dropped together, JSON turned into XRechnung and refused with what to fix, and the
 * route's e-mails. On a local folder, with the service and the connectors as processes of their own.
 */

const exec = promisify(execFile);
const today = () => new Date().toISOString().slice(0, 10);
const ls = (dir: string) => (existsSync(dir) ? readdirSync(dir).sort() : []);

async function waitFor<T>(what: string, probe: () => T | undefined | false, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 250));
  }
}

describe('a local folder route, beyond the contract', () => {
  let service: SpawnedService;
  let connectors: ConnectorsProcess;
  let root: string;
  let config: string;

  beforeAll(async () => {
    service = await spawnService({ name: 'connectors-local' });
    root = mkdtempSync(path.join(os.tmpdir(), 'connector-box-'));
    config = `sources:
  box: { kind: local, root: ${root} }
routes:
  - name: scans
    account: ${service.accountId}
    source: box
    folder: in
    files: "*.pdf"
    operation: createZugferdFromPdf
    output: { folder: out }
    minAgeSeconds: 1
  - name: xrechnung
    account: ${service.accountId}
    source: box
    folder: json-in
    files: "*.json"
    operation: createXinvoiceFromJson
    minAgeSeconds: 1
  - name: mailed
    account: ${service.accountId}
    source: box
    folder: mail-in
    files: "*.json"
    operation: createXinvoiceFromJson
    minAgeSeconds: 1
    mail:
      onSuccess: { to: [ap@buyer.example], from: robot@connectors.example }
      onFailure: { to: [ops@connectors.example], from: robot@connectors.example }
`;
    await exec(
      process.execPath,
      [path.join(repoRoot, 'dist/src/cli/accounts.js'), 'allow-sender', '--account', service.accountId, '--sender', 'connectors.example'],
      { cwd: repoRoot, env: service.env },
    );
    connectors = await startConnectorsProcess(service, config);
  }, 180_000);

  afterAll(async () => {
    await connectors?.stop();
    await service?.stop();
    if (root) rmSync(root, { recursive: true, force: true });
  });

  it(
    'processes two copies of one invoice dropped together once: the second waits for the first, then is filed as its duplicate',
    { timeout: 180_000 },
    async () => {
      mkdirSync(path.join(root, 'in'), { recursive: true });
      const twin = await invoicePdf({ ...fixtureInvoice(), invoiceNumber: 'TWIN-1' });
      writeFileSync(path.join(root, 'in', 'twin-a.pdf'), twin);
      writeFileSync(path.join(root, 'in', 'twin-b.pdf'), twin);
      const note = await waitFor('the note of the second copy', () => {
        const done = ls(path.join(root, 'done', today()));
        const first = done.includes('twin-a.report.txt') ? 'twin-a' : done.includes('twin-b.report.txt') ? 'twin-b' : undefined;
        return first && readFileSync(path.join(root, 'done', today(), `${first}.report.txt`), 'utf8');
      });
      expect(note).toMatch(/arrived before as twin-[ab]\.pdf/);
      const results = ls(path.join(root, 'out')).filter((f) => f.startsWith('twin-') && f.endsWith('-zugferd.pdf'));
      expect(results).toHaveLength(1);
      expect(ls(path.join(root, 'processing', 'scans'))).toEqual([]);
    },
  );

  it(
    'makes XRechnung XML of a JSON invoice beside the filed input, and files a broken one into error/ with what to fix',
    { timeout: 180_000 },
    async () => {
      mkdirSync(path.join(root, 'json-in'), { recursive: true });
      writeFileSync(path.join(root, 'json-in', 'RE-1.json'), JSON.stringify({ invoice: fixtureInvoice() }));
      const { invoiceIssueDate: _dropped, ...broken } = fixtureInvoice();
      writeFileSync(path.join(root, 'json-in', 'RE-2.json'), JSON.stringify(broken));
      const xml = await waitFor('RE-1.xml', () => {
        const file = path.join(root, 'done', today(), 'RE-1.xml');
        return existsSync(file) && readFileSync(file, 'utf8');
      });
      expect(xml).toContain('CrossIndustryInvoice');
      const report = await waitFor('the refusal report', () => {
        const file = path.join(root, 'error', 'RE-2.report.txt');
        return existsSync(file) && readFileSync(file, 'utf8');
      });
      // Without its issue date the XML breaks the schema: no invalid XML is passed on.
      expect(report).toMatch(/^RE-2\.json: not processed \(RESULT_INVALID\)/);
      expect(report).toContain('IssueDateTime');
      expect(ls(path.join(root, 'error'))).toEqual(expect.arrayContaining(['RE-2.json', 'RE-2.report.json']));
      expect(ls(path.join(root, 'error'))).not.toContain('RE-2.xml');
      // A value the invoice model refuses is named with its business term.
      writeFileSync(path.join(root, 'json-in', 'RE-3.json'), JSON.stringify({ ...fixtureInvoice(), invoiceIssueDate: 'yesterday' }));
      const refused = await waitFor('the refusal of RE-3', () => {
        const file = path.join(root, 'error', 'RE-3.report.txt');
        return existsSync(file) && readFileSync(file, 'utf8');
      });
      expect(refused).toMatch(/^RE-3\.json: not processed \(VALIDATION_ERROR\)/);
      expect(refused).toContain('BT-2');
    },
  );

  it(
    "e-mails the result of a processed file to the route's recipients and the report of a refused one to its failure address",
    { timeout: 180_000 },
    async () => {
      mkdirSync(path.join(root, 'mail-in'), { recursive: true });
      writeFileSync(path.join(root, 'mail-in', 'RE-M1.json'), JSON.stringify({ invoice: { ...fixtureInvoice(), invoiceNumber: 'RE-M1' } }));
      writeFileSync(path.join(root, 'mail-in', 'RE-M2.json'), JSON.stringify({ ...fixtureInvoice(), invoiceIssueDate: 'yesterday' }));
      const outbox = path.join(service.dataDir, 'outbox');
      const mine = await waitFor('two e-mails in the outbox', () => {
        const files = ls(outbox)
          .filter((f) => f.endsWith('.eml'))
          .map((f) => readFileSync(path.join(outbox, f)));
        const about = files.filter((m) => m.includes('RE-M1.json') || m.includes('RE-M2.json'));
        return about.length >= 2 && about;
      });
      const mails = await Promise.all(mine.map((m) => PostalMime.parse(m)));
      const success = mails.find((m) => m.to?.[0]?.address === 'ap@buyer.example')!;
      const failure = mails.find((m) => m.to?.[0]?.address === 'ops@connectors.example')!;
      expect(success.subject).toBe('RE-M1.json: done → RE-M1.xml');
      expect(success.from?.address).toBe('robot@connectors.example');
      expect(success.attachments.map((a) => a.filename)).toEqual(['RE-M1.xml']);
      expect(Buffer.from(success.attachments[0]!.content as ArrayBuffer).toString('utf8')).toContain('<ram:ID>RE-M1</ram:ID>');
      expect(failure.subject).toBe('RE-M2.json: not processed (VALIDATION_ERROR)');
      expect(failure.text).toContain('BT-2');
      expect(failure.attachments).toEqual([]);
      expect(mails).toHaveLength(2);
    },
  );
});
