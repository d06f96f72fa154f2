import { z } from 'zod';
import { idempotent, requestHash } from '../jobs/submit/idempotency.js';
import type { Job } from '../jobs/intake/job.js';
import { ApiError } from './errors.js';
import { jobOf, type ParameterSpec, type Principal, type RequestInfo, type RouteResult } from './route.js';
import type { Services } from './services.js';

/**
 * The Idempotency-Key header of the create, convert and e-mail endpoints (the protocol is in
 * src/jobs/submit/idempotency.ts): the first request with a key runs, its answer is kept 24 hours and
 * given again, byte for byte, to every request with the same key and body.
 */

const IDEMPOTENCY_KEY = /^[\x21-\x7e]{1,255}$/;

/** The request header as the OpenAPI document shows it. */
export const idempotencyKeyHeader: ParameterSpec = {
  description:
    'Optional; any unique string (1 to 255 visible ASCII characters). The first request with a key is processed normally and its response ' +
    'is cached for 24 hours. The same key with an identical body within 24 hours returns the cached response (or, while the first is still ' +
    'being processed, waits for it), creates nothing new, sends no e-mail again and uses no credits; this holds also when a request timed ' +
    'out or a process of the service died meanwhile. The same key with a different body is rejected with 409 Conflict and uses no credits.',
  schema: z.string().regex(IDEMPOTENCY_KEY),
};

export const idempotencyKeyReusedHeader: ParameterSpec = {
  description: 'Only when the request had an Idempotency-Key: true for a cached response, false for a freshly created one.',
  schema: z.enum(['true', 'false']),
};

/** The headers entry of a route that takes the key, and of its success responses. */
export const idempotencyHeaders = {
  request: { 'Idempotency-Key': idempotencyKeyHeader },
  response: { 'X-Idempotency-Key-Reused': idempotencyKeyReusedHeader },
};

/** What is kept of an answer: enough to send it again byte for byte. */
interface KeptResponse {
  status: number;
  /** A JSON body, or with `contentType` the raw body as base64. */
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface KeyedRoute {
  /** The operation: part of what makes two requests the same. */
  operation: string;
  /** The validated body. */
  body: unknown;
  /** Adapts an answer kept by an earlier version of the service. */
  upgrade?: (body: unknown) => Promise<unknown>;
}

/**
 * Runs the route's work for the request, once per Idempotency-Key when the request has one.
 * `execute` gets the services and the job to run it with.
 */
export async function oncePerKey(
  services: Services,
  principal: Principal,
  request: RequestInfo,
  route: KeyedRoute,
  execute: (services: Services, job: Job) => Promise<RouteResult>,
): Promise<RouteResult> {
  const key = idempotencyKeyOf(request);
  if (key === undefined) return execute(services, jobOf(principal, request));
  const answer = await idempotent(
    services,
    { accountId: principal.accountId, key, requestHash: requestHash(route.operation, route.body) },
    async (deps, keyed) => keep(await execute({ ...services, ...deps }, { ...jobOf(principal, request), keyed })),
  );
  const kept = answer.value;
  const body = kept.contentType
    ? Buffer.from(kept.body as string, 'base64')
    : answer.reused && route.upgrade
      ? await route.upgrade(kept.body)
      : kept.body;
  return {
    status: kept.status,
    body,
    ...(kept.contentType ? { contentType: kept.contentType } : {}),
    headers: { ...kept.headers, 'X-Idempotency-Key-Reused': String(answer.reused) },
  };
}

/** The key of the request; a malformed one is refused naming the header. */
function idempotencyKeyOf(request: RequestInfo): string | undefined {
  const header = request.headers['idempotency-key'];
  if (header === undefined) return undefined;
  const key = Array.isArray(header) ? header[0] : header;
  if (!key || !IDEMPOTENCY_KEY.test(key)) {
    throw new ApiError('VALIDATION_ERROR', {
      fields: [{ field: 'Idempotency-Key', message: 'must be 1 to 255 visible ASCII characters' }],
    });
  }
  return key;
}

function keep(result: RouteResult): KeptResponse {
  const binary = Buffer.isBuffer(result.body);
  return {
    status: result.status ?? 200,
    body: binary ? (result.body as Buffer).toString('base64') : result.body,
    ...(binary ? { contentType: result.contentType ?? 'application/octet-stream' } : {}),
    ...(result.headers ? { headers: result.headers } : {}),
  };
}
