import type Koa from 'koa';
import { httpDuration, httpInFlight, httpRequests } from './metrics.js';

/**
 * Counts and times every request by the route pattern the router matched (`/api/v1/documents/:id/download`,
 * never the path itself, so ids and signatures do not become label values) and the status sent.
 * Runs outermost, so refusals shaped by the error handler are counted with their status.
 */
export function httpMetrics(): Koa.Middleware {
  return async (ctx, next) => {
    const started = performance.now();
    httpInFlight.inc();
    try {
      await next();
    } finally {
      httpInFlight.dec();
      const labels = {
        method: ctx.method,
        route: (ctx as { _matchedRoute?: string })._matchedRoute ?? 'unmatched',
        status: String(ctx.status),
      };
      httpRequests.inc(labels);
      httpDuration.observe(labels, (performance.now() - started) / 1000);
    }
  };
}
