import { randomUUID } from 'node:crypto';
import Router from '@koa/router';
import Koa from 'koa';
import type { Logger } from 'pino';
import { JobRefusal } from '../jobs/intake/refusal.js';
import { httpMetrics } from '../metrics/http.js';
import { ApiError, fromRefusal, toEnvelope } from './errors.js';
import { readJsonBody } from './json-body.js';
import { parseWith, type Principal, type RequestInfo, type RouteResult, type RouteSpec } from './route.js';

export interface AppOptions {
  routes: RouteSpec[];
  log: Logger;
  /** Resolves the bearer token of a request to its account, or throws an ApiError. */
  authenticate(headers: Record<string, string | string[] | undefined>): Promise<Principal>;
}

const REQUEST_ID = /^[A-Za-z0-9._:-]{1,64}$/;

export function createApp(opts: AppOptions): Koa {
  const app = new Koa({ proxy: false });
  const router = new Router();

  app.use(httpMetrics());
  app.use(async (ctx, next) => {
    const incoming = ctx.get('x-request-id');
    const requestId = REQUEST_ID.test(incoming) ? incoming : randomUUID();
    const log = opts.log.child({ requestId });
    ctx.state.requestId = requestId;
    ctx.state.log = log;
    ctx.set('X-Request-Id', requestId);
    const started = performance.now();
    try {
      await next();
      if (ctx.status === 404 && ctx.body === undefined) throw new ApiError('NOT_FOUND', { detail: `No route ${ctx.method} ${ctx.path}` });
    } catch (err) {
      const apiError = asApiError(err);
      if (apiError.status >= 500) log.error({ err }, 'request failed');
      ctx.status = apiError.status;
      ctx.body = toEnvelope(apiError, requestId);
    }
    log.info({ method: ctx.method, path: ctx.path, status: ctx.status, ms: Math.round(performance.now() - started) }, 'request');
  });

  for (const route of opts.routes) {
    router.register(route.path, [route.method], async (ctx) => {
      const request: RequestInfo = {
        requestId: ctx.state.requestId as string,
        log: ctx.state.log as Logger,
        headers: ctx.headers,
        params: ctx.params,
      };
      let body: unknown;
      try {
        // Authenticate before reading the body: a bad token is refused without touching 16 MB of upload.
        const principal = route.auth === 'bearer' ? await opts.authenticate(ctx.headers) : undefined;
        body = route.body ? parseWith(route.body, await readJsonBody(ctx.req, route.bodyLimit), 'body') : undefined;
        const query = route.query ? parseWith(route.query, ctx.query, 'query') : undefined;
        send(ctx, await route.handle({ body, query, principal, request } as Parameters<RouteSpec['handle']>[0]));
      } catch (err) {
        if (!route.failure) throw err;
        const apiError = asApiError(err);
        if (apiError.status >= 500) request.log.error({ err }, 'request failed');
        send(ctx, await route.failure(apiError, { request, body }));
      }
    });
  }

  app.use(router.routes());
  app.use(
    router.allowedMethods({
      throw: true,
      methodNotAllowed: () => new ApiError('METHOD_NOT_ALLOWED'),
      notImplemented: () => new ApiError('METHOD_NOT_ALLOWED'),
    }),
  );
  return app;
}

function send(ctx: Koa.Context, result: RouteResult): void {
  ctx.status = result.status ?? 200;
  for (const [k, v] of Object.entries(result.headers ?? {})) ctx.set(k, v);
  if (result.contentType) ctx.type = result.contentType;
  ctx.body = result.body;
}

function asApiError(err: unknown): ApiError {
  if (err instanceof ApiError) return err;
  if (err instanceof JobRefusal) return fromRefusal(err);
  // Koa/http-errors carry a status (e.g. 400 on an aborted body); anything else is ours to fix.
  const status = (err as { status?: number }).status;
  if (status === 400) return new ApiError('INVALID_JSON', { detail: (err as Error).message, cause: err });
  if (status === 413) return new ApiError('BODY_TOO_LARGE', { cause: err });
  return new ApiError('INTERNAL_ERROR', { cause: err });
}
