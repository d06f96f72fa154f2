import type { Logger } from 'pino';
import { z } from 'zod';
import { JsonNumber } from '../invoice/decimal.js';
import { fieldProblems } from '../jobs/intake/field-problems.js';
import type { Job } from '../jobs/intake/job.js';
import { ApiError } from './errors.js';

/**
 * A route is declared once: its zod schemas validate the request and are the
 * OpenAPI description of it (see openapi.ts), so the two cannot drift apart.
 */

export interface Principal {
  accountId: string;
  tokenId: string;
}

export interface RequestInfo {
  requestId: string;
  log: Logger;
  headers: Record<string, string | string[] | undefined>;
  params: Record<string, string>;
}

/** A request as a job: the caller's account, the request as its source, the request's log. */
export function jobOf(principal: Principal, request: RequestInfo): Job {
  return { account: principal, source: { kind: 'request', requestId: request.requestId }, log: request.log };
}

export interface RouteResult {
  status?: number;
  /** JSON-serialisable value, or raw bytes with `contentType`. */
  body: unknown;
  contentType?: string;
  headers?: Record<string, string>;
}

export interface ResponseSpec {
  description: string;
  schema?: z.ZodType;
  contentType?: string;
  /** Response headers worth documenting, by name. */
  headers?: Record<string, ParameterSpec>;
  /** Other representations of the same answer, chosen by the Accept header: content type → description. */
  alternatives?: Record<string, string>;
}

/** A header or path parameter, for the OpenAPI document (the handler reads and checks it itself). */
export interface ParameterSpec {
  description: string;
  /** Default false; path parameters are always required. */
  required?: boolean;
  /** Default: a string. */
  schema?: z.ZodType;
}

type Auth = 'bearer' | 'none';

interface RouteBase<A extends Auth, B extends z.ZodType | undefined, Q extends z.ZodType | undefined> {
  method: 'GET' | 'POST';
  /** Koa path syntax (`/documents/:id`). */
  path: string;
  operationId: string;
  summary: string;
  description?: string;
  tags: string[];
  auth: A;
  body?: B;
  query?: Q;
  /** Request headers the handler reads from `request.headers`, by name. */
  headers?: Record<string, ParameterSpec>;
  /** Descriptions of the path's `:name` parameters; without one a parameter is a plain string. */
  pathParams?: Record<string, ParameterSpec>;
  /** Largest body read; defaults to the 16 MB platform limit. */
  bodyLimit?: number;
  responses: Record<number, ResponseSpec>;
  /** Left out of the OpenAPI document (the documentation pages themselves). */
  hidden?: boolean;
  /**
   * Shapes this route's error responses, from authentication on; without it they are the
   * envelope of errors.ts. `body` is the parsed body when parsing got that far.
   */
  failure?: (err: ApiError, context: { request: RequestInfo; body: unknown }) => RouteResult | Promise<RouteResult>;
}

type Out<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerInput<A extends Auth, B, Q> {
  body: B;
  query: Q;
  principal: A extends 'bearer' ? Principal : undefined;
  request: RequestInfo;
}

export interface RouteSpec<
  A extends Auth = Auth,
  B extends z.ZodType | undefined = z.ZodType | undefined,
  Q extends z.ZodType | undefined = z.ZodType | undefined,
> extends RouteBase<A, B, Q> {
  handle(input: HandlerInput<A, Out<B>, Out<Q>>): Promise<RouteResult>;
}

export function defineRoute<A extends Auth, B extends z.ZodType | undefined = undefined, Q extends z.ZodType | undefined = undefined>(
  spec: RouteSpec<A, B, Q>,
): RouteSpec {
  return spec as unknown as RouteSpec;
}

/** A JSON number where the interface wants text or a flag is refused as such, not as "an object". */
const numberWhereNot: z.core.$ZodErrorMap = (issue) =>
  issue.code === 'invalid_type' && issue.input instanceof JsonNumber
    ? `must be ${issue.expected === 'string' ? 'text (a JSON string in quotes)' : `a ${issue.expected}`}, not a number`
    : undefined;

/** Validates a request part; problems name the JSON path and, inside an invoice, the business term. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown, where: 'body' | 'query'): z.output<S> {
  const result = schema.safeParse(value, { error: numberWhereNot });
  if (result.success) return result.data;
  throw new ApiError('VALIDATION_ERROR', { fields: fieldProblems(result.error.issues, where) });
}
