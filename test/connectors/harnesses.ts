import { mkdir, mkdtemp, rename, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import * as path from 'node:path';
import { LocalSource } from '../../connectors/sources/local.js';
import type { SourceHarness } from './source-contract.js';

/** The local folder's "server" is the directory itself: stopping it moves it away, as an unmounted share would be. */
export function localHarness(): SourceHarness {
  let base = '';
  const root = () => path.join(base, 'share');
  const away = () => path.join(base, 'unmounted');
  return {
    async start() {
      base = await mkdtemp(path.join(tmpdir(), 'local-source-'));
      await mkdir(root());
    },
    stopServer: () => rename(root(), away()),
    startServer: () => rename(away(), root()),
    source: () => new LocalSource({ root: root() }),
    stop: () => rm(base, { recursive: true, force: true }),
  };
}
