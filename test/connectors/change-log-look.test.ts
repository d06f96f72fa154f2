import { MockActivityEnvironment } from '@temporalio/testing';
import { pino } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectorActivities } from '../../activities/connectors.js';
import { parseConfig } from '../../connectors/config.js';
import type { GdriveSource } from '../../connectors/sources/gdrive.js';
import type { IntakeDeps } from '../../src/jobs/intake/job.js';
import type { LookState, RouteLook } from '../../connectors/watch-operation.js';
import { gdriveHarness } from './harnesses.js';

/**
 * A Drive route's poll asks the change log first and lists the folder only when the log names it,
 * when files were pending, or on a process's first look (the emulator serves the change log).
 * The route's minimum age keeps every file unclaimed here, so no workflow is started.
 */

const harness = gdriveHarness();
let drive: GdriveSource;
const listed: string[] = [];

beforeAll(async () => {
  await harness.start();
  drive = harness.source() as GdriveSource;
  const list = drive.list.bind(drive);
  drive.list = (folder: string) => {
    listed.push(folder);
    return list(folder);
  };
}, 60_000);
afterAll(() => harness.stop());

describe('a Drive route look', () => {
  it('lists on the first look, skips listing while the log is quiet, and lists again when a file arrives', async () => {
    const config = parseConfig(
      `sources:\n  drive: { kind: gdrive, rootFolderId: root, credentials: { env: UNUSED } }\nroutes:\n  - { name: inbox, account: acc_x, source: drive, folder: in, files: "*.pdf", operation: validate, minAgeSeconds: 3600 }\n`,
      'test.yaml',
    );
    // The job layer is never reached: nothing gets old enough to be claimed.
    const activities = connectorActivities({
      config,
      sources: new Map([['drive', drive]]),
      jobs: {} as IntakeDeps,
      log: pino({ level: 'silent' }),
    });
    const env = new MockActivityEnvironment();
    const look = (previous: LookState): Promise<RouteLook> => env.run(activities.lookAtRoute, { route: 'inbox', previous });
    await drive.write('in/notes.txt', new Uint8Array([1]));

    const first = await look({ look: [], pending: true });
    expect(listed).toEqual(['in', 'processing/inbox']);
    expect(first).toMatchObject({ pending: false, changes: expect.any(String) });

    listed.length = 0;
    const quiet = await look(first);
    expect(listed).toEqual([]);
    expect(quiet.look).toEqual(first.look);

    await drive.write('in/invoice.pdf', new Uint8Array([2]));
    await drive.write('elsewhere/other.pdf', new Uint8Array([3]));
    const arrived = await look(quiet);
    expect(listed).toEqual(['in', 'processing/inbox']);
    expect(arrived.look.map((e) => e.name).sort()).toEqual(['invoice.pdf', 'notes.txt']);
    // The new file is not old enough yet: pending, so the next look lists although the log is quiet.
    expect(arrived.pending).toBe(true);

    listed.length = 0;
    await look(arrived);
    expect(listed).toEqual(['in', 'processing/inbox']);
  });
});
