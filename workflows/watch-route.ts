import { WorkflowExecutionAlreadyStartedError } from '@temporalio/common';
import {
  condition,
  continueAsNew,
  defineQuery,
  defineSignal,
  ParentClosePolicy,
  proxyActivities,
  setHandler,
  startChild,
  workflowInfo,
} from '@temporalio/workflow';
import type { ConnectorActivities } from '../activities/connectors.js';
import { connectorFileOperation } from '../connectors/file-operation.js';
import {
  watchRouteOperation,
  type FileToStart,
  type LookState,
  type WatcherState,
  type WatchRouteInput,
} from '../connectors/watch-operation.js';
import { startAttributes } from '../src/temporal/search-attributes.js';
import { processConnectorFile } from './connector-file.js';
import { onSource } from './steps.js';

/** Sent by a local folder watcher when something changed: look now instead of at the next interval. */
export const lookNow = defineSignal('lookNow');

/** For /health: the route, its last look, and what waits in its folder. */
export const routeState = defineQuery<WatcherState>('routeState');

/** A run's history stays short: after this many looks the watcher continues as a new run, carrying only its last look. */
const LOOKS_PER_RUN = 200;

/**
 * The durable poller of one connector route (workflow id `watch-<route>`): it looks at the
 * route's folder, which claims what is complete (lookAtRoute), starts each claimed file's
 * workflow as its child, then waits for the next look. It survives restarts of every process
 * and shows in the Temporal UI like any document; a Drive route's change-log token lives in its
 * state, so a poll resumes from where the last one left off. A source that is down is retried
 * until it is back; looks resume there.
 */
export async function watchRoute(input: WatchRouteInput): Promise<void> {
  const step = onSource(watchRouteOperation.steps.lookAtRoute, input.activityQueue);
  const { lookAtRoute } = proxyActivities<ConnectorActivities>({
    ...step,
    retry: { ...step.retry, nonRetryableErrorTypes: ['ROUTE_UNKNOWN'] },
  });
  let asked = false;
  setHandler(lookNow, () => {
    asked = true;
  });
  let state: LookState = input.state ?? { look: [], pending: true };
  let lastLookAt: string | undefined;
  setHandler(routeState, () => ({
    route: input.route,
    ...(input.operation ? { operation: input.operation } : {}),
    ...(lastLookAt ? { lastLookAt } : {}),
    waiting: state.waiting ?? 0,
  }));
  // Each file's start and end are events of this run too: a large batch ends the run early.
  for (let i = 0; i < LOOKS_PER_RUN && !workflowInfo().continueAsNewSuggested; i++) {
    asked = false;
    const { toStart, nextLookMs, ...look } = await lookAtRoute({ route: input.route, previous: state });
    const started = await startFiles(toStart, input.activityQueue);
    state = { ...look, inHand: [...(look.inHand ?? []), ...started.inHand], pending: look.pending || started.waiting };
    lastLookAt = new Date().toISOString();
    await condition(() => asked, state.pending ? nextLookMs.pending : nextLookMs.idle);
  }
  await continueAsNew<typeof watchRoute>({ ...input, state });
}

/**
 * Starts the files' workflows; answers those now in hand and whether one waits for an earlier copy
 * of its content. Copies of one content share its workflow id, and of starts in one batch Temporal
 * may take any: only one copy is started, the ledger's first where it is among them.
 */
async function startFiles(files: FileToStart[], activityQueue: string): Promise<{ inHand: string[]; waiting: boolean }> {
  const one = new Map<string, FileToStart>();
  for (const file of [...files].sort((a, b) => Number(b.firstCopy) - Number(a.firstCopy)))
    if (!one.has(file.workflowId)) one.set(file.workflowId, file);
  const starting = [...one.values()];
  const fates = await Promise.all(starting.map((file) => startFile(file, activityQueue)));
  return {
    inHand: starting.filter((_, i) => fates[i] === 'in-hand').map((f) => f.handKey),
    waiting: starting.length < files.length || fates.includes('waiting'),
  };
}

/**
 * One file's workflow, as a child that outlives this run (continue-as-new, a terminated watcher):
 * it files its input and reports whatever becomes of the watcher. Its id is the content's, so a
 * second start of content under way is refused by Temporal: for this very file (a look before a
 * crash started it) that is "in hand"; for a copy of content another file is under way with,
 * the copy waits, and once the first is finished the ledger calls it a duplicate.
 */
async function startFile(file: FileToStart, activityQueue: string): Promise<'in-hand' | 'waiting'> {
  const { ctx, route, operation } = file.input;
  try {
    await startChild(processConnectorFile, {
      workflowId: file.workflowId,
      args: [{ ...file.input, activityQueue }],
      parentClosePolicy: ParentClosePolicy.ABANDON,
      typedSearchAttributes: startAttributes(connectorFileOperation.name, ctx.accountId, { route, name: file.input.file.name }),
      staticSummary: `${operation} of a file on route ${route}`,
      memo: { requestId: ctx.requestId },
    });
    return 'in-hand';
  } catch (err) {
    if (!(err instanceof WorkflowExecutionAlreadyStartedError)) throw err;
    return file.firstCopy ? 'in-hand' : 'waiting';
  }
}
