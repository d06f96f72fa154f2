import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, expect, it } from 'vitest';
import { removeOrphanedTempDirs, tempDirSync } from '../src/temp-dirs.js';

/** Issue 15, item 4: what a killed process leaves in the temporary folder is removed when a service starts, and nothing else. */

const base = mkdtempSync(path.join(tmpdir(), 'temp-dirs-test-'));
afterAll(() => rmSync(base, { recursive: true, force: true }));

it('removes the folders of processes that are gone (and old ones without an owner), keeps those of live processes and anything else', async () => {
  const gone = spawnSync(process.execPath, ['-e', '0']).pid!;
  const day = 24 * 60 * 60 * 1000;
  const make = (name: string, ageMs = 0) => {
    mkdirSync(path.join(base, name));
    if (ageMs) utimesSync(path.join(base, name), new Date(Date.now() - ageMs), new Date(Date.now() - ageMs));
  };
  make(`einvoice-tessdata-${gone}-Ab12Cd`);
  make(`einvoice-verapdf-${gone}-xY9zQw`);
  make(`einvoice-gs-${gone}-000000`);
  make(`einvoice-tessdata-${process.pid}-LiVe01`);
  make('einvoice-verapdf-OLDold', 2 * day); // before owners were named: old enough to be an orphan
  make('einvoice-tessdata-NEWnew', 60_000); // before owners were named, but recent: a running process may own it
  make('einvoice-sqlite-abc123'); // a test's data folder: not ours to judge
  make(`einvoice-tessdata-${gone}-Ab12Cd-extra`);

  const removed = await removeOrphanedTempDirs(base);
  expect(removed.sort()).toEqual(
    [`einvoice-gs-${gone}-000000`, `einvoice-tessdata-${gone}-Ab12Cd`, 'einvoice-verapdf-OLDold', `einvoice-verapdf-${gone}-xY9zQw`].sort(),
  );
  expect(readdirSync(base).sort()).toEqual(
    [
      `einvoice-tessdata-${gone}-Ab12Cd-extra`,
      'einvoice-sqlite-abc123',
      `einvoice-tessdata-${process.pid}-LiVe01`,
      'einvoice-tessdata-NEWnew',
    ].sort(),
  );
});

it('names the folders it makes after their owner', () => {
  const dir = tempDirSync('gs');
  try {
    expect(path.basename(dir)).toMatch(new RegExp(`^einvoice-gs-${process.pid}-[A-Za-z0-9]{6}$`));
  } finally {
    rmSync(dir, { recursive: true });
  }
});
