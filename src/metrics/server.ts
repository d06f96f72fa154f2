import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Registry } from 'prom-client';

/**
 * The process's metrics in Prometheus' text format at `/metrics`, on a port of its own: the API
 * port faces callers, this one the monitoring network. Unauthenticated, like Prometheus expects.
 */
export async function startMetricsServer(registry: Registry, host: string, port: number): Promise<{ url: string; close(): Promise<void> }> {
  const server = http.createServer((req, res) => {
    if (req.method !== 'GET' || (req.url ?? '').split('?')[0] !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain' }).end('Not found: metrics are at /metrics\n');
      return;
    }
    registry.metrics().then(
      (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
      (err: unknown) => res.writeHead(500, { 'content-type': 'text/plain' }).end(`metrics failed: ${(err as Error).message}\n`),
    );
  });
  await new Promise<void>((resolve, reject) => server.once('error', reject).listen(port, host, resolve));
  return {
    url: `http://${host}:${(server.address() as AddressInfo).port}/metrics`,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
