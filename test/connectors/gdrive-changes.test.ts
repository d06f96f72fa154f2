import { afterAll, beforeAll, expect, it } from 'vitest';
import type { GdriveSource } from '../../connectors/sources/gdrive.js';
import { gdriveHarness } from './harnesses.js';

// Drive's own way to learn of new files, for the poller to come: the change log from a saved token.
const harness = gdriveHarness();
let source: GdriveSource;

beforeAll(async () => {
  await harness.start();
  source = harness.source() as GdriveSource;
});
afterAll(() => harness.stop());

it('names the watched folders whose files changed since a saved token, and nothing once caught up', async () => {
  await source.write('in/older.pdf', new Uint8Array([1]));
  await source.write('out/result.pdf', new Uint8Array([2]));
  const token = await source.startPageToken();
  await source.write('in/invoice.pdf', new Uint8Array([3]));
  await source.write('elsewhere/other.pdf', new Uint8Array([4]));
  const first = await source.changes(token, ['in', 'out', 'not-made-yet']);
  expect(first.folders).toEqual(['in']);
  expect(await source.changes(first.token, ['in', 'out'])).toEqual({ folders: [], token: first.token });
});
