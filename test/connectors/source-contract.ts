import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FileTooLargeError, SourceGoneError, SourceUnavailableError, TargetExistsError } from '../../connectors/sources/errors.js';
import type { FolderSource } from '../../connectors/sources/source.js';

/** One adapter under test with the real server behind it, which the harness starts, stops and restarts. */
export interface SourceHarness {
  start(): Promise<void>;
  /** Takes the server away (process stopped, share unmounted), keeping what it stored where the server can. */
  stopServer(): Promise<void>;
  /** Brings it back at the same address. */
  startServer(): Promise<void>;
  /** A new adapter instance, as a second connector replica would have. */
  source(): FolderSource;
  stop(): Promise<void>;
}

const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');
const bytes = (s: string) => new Uint8Array(Buffer.from(s));
const names = async (source: FolderSource, folder: string) => (await source.list(folder)).map((e) => e.name).sort();

/** The behaviour every FolderSource promises, run against each adapter (see sources.test.ts). */
export function sourceContract(label: string, makeHarness: () => SourceHarness) {
  describe(label, () => {
    const harness = makeHarness();
    let source: FolderSource;
    let folderCount = 0;
    // Every test works in folders of its own, so tests share one server.
    const fresh = () => `t${++folderCount}-${randomBytes(3).toString('hex')}`;

    beforeAll(async () => {
      await harness.start();
      source = harness.source();
      await source.check();
    });
    afterAll(async () => {
      await source?.close();
      await harness.stop();
    });

    it('lists every file of a folder, not its subfolders, with size and mtime', async () => {
      const dir = fresh();
      const before = Date.now();
      for (const name of ['a.pdf', 'b.XML', '.hidden', 'c.pdf.part', 'name with spaces.pdf'])
        await source.write(`${dir}/in/${name}`, bytes(`content of ${name}`));
      await source.write(`${dir}/in/sub/nested.pdf`, bytes('nested'));
      const entries = await source.list(`${dir}/in`);
      expect(entries.map((e) => e.name).sort()).toEqual(['.hidden', 'a.pdf', 'b.XML', 'c.pdf.part', 'name with spaces.pdf']);
      for (const entry of entries) {
        expect(entry.path).toBe(`${dir}/in/${entry.name}`);
        expect(entry.size).toBe(`content of ${entry.name}`.length);
        // Second-granular backends (SFTP v3, S3) round down.
        expect(entry.modifiedMs).toBeGreaterThanOrEqual(Math.floor(before / 1000) * 1000 - 2000);
        expect(entry.modifiedMs).toBeLessThanOrEqual(Date.now() + 2000);
      }
      expect(await source.list(`${dir}/missing`)).toEqual([]);
    });

    it('reads a file whole, refuses one over the size limit and reports a missing one', async () => {
      const dir = fresh();
      const content = randomBytes(100_000);
      await source.write(`${dir}/in/scan.pdf`, content);
      expect(Buffer.from(await source.read(`${dir}/in/scan.pdf`, content.length))).toEqual(content);
      await expect(source.read(`${dir}/in/scan.pdf`, content.length - 1)).rejects.toBeInstanceOf(FileTooLargeError);
      await expect(source.read(`${dir}/in/nothing.pdf`, 1000)).rejects.toBeInstanceOf(SourceGoneError);
    });

    it('writes atomically: a reader never sees a partial file under the final name', async () => {
      const dir = fresh();
      const large = randomBytes(8 * 1024 * 1024);
      let writing = true;
      const seen: { name: string; size: number }[] = [];
      const watcher = (async () => {
        while (writing) {
          for (const e of await source.list(`${dir}/out`)) seen.push({ name: e.name, size: e.size });
          await new Promise((resolve) => setTimeout(resolve, 5));
        }
      })();
      await source.write(`${dir}/out/invoice-zugferd.pdf`, large).finally(() => (writing = false));
      await watcher;
      for (const s of seen.filter((s) => s.name === 'invoice-zugferd.pdf')) expect(s.size).toBe(large.length);
      expect(await names(source, `${dir}/out`)).toEqual(['invoice-zugferd.pdf']);
      // Replacing works the same way.
      await source.write(`${dir}/out/invoice-zugferd.pdf`, bytes('second'));
      expect(text(await source.read(`${dir}/out/invoice-zugferd.pdf`, 100))).toBe('second');
      expect(await names(source, `${dir}/out`)).toEqual(['invoice-zugferd.pdf']);
    });

    it('moves into a new folder, refuses an existing target and reports a vanished source', async () => {
      const dir = fresh();
      await source.write(`${dir}/in/a.pdf`, bytes('A'));
      await source.write(`${dir}/in/b.pdf`, bytes('B'));
      await source.move(`${dir}/in/a.pdf`, `${dir}/done/2025-01-31/a.pdf`);
      expect(await names(source, `${dir}/in`)).toEqual(['b.pdf']);
      expect(text(await source.read(`${dir}/done/2025-01-31/a.pdf`, 10))).toBe('A');

      await source.write(`${dir}/processing/b.pdf`, bytes('older B'));
      await expect(source.move(`${dir}/in/b.pdf`, `${dir}/processing/b.pdf`)).rejects.toBeInstanceOf(TargetExistsError);
      expect(text(await source.read(`${dir}/in/b.pdf`, 10))).toBe('B');
      expect(text(await source.read(`${dir}/processing/b.pdf`, 10))).toBe('older B');

      await expect(source.move(`${dir}/in/gone.pdf`, `${dir}/processing/gone.pdf`)).rejects.toBeInstanceOf(SourceGoneError);
    });

    it('lets exactly one of two replicas claim each of 20 files', async () => {
      const dir = fresh();
      const files = Array.from({ length: 20 }, (_, i) => `invoice-${i}.pdf`);
      await Promise.all(files.map((f) => source.write(`${dir}/in/${f}`, bytes(f))));
      const other = harness.source();
      try {
        const outcomes = await Promise.all(
          files.map((f) =>
            Promise.allSettled([
              source.move(`${dir}/in/${f}`, `${dir}/processing/replica-1-${f}`),
              other.move(`${dir}/in/${f}`, `${dir}/processing/replica-2-${f}`),
            ]),
          ),
        );
        for (const pair of outcomes) {
          const won = pair.filter((o) => o.status === 'fulfilled').length;
          if (source.exclusiveMove) {
            expect(won).toBe(1);
            const lost = pair.find((o) => o.status === 'rejected');
            expect(lost?.status === 'rejected' && lost.reason).toBeInstanceOf(SourceGoneError);
          } else {
            expect(won).toBeGreaterThanOrEqual(1);
          }
        }
        // Whoever won, every file sits in exactly one place, once.
        expect(await source.list(`${dir}/in`)).toEqual([]);
        const claimed = await names(source, `${dir}/processing`);
        expect(claimed).toHaveLength(20);
        expect(new Set(claimed.map((n) => n.replace(/^replica-\d-/, ''))).size).toBe(20);
      } finally {
        await other.close();
      }
    });

    it('reports a server that is down at start as unavailable and works once it is back', async () => {
      const dir = fresh();
      await harness.stopServer();
      const late = harness.source();
      try {
        await expect(late.check()).rejects.toBeInstanceOf(SourceUnavailableError);
        await expect(late.list(`${dir}/in`)).rejects.toBeInstanceOf(SourceUnavailableError);
        await harness.startServer();
        await late.check();
        await late.write(`${dir}/in/after.pdf`, bytes('after'));
        expect(text(await late.read(`${dir}/in/after.pdf`, 10))).toBe('after');
      } finally {
        await late.close();
      }
    });
  });
}
