import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/lib/spawn-service.js';
import type { RouteStatus } from '../../connectors/status.js';
import { openStorage, type Storage } from '../../src/storage/index.js';
import { SETUP_TIMEOUT_MS, createTestEnv, type TestEnv } from '../storage/helpers.js';
import { compileCli, type CompiledCli } from './run-cli.js';

/** `connectors check` and `connectors status` as an operator runs them: a child process on the service's database. */

let compiled: CompiledCli;
let env: TestEnv;
let storage: Storage;
let accountId: string;
let box: string;

/** A configuration file in the box; `sources` and `routes` as YAML lines. */
function configFile(name: string, text: string): string {
  const file = path.join(box, name);
  writeFileSync(file, text);
  return file;
}

const localRoute = (account: string) => `  - name: scans
    account: ${account}
    source: box
    folder: in
    files: "*.pdf"
    operation: createZugferdFromPdf
`;

beforeAll(async () => {
  compiled = await compileCli('connectors');
  env = await createTestEnv('sqlite');
  storage = await openStorage(env.config);
  accountId = (await storage.accounts.create('Connectors CLI')).id;
  box = mkdtempSync(path.join(os.tmpdir(), 'connectors-cli-'));
}, SETUP_TIMEOUT_MS);

afterAll(async () => {
  await storage?.close();
  await env?.cleanup();
  await compiled?.remove();
  if (box) rmSync(box, { recursive: true, force: true });
});

describe('connectors CLI', () => {
  it('names the line of a configuration error and exits 2', async () => {
    const file = configFile(
      'bad.yaml',
      `sources:\n  box: { kind: local, root: ${box} }\nroutes:\n  - name: scans\n    account: ${accountId}\n    source: box\n    folder: in\n    operation: frobnicate\n`,
    );
    const result = await compiled.run(env.env, 'check', '--config', file);
    expect(result.code).toBe(2);
    expect(result.stderr).toMatch(/line 8: routes\.0\.operation: /);
    expect(result.stdout).toBe('');
  });

  it('exits 2 without --config and for an unknown command', async () => {
    expect(await compiled.run(env.env, 'check')).toMatchObject({ code: 2, stderr: expect.stringMatching(/--config is required/) });
    expect(await compiled.run(env.env, 'frobnicate', '--config', 'x')).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/Unknown command: frobnicate/),
    });
  });

  it('checks a local folder that exists and the route account: OK, exit 0', async () => {
    const file = configFile('local.yaml', `sources:\n  box: { kind: local, root: ${box} }\nroutes:\n${localRoute(accountId)}`);
    const result = await compiled.run(env.env, 'check', '--config', file);
    expect(result, result.stderr).toMatchObject({ code: 0 });
    expect(result.stdout).toMatch(/^SOURCE\s+KIND\s+RESULT\nbox\s+local\s+OK\n/);
    expect(result.stdout).toMatch(new RegExp(`scans\\s+${accountId}\\s+OK`));
  });

  it('names the SFTP server that is down, an unknown account and a sender the account may not use, and exits 1', async () => {
    const port = await freePort();
    const file = configFile(
      'down.yaml',
      `sources:
  box: { kind: local, root: ${box} }
  partner: { kind: sftp, host: 127.0.0.1, port: ${port}, username: edi, password: { env: PARTNER_PASSWORD } }
routes:
${localRoute(accountId)}  - name: partner-in
    account: acc_nobody
    source: partner
    folder: in
    operation: validate
  - name: mailed
    account: ${accountId}
    source: box
    folder: mailed-in
    operation: validate
    mail: { onFailure: { to: [ap@example.com], from: robot@example.com } }
`,
    );
    const result = await compiled.run({ ...env.env, PARTNER_PASSWORD: 'secret' }, 'check', '--config', file, '--json');
    expect(result.code).toBe(1);
    const answer = JSON.parse(result.stdout) as {
      ok: boolean;
      sources: Array<{ source: string; ok: boolean; error?: string }>;
      routes: Array<{ route: string; ok: boolean; problems?: string[] }>;
    };
    expect(answer.ok).toBe(false);
    expect(answer.sources).toEqual([
      { source: 'box', kind: 'local', ok: true },
      {
        source: 'partner',
        kind: 'sftp',
        ok: false,
        error: expect.stringMatching(new RegExp(`sftp edi@127\\.0\\.0\\.1:${port} is not reachable: .*ECONNREFUSED`)),
      },
    ]);
    expect(answer.routes).toEqual([
      { route: 'scans', account: accountId, ok: true },
      { route: 'partner-in', account: 'acc_nobody', ok: false, problems: ['no account acc_nobody'] },
      {
        route: 'mailed',
        account: accountId,
        ok: false,
        problems: ['the account may not send e-mail as robot@example.com (accounts.js allow-sender)'],
      },
    ]);
    const text = await compiled.run({ ...env.env, PARTNER_PASSWORD: 'secret' }, 'check', '--config', file);
    expect(text.code).toBe(1);
    expect(text.stdout).toMatch(new RegExp(`partner\\s+sftp\\s+sftp edi@127\\.0\\.0\\.1:${port} is not reachable`));
  });

  it('counts per route what waits in the folder and what the ledger holds', async () => {
    const file = configFile('status.yaml', `sources:\n  box: { kind: local, root: ${box} }\nroutes:\n${localRoute(accountId)}`);
    mkdirSync(path.join(box, 'in'), { recursive: true });
    // Waiting: the PDF only; an upload under a temporary name and a file of another kind are not the route's.
    for (const name of ['a.pdf', 'b.pdf.part', '.c.pdf', 'notes.txt']) writeFileSync(path.join(box, 'in', name), 'x');
    const enter = (hash: string) =>
      storage.connectorFiles.enter({
        route: 'scans',
        contentHash: hash,
        workflowId: `connectorFile-scans-${hash}`,
        fileName: `${hash}.pdf`,
      });
    for (const hash of ['h1', 'h2', 'h3', 'h4']) await enter(hash);
    await storage.connectorFiles.finish({ route: 'scans', contentHash: 'h1', status: 'done', resultPath: 'out/h1-zugferd.pdf' });
    await storage.connectorFiles.finish({ route: 'scans', contentHash: 'h2', status: 'done', resultPath: 'out/h2-zugferd.pdf' });
    await storage.connectorFiles.finish({ route: 'scans', contentHash: 'h3', status: 'refused', resultPath: null });
    const json = await compiled.run(env.env, 'status', '--config', file, '--json');
    expect(json, json.stderr).toMatchObject({ code: 0 });
    expect(JSON.parse(json.stdout) as RouteStatus[]).toEqual([
      { route: 'scans', operation: 'createZugferdFromPdf', waiting: 1, processing: 1, processed: 2, refused: 1 },
    ]);
    const text = await compiled.run(env.env, 'status', '--config', file);
    expect(text.stdout).toMatch(
      /^ROUTE\s+OPERATION\s+WAITING\s+PROCESSING\s+PROCESSED\s+REFUSED\nscans\s+createZugferdFromPdf\s+1\s+1\s+2\s+1\n$/,
    );
  });
});
