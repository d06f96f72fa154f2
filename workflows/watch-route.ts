import { condition, continueAsNew, defineQuery, defineSignal, proxyActivities, setHandler } from '@temporalio/workflow';
import type { ConnectorActivities } from '../activities/connectors.js';
import { sourceStep } from './activity-profiles.js';
import type { ConnectorOperation, LookState, WatcherState } from '../src/jobs/contracts.js';

/** Sent by a local folder watcher when something changed: look now instead of at the next interval. */
export const lookNow = defineSignal('lookNow');

/** For /health: the route, its last look, and what waits in its folder. */
export const routeState = defineQuery<WatcherState>('routeState');

/** A run's history stays short: after this many looks the watcher continues as a new run, carrying only its last look. */
const LOOKS_PER_RUN = 200;

export interface WatchRouteInput {
  route: string;
  operation?: ConnectorOperation;
  activityQueue: string;
  /** The last look of the run before (continue-as-new). */
  state?: LookState;
}

/**
 * The durable poller of one connector route (workflow id `watch-<route>`): it looks at the
 * route's folder, claims what is complete and starts each file's workflow (lookAtRoute), then
 * waits for the next look. It survives restarts of every process and shows in the Temporal UI
 * like any document; a Drive route's change-log token lives in its state, so a poll resumes from
 * where the last one left off. A source that is down is retried until it is back; looks resume there.
 */
export async function watchRoute(input: WatchRouteInput): Promise<void> {
  const step = sourceStep(input.activityQueue);
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
  for (let i = 0; i < LOOKS_PER_RUN; i++) {
    asked = false;
    const { nextLookMs, ...next } = await lookAtRoute({ route: input.route, previous: state });
    state = next;
    lastLookAt = new Date().toISOString();
    await condition(() => asked, nextLookMs);
  }
  await continueAsNew<typeof watchRoute>({ ...input, state });
}
