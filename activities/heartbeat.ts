import { Context } from '@temporalio/activity';

/**
 * Every activity tells Temporal it is alive while it runs, so a worker that dies (kill -9, a lost
 * machine) is noticed within the heartbeat timeout of the activity's profile
 * (src/operations/steps.ts) and the step runs again elsewhere within seconds, instead of
 * after its whole start-to-close timeout. The SDK throttles what reaches the server.
 */
export const HEARTBEAT_MS = 5_000;

/** Runs `step` with heartbeats every HEARTBEAT_MS. */
export async function heartbeating<T>(step: () => Promise<T>): Promise<T> {
  const activity = Context.current();
  // A local activity is watched through its workflow task instead.
  if (activity.info.isLocal) return step();
  const alive = setInterval(() => activity.heartbeat(), HEARTBEAT_MS);
  try {
    return await step();
  } finally {
    clearInterval(alive);
  }
}

type AsyncFunctions = Record<string, (...args: never[]) => Promise<unknown>>;

/** The same activities, each running with heartbeats. */
export function withHeartbeats<A extends AsyncFunctions>(activities: A): A {
  return Object.fromEntries(
    Object.entries(activities).map(([name, run]) => [name, (...args: never[]) => heartbeating(() => run(...args))]),
  ) as A;
}
