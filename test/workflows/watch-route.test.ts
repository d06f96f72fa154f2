import { randomUUID } from 'node:crypto';
import type { WorkflowHandle } from '@temporalio/client';
import { describe, expect, it } from 'vitest';
import type { FileConnectorResultInput } from '../../connectors/file-operation.js';
import type { FileToStart, LookAtRouteInput, RouteLook } from '../../connectors/watch-operation.js';
import { FILE, OPERATION, OUTCOME, ROUTE } from '../../src/temporal/search-attributes.js';
import { processConnectorFile, watchRoute } from '../../workflows/index.js';
import { workflowTestEnvironment, type StubActivities } from './environment.js';

/**
 * A route's watcher starts each file its look hands over as a child workflow, which outlives the
 * watcher; content under way already is not started twice (see environment.ts for the setting).
 */

const workflows = workflowTestEnvironment();

const fileToStart = (name: string, hash: string, firstCopy: boolean): FileToStart => ({
  input: {
    ctx: { requestId: `inbox-${hash}`, accountId: 'acc-1', source: { kind: 'connector', route: 'inbox', file: name, hash } },
    route: 'inbox',
    operation: 'validate',
    options: {},
    file: { name, path: `processing/inbox/${name}`, hash },
  },
  workflowId: `connectorFile-inbox-${hash}`,
  handKey: `10:processing/inbox/${name}`,
  firstCopy,
});

/** Looks that hand over `batches` one after the other (then nothing), recording what each look was given. */
function scriptedLooks(batches: FileToStart[][]) {
  const previous: Array<LookAtRouteInput['previous']> = [];
  const lookAtRoute = async (input: LookAtRouteInput): Promise<RouteLook> => {
    previous.push(input.previous);
    return {
      look: [],
      pending: false,
      inHand: [],
      toStart: batches[previous.length - 1] ?? [],
      nextLookMs: { pending: 200, idle: 600_000 },
    };
  };
  return { lookAtRoute, previous };
}

/** A file's steps with an XML file that validates; its staging waits for `staged` (default: at once). */
function fileSteps(filed: FileConnectorResultInput[], staged: Promise<void> = Promise.resolve()): StubActivities {
  return {
    stageConnectorFile: async () => (await staged, { blobKey: 'xml-1', kind: 'xml' }),
    validateInvoiceXml: async () => ({ valid: true, syntax: 'CII', findings: [], artefacts: [] }),
    fileConnectorResult: async (input: FileConnectorResultInput) => (
      filed.push(input),
      { status: 'done', inputPath: `done/${input.file.name}`, reportPath: `done/${input.file.name}.report.json` }
    ),
  };
}

async function until(what: string, check: () => boolean | Promise<boolean>): Promise<void> {
  const deadline = Date.now() + 20_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

function startWatcher(taskQueue: string): Promise<WorkflowHandle<typeof watchRoute>> {
  return workflows.env().client.workflow.start(watchRoute, {
    taskQueue,
    workflowId: `watch-inbox-${randomUUID()}`,
    args: [{ route: 'inbox', activityQueue: taskQueue }],
  });
}

describe('watchRoute', () => {
  it("starts a claimed file's workflow as its child, with the file's id and search attributes, and keeps the file in hand", async () => {
    const hash = randomUUID();
    const looks = scriptedLooks([[fileToStart('RE-1.xml', hash, true)]]);
    const filed: FileConnectorResultInput[] = [];
    await workflows.withWorker({ ...fileSteps(filed), lookAtRoute: looks.lookAtRoute }, async (taskQueue) => {
      const watcher = await startWatcher(taskQueue);
      const file = workflows.env().client.workflow.getHandle<typeof processConnectorFile>(`connectorFile-inbox-${hash}`);
      await until('the file workflow', () =>
        file.describe().then(
          () => true,
          () => false,
        ),
      );
      expect(await file.result()).toMatchObject({ status: 'done', inputPath: 'done/RE-1.xml' });
      const described = await file.describe();
      expect(described.parentExecution?.workflowId).toBe(watcher.workflowId);
      expect(described.typedSearchAttributes.get(OPERATION)).toBe('connectorFile');
      expect(described.typedSearchAttributes.get(ROUTE)).toBe('inbox');
      expect(described.typedSearchAttributes.get(FILE)).toBe('RE-1.xml');
      expect(described.typedSearchAttributes.get(OUTCOME)).toBe('valid');
      await watcher.signal('lookNow');
      await until('the second look', () => looks.previous.length >= 2);
      await watcher.terminate('test over');
    });
    expect(filed.map((f) => [f.file.name, f.outcome.kind])).toEqual([['RE-1.xml', 'done']]);
    // The next look is told the file is in hand, so it does not read it again.
    expect(looks.previous[1]).toMatchObject({ inHand: ['10:processing/inbox/RE-1.xml'], pending: false });
  });

  it('starts content under way once: a second copy waits and is looked at again soon; the file ends after its watcher', async () => {
    const hash = randomUUID();
    let release!: () => void;
    const staged = new Promise<void>((resolve) => (release = resolve));
    const looks = scriptedLooks([[fileToStart('RE-2.xml', hash, true)], [fileToStart('copy-of-RE-2.xml', hash, false)]]);
    const filed: FileConnectorResultInput[] = [];
    await workflows.withWorker({ ...fileSteps(filed, staged), lookAtRoute: looks.lookAtRoute }, async (taskQueue) => {
      const watcher = await startWatcher(taskQueue);
      await until('the first look', () => looks.previous.length >= 1);
      await watcher.signal('lookNow');
      // The copy's start is refused (the first copy's workflow runs): pending, so the third look comes at the short interval.
      await until('a third look', () => looks.previous.length >= 3);
      await watcher.terminate('test over');
      release();
      const file = workflows.env().client.workflow.getHandle<typeof processConnectorFile>(`connectorFile-inbox-${hash}`);
      expect(await file.result()).toMatchObject({ status: 'done', inputPath: 'done/RE-2.xml' });
    });
    expect(looks.previous[2]).toMatchObject({ pending: true, inHand: [] });
    expect(filed.map((f) => f.file.name)).toEqual(['RE-2.xml']);
  });

  it("starts one workflow for copies of one content in one look, the first copy's; the other waits", async () => {
    const hash = randomUUID();
    const looks = scriptedLooks([[fileToStart('copy-of-RE-3.xml', hash, false), fileToStart('RE-3.xml', hash, true)]]);
    const filed: FileConnectorResultInput[] = [];
    await workflows.withWorker({ ...fileSteps(filed), lookAtRoute: looks.lookAtRoute }, async (taskQueue) => {
      const watcher = await startWatcher(taskQueue);
      await until('a second look', () => looks.previous.length >= 2);
      await watcher.terminate('test over');
      const file = workflows.env().client.workflow.getHandle<typeof processConnectorFile>(`connectorFile-inbox-${hash}`);
      expect(await file.result()).toMatchObject({ status: 'done', inputPath: 'done/RE-3.xml' });
    });
    // The copy is not in hand: the next look reads it again, and once the first copy is finished files it as a duplicate.
    expect(looks.previous[1]).toMatchObject({ pending: true, inHand: ['10:processing/inbox/RE-3.xml'] });
    expect(filed.map((f) => f.file.name)).toEqual(['RE-3.xml']);
  });
});
