import { routeState } from '../../../workflows/watch-route.js';
import type { RouteStatus } from '../../../connectors/status.js';
import { watchRouteOperation } from '../../../connectors/watch-operation.js';
import type { JobDeps } from './run-workflow.js';

/** Longest a /health answer waits for Temporal; past it the last known state is given. */
const ASK_TIMEOUT_MS = 3_000;

/**
 * Every connector route of the installation, whichever process watches it: each running route
 * watcher (`watch-<route>`) says when it last looked and what waits in its folder, a look that
 * keeps failing says why its source cannot be reached, and the ledger counts what was done.
 */
export async function connectorStatus(deps: JobDeps): Promise<RouteStatus[]> {
  const ids: string[] = [];
  const query = `EinvoiceOperation = "${watchRouteOperation.name}" AND ExecutionStatus = "Running"`;
  for await (const wf of deps.temporal.workflow.list({ query })) ids.push(wf.workflowId);
  const counts = await deps.storage.connectorFiles.counts();
  const routes = await Promise.all(
    ids.map(async (id): Promise<RouteStatus | undefined> => {
      const handle = deps.temporal.workflow.getHandle(id);
      const [state, description] = await Promise.all([
        handle.query(routeState).catch(() => undefined),
        handle.describe().catch(() => undefined),
      ]);
      // The look that is being retried: its last failure is the source's problem.
      const failing = description?.raw.pendingActivities?.find((a) => (a.attempt ?? 0) > 1 && a.lastFailure?.message);
      const route = state?.route ?? id.replace(/^watch-/, '');
      const c = counts.get(route) ?? { processing: 0, done: 0, refused: 0, failed: 0 };
      return {
        route,
        ...(state?.operation ? { operation: state.operation } : {}),
        waiting: failing ? -1 : (state?.waiting ?? 0),
        processing: c.processing,
        processed: c.done,
        refused: c.refused + c.failed,
        ...(state?.lastLookAt ? { lastLookAt: state.lastLookAt } : {}),
        ...(failing ? { problem: failing.lastFailure!.message! } : state ? {} : { problem: 'no worker answers for the route watcher' }),
      };
    }),
  );
  return routes.filter((r): r is RouteStatus => r !== undefined).sort((a, b) => a.route.localeCompare(b.route));
}

/**
 * connectorStatus for a frequently asked endpoint: at most one question to Temporal at a time, an
 * answer at most `maxAgeMs` old, and never a wait of more than a few seconds (then the last one).
 */
export function cachedConnectorStatus(deps: JobDeps, maxAgeMs = 5_000): () => Promise<RouteStatus[] | undefined> {
  let last: { at: number; routes: RouteStatus[] } | undefined;
  let asking: Promise<void> | undefined;
  return async () => {
    if (!last || Date.now() - last.at > maxAgeMs) {
      asking ??= connectorStatus(deps)
        .then((routes) => {
          last = { at: Date.now(), routes };
        })
        .catch(() => undefined)
        .finally(() => {
          asking = undefined;
        });
      await Promise.race([asking, new Promise((r) => setTimeout(r, ASK_TIMEOUT_MS).unref())]);
    }
    return last?.routes;
  };
}
