/**
 * A client of the REST API as a careful integrator writes one: every request that creates or
 * sends carries an Idempotency-Key, and is sent again with the same key until it gets an answer
 * that is not "try again" (a lost connection, 5xx, 409 IDEMPOTENCY_IN_PROGRESS). The
 * fault-injection tests and scripts, and the load script, use it.
 */

export interface Answer {
  status: number;
  headers: Headers;
  body: Buffer;
  /** The body as JSON, when it is. */
  json: any;
  /** Requests it took. */
  attempts: number;
  ms: number;
}

export interface Target {
  url: string;
  token: string;
}

export async function send(
  target: Target,
  path: string,
  body: unknown,
  key?: string,
  timeoutMs = 660_000,
): Promise<Omit<Answer, 'attempts' | 'ms'>> {
  const res = await fetch(`${target.url}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}`, ...(key ? { 'idempotency-key': key } : {}) },
    body: JSON.stringify(body),
    signal: AbortSignal.timeout(timeoutMs),
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  let json: unknown;
  try {
    json = JSON.parse(bytes.toString('utf8'));
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, body: bytes, json };
}

/** An answer the client should not act on but send again: 5xx, and whatever the service marks retryable (409 IDEMPOTENCY_IN_PROGRESS). */
export function tryAgain(a: { status: number; json: any }): boolean {
  return a.status >= 500 || a.json?.error?.retryable === true;
}

/** Sends until answered for good; gives up after `deadlineMs` with the last problem. */
export async function sendUntilAnswered(
  target: Target,
  path: string,
  body: unknown,
  key: string,
  opts: { deadlineMs?: number; pauseMs?: number } = {},
): Promise<Answer> {
  const started = Date.now();
  const deadline = started + (opts.deadlineMs ?? 600_000);
  let last = '';
  for (let attempts = 1; ; attempts++) {
    try {
      const answer = await send(target, path, body, key, Math.max(1_000, deadline - Date.now()));
      if (!tryAgain(answer)) return { ...answer, attempts, ms: Date.now() - started };
      last = `${answer.status} ${answer.body.toString('utf8').slice(0, 300)}`;
    } catch (err) {
      last = (err as Error).message; // connection refused or reset: the API is down
    }
    if (Date.now() > deadline) throw new Error(`${path} with key ${key}: no answer within ${opts.deadlineMs} ms; last: ${last}`);
    await new Promise((r) => setTimeout(r, opts.pauseMs ?? 1_000));
  }
}
