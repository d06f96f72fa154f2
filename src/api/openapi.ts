import { z } from 'zod';
import { invoiceSchema } from '../invoice/model.js';
import { errorEnvelopeSchema } from './errors.js';
import type { ParameterSpec, ResponseSpec, RouteSpec } from './route.js';

type JsonSchema = Record<string, unknown>;

/** Business-term annotations become `x-bt` plus a description prefix, which OpenAPI tools show. */
function annotate(ctx: { zodSchema: z.core.$ZodType; jsonSchema: JsonSchema }): void {
  const js = ctx.jsonSchema;
  const bt = js.bt as string | undefined;
  delete js.bt;
  delete js.kind;
  if (bt) {
    js['x-bt'] = bt;
    js.description = js.description ? `${bt}: ${String(js.description)}` : bt;
  }
}

function componentSchemas(entries: Array<[string, z.ZodType]>, io: 'input' | 'output'): Record<string, JsonSchema> {
  const registry = z.registry<{ id: string }>();
  for (const [id, schema] of entries) if (!registry.has(schema)) registry.add(schema, { id });
  const { schemas } = z.toJSONSchema(registry, {
    io,
    target: 'draft-2020-12',
    unrepresentable: 'any',
    uri: (id) => `#/components/schemas/${id}`,
    override: annotate,
  });
  for (const s of Object.values(schemas)) delete (s as JsonSchema).$schema;
  return schemas as Record<string, JsonSchema>;
}

const toOpenApiPath = (koaPath: string) => koaPath.replace(/:(\w+)/g, '{$1}');
const ref = (id: string) => ({ $ref: `#/components/schemas/${id}` });

export function buildOpenApi(allRoutes: RouteSpec[], info: { version: string; servers: string[] }): JsonSchema {
  const routes = allRoutes.filter((r) => !r.hidden);
  const requests: Array<[string, z.ZodType]> = [['Invoice', invoiceSchema]];
  // One component per response schema object: a schema two operations share (an alias path) is referenced by both.
  const responseIds = new Map<z.ZodType, string>([[errorEnvelopeSchema, 'ErrorEnvelope']]);
  const responseId = (status: string, spec: ResponseSpec, operationId: string): string => {
    const schema = spec.schema!;
    const known = responseIds.get(schema);
    if (known) return known;
    // Success answers are named after their operation; other answers with their own shape (a 412 body, a failure with an e-mail) by their id.
    const id = status.startsWith('2')
      ? `${cap(operationId)}Response`
      : ((schema.meta() as { id?: string } | undefined)?.id ?? `${cap(operationId)}Error${status}`);
    responseIds.set(schema, id);
    return id;
  };
  for (const r of routes) if (r.body) requests.push([`${cap(r.operationId)}Request`, r.body]);
  const paths: Record<string, Record<string, unknown>> = {};
  for (const r of routes) {
    const item = (paths[toOpenApiPath(r.path)] ??= {});
    item[r.method.toLowerCase()] = {
      operationId: r.operationId,
      summary: r.summary,
      ...(r.description ? { description: r.description } : {}),
      tags: r.tags,
      security: r.auth === 'bearer' ? [{ bearerAuth: [] }] : [],
      parameters: [...pathParameters(r.path, r.pathParams), ...queryParameters(r.query), ...headerParameters(r.headers)],
      ...(r.body
        ? { requestBody: { required: true, content: { 'application/json': { schema: ref(`${cap(r.operationId)}Request`) } } } }
        : {}),
      responses: Object.fromEntries(
        Object.entries(r.responses).map(([status, spec]) => [
          status,
          {
            description: spec.description,
            ...(spec.headers
              ? {
                  headers: Object.fromEntries(
                    Object.entries(spec.headers).map(([name, h]) => [name, { description: h.description, schema: parameterSchema(h) }]),
                  ),
                }
              : {}),
            ...(spec.schema || spec.contentType
              ? {
                  content: {
                    [spec.contentType ?? 'application/json']: {
                      schema: spec.schema ? ref(responseId(status, spec, r.operationId)) : rawSchema(spec.contentType!),
                    },
                    ...Object.fromEntries(
                      Object.entries(spec.alternatives ?? {}).map(([type, description]) => [
                        type,
                        { schema: { ...rawSchema(type), description } },
                      ]),
                    ),
                  },
                }
              : {}),
          },
        ]),
      ),
    };
  }
  const responses = [...responseIds].map(([schema, id]): [string, z.ZodType] => [id, schema]);
  return {
    openapi: '3.1.0',
    info: {
      title: 'E-invoice service',
      version: info.version,
      description: 'EN 16931 e-invoices: XRechnung XML and ZUGFeRD / Factur-X PDF/A-3. Errors use one envelope, see ErrorEnvelope.',
    },
    servers: info.servers.map((url) => ({ url })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          description: 'Only "Authorization: Bearer <token>"; a raw token or an authtoken header gives 403.',
        },
      },
      schemas: { ...componentSchemas(requests, 'input'), ...componentSchemas(responses, 'output') },
    },
  };
}

function pathParameters(path: string, specs: Record<string, ParameterSpec> = {}) {
  return [...path.matchAll(/:(\w+)/g)].map((m) => {
    const spec = specs[m[1] ?? ''];
    return {
      name: m[1],
      in: 'path',
      required: true,
      ...(spec ? { description: spec.description } : {}),
      schema: spec ? parameterSchema(spec) : { type: 'string' },
    };
  });
}

function headerParameters(headers: Record<string, ParameterSpec> = {}) {
  return Object.entries(headers).map(([name, spec]) => ({
    name,
    in: 'header',
    required: spec.required ?? false,
    description: spec.description,
    schema: parameterSchema(spec),
  }));
}

function parameterSchema(spec: ParameterSpec): JsonSchema {
  if (!spec.schema) return { type: 'string' };
  const schema = z.toJSONSchema(spec.schema, { io: 'input', unrepresentable: 'any' }) as JsonSchema;
  delete schema.$schema;
  return schema;
}

function queryParameters(query: z.ZodType | undefined) {
  if (!(query instanceof z.ZodObject)) return [];
  return Object.entries(query.shape as Record<string, z.ZodType>).map(([name, schema]) => ({
    name,
    in: 'query',
    required: !schema.safeParse(undefined).success,
    schema: z.toJSONSchema(schema, { io: 'input', unrepresentable: 'any' }),
  }));
}

/** A body that is not JSON: text for text types, bytes otherwise. */
const rawSchema = (type: string): JsonSchema => (type.startsWith('text/') ? { type: 'string' } : { type: 'string', format: 'binary' });

const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
