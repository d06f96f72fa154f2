import { mkdtempSync, readdirSync, rmSync, writeFileSync, mkdirSync, utimesSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lookAndClaim, unfinished } from '../../connectors/claim.js';
import { parseConfig } from '../../connectors/config.js';
import { contentHash } from '../../connectors/identity.js';
import { lookOf } from '../../connectors/readiness.js';
import { LocalSource } from '../../connectors/sources/local.js';

const roots: string[] = [];
afterAll(() => roots.forEach((r) => rmSync(r, { recursive: true, force: true })));

function setup(extra = '') {
  const root = mkdtempSync(path.join(os.tmpdir(), 'claim-'));
  roots.push(root);
  mkdirSync(path.join(root, 'in'));
  const config = parseConfig(
    `sources: { box: { kind: local, root: ${root} } }
routes:
  - { name: inbox, account: acc_1, source: box, folder: in, files: "*.pdf", operation: createZugferdFromPdf, minAgeSeconds: 5${extra} }`,
    'test.yaml',
  );
  return { root, route: config.routes[0]!, source: new LocalSource({ root }) };
}

/** Writes a file whose modification time lies `ageMs` in the past. */
function drop(root: string, name: string, content: string, ageMs: number) {
  const file = path.join(root, 'in', name);
  writeFileSync(file, content);
  const at = (Date.now() - ageMs) / 1000;
  utimesSync(file, at, at);
}

describe('claiming dropped files', () => {
  it('takes a complete file on the second look, moves it to processing/ and reads it; leaves young and foreign files', async () => {
    const { root, route, source } = setup();
    drop(root, 'a.pdf', '%PDF a', 60_000);
    drop(root, 'young.pdf', '%PDF young', 1_000);
    drop(root, 'notes.txt', 'hello', 60_000);
    drop(root, 'b.pdf.part', '%PDF', 60_000);
    const first = await lookAndClaim(route, source, lookOf([]), Date.now());
    expect(first.claimed).toEqual([]);
    const second = await lookAndClaim(route, source, first.look, Date.now());
    expect(second.claimed.map((c) => [c.name, c.path, new TextDecoder().decode(c.bytes), c.hash])).toEqual([
      ['a.pdf', 'processing/inbox/a.pdf', '%PDF a', contentHash(new TextEncoder().encode('%PDF a'))],
    ]);
    expect(readdirSync(path.join(root, 'in')).sort()).toEqual(['b.pdf.part', 'notes.txt', 'young.pdf']);
  });

  it('gives each of 20 files to exactly one of two racing claimers', async () => {
    const { root, route } = setup();
    for (let i = 0; i < 20; i++) drop(root, `f${i}.pdf`, `%PDF ${i}`, 60_000);
    const [a, b] = [new LocalSource({ root }), new LocalSource({ root })];
    const looks = await Promise.all([a, b].map(async (s) => (await lookAndClaim(route, s, lookOf([]), Date.now())).look));
    const [ra, rb] = await Promise.all([lookAndClaim(route, a, looks[0]!, Date.now()), lookAndClaim(route, b, looks[1]!, Date.now())]);
    const names = [...ra.claimed, ...rb.claimed].map((c) => c.name).sort();
    expect(names).toEqual(Array.from({ length: 20 }, (_, i) => `f${i}.pdf`).sort());
    expect(readdirSync(path.join(root, 'processing', 'inbox'))).toHaveLength(20);
  });

  it('leaves a file whose name is still in processing for a later look, and refuses one over the size limit', async () => {
    const { root, route, source } = setup(', maxFileMegabytes: 0.001');
    mkdirSync(path.join(root, 'processing', 'inbox'), { recursive: true });
    writeFileSync(path.join(root, 'processing', 'inbox', 'same.pdf'), '%PDF earlier');
    drop(root, 'same.pdf', '%PDF later', 60_000);
    drop(root, 'big.pdf', `%PDF ${'x'.repeat(2_000)}`, 60_000);
    const first = await lookAndClaim(route, source, lookOf([]), Date.now());
    const second = await lookAndClaim(route, source, first.look, Date.now());
    expect(second.claimed).toEqual([]);
    expect(second.refused).toEqual([{ name: 'big.pdf', path: 'processing/inbox/big.pdf', reason: expect.stringContaining('0.001 MB') }]);
    expect(readdirSync(path.join(root, 'in'))).toEqual(['same.pdf']);
  });

  it('finds what a crash left in processing/', async () => {
    const { root, route, source } = setup();
    mkdirSync(path.join(root, 'processing', 'inbox'), { recursive: true });
    writeFileSync(path.join(root, 'processing', 'inbox', 'left.pdf'), '%PDF left');
    expect((await unfinished(route, source, await source.list(route.processing))).map((f) => [f.name, f.path])).toEqual([
      ['left.pdf', 'processing/inbox/left.pdf'],
    ]);
  });

  it('passes over a file of processing/ that its workflow filed away after the listing', async () => {
    const { root, route, source } = setup();
    mkdirSync(path.join(root, 'processing', 'inbox'), { recursive: true });
    writeFileSync(path.join(root, 'processing', 'inbox', 'left.pdf'), '%PDF left');
    writeFileSync(path.join(root, 'processing', 'inbox', 'filed.pdf'), '%PDF filed');
    const listed = await source.list(route.processing);
    await source.move('processing/inbox/filed.pdf', 'done/filed.pdf');
    expect((await unfinished(route, source, listed)).map((f) => f.name)).toEqual(['left.pdf']);
  });
});
