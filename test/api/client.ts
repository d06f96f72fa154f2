import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { inject } from 'vitest';
import { repoRoot } from '../../scripts/lib/spawn-service.js';
import type { ServiceHandle } from '../support/global-setup.js';

const run = promisify(execFile);

export const services: ServiceHandle[] = inject('services');
export const byName = (name: ServiceHandle['name']) => services.find((s) => s.name === name)!;

export interface CallOptions {
  method?: string;
  body?: unknown;
  /** Raw body text, sent as is. */
  raw?: string | Uint8Array;
  headers?: Record<string, string>;
  /** Default: the service's test token as Bearer; null: no Authorization header. */
  token?: string | null;
}

export interface CallResult<T = any> {
  status: number;
  headers: Headers;
  json: T;
  text: string;
  ms: number;
}

export async function call<T = any>(service: ServiceHandle, path: string, opts: CallOptions = {}): Promise<CallResult<T>> {
  const headers: Record<string, string> = {
    ...(opts.body !== undefined || opts.raw !== undefined ? { 'content-type': 'application/json' } : {}),
    ...opts.headers,
  };
  const token = opts.token === undefined ? service.token : opts.token;
  if (token !== null) headers.authorization = `Bearer ${token}`;
  const started = performance.now();
  const res = await fetch(`${service.url}${path}`, {
    method: opts.method ?? (opts.body !== undefined || opts.raw !== undefined ? 'POST' : 'GET'),
    headers,
    body: opts.raw ?? (opts.body !== undefined ? JSON.stringify(opts.body) : undefined),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  let json: any;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, headers: res.headers, json, text, ms };
}

/** Every error must come in the one envelope, with the reference equal to the request id. */
export function expectEnvelope(r: CallResult, status: number, code: string): void {
  if (r.status !== status || r.json?.error?.code !== code) {
    throw new Error(`expected ${status} ${code}, got ${r.status} ${r.text.slice(0, 500)}`);
  }
  const e = r.json.error;
  if (
    r.json.success !== false ||
    typeof e.userMessage !== 'string' ||
    !e.userMessage ||
    e.reference !== r.headers.get('x-request-id') ||
    typeof e.retryable !== 'boolean'
  ) {
    throw new Error(`malformed error envelope: ${r.text}`);
  }
}

/** A token of a new account of its own (accounts CLI), for tests that read what an account did, undisturbed by other files. */
export async function ownAccountToken(service: ServiceHandle, name: string): Promise<string> {
  const cli = async (...args: string[]) =>
    JSON.parse(
      (
        await run(process.execPath, [path.join(repoRoot, 'dist/src/cli/accounts.js'), ...args, '--json'], {
          cwd: repoRoot,
          env: service.env,
        })
      ).stdout,
    ) as Record<string, string>;
  const account = await cli('create-account', '--name', name);
  return (await cli('create-token', '--account', account.id!, '--label', name)).token!;
}
