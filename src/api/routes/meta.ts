import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { createRequire } from 'node:module';
import { z } from 'zod';
import { ApiError } from '../errors.js';
import { buildOpenApi } from '../openapi.js';
import { defineRoute, type RouteSpec } from '../route.js';
import type { Services } from '../services.js';

const swaggerDir = path.dirname(createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'));
const SWAGGER_ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css',
  'swagger-ui-bundle.js': 'application/javascript',
  'swagger-ui-standalone-preset.js': 'application/javascript',
};

const DOCS_PAGE = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>E-invoice service API</title>
<link rel="stylesheet" href="/docs/swagger-ui.css"></head>
<body><div id="ui"></div>
<script src="/docs/swagger-ui-bundle.js"></script>
<script>SwaggerUIBundle({ url: '/openapi.json', dom_id: '#ui', persistAuthorization: true });</script>
</body></html>`;

/** Health, the OpenAPI document generated from the route table, and its interactive page (served offline). */
export function metaRoutes(services: Services, allRoutes: () => RouteSpec[]) {
  let openApi: object | undefined;
  return [
    defineRoute({
      method: 'GET',
      path: '/health',
      operationId: 'health',
      summary: "Liveness, version and the folder connectors' routes",
      tags: ['Service'],
      auth: 'none',
      responses: {
        200: {
          description:
            'The API answers; `connectors` lists each folder connector route of the installation, whichever process watches it (waiting -1 and `problem`: its source cannot be reached); absent without routes, or while Temporal does not answer',
          schema: z.object({
            status: z.literal('ok'),
            version: z.string(),
            connectors: z
              .array(
                z.object({
                  route: z.string(),
                  operation: z.string().optional(),
                  waiting: z.number(),
                  processing: z.number(),
                  processed: z.number(),
                  refused: z.number(),
                  lastLookAt: z.string().optional(),
                  problem: z.string().optional(),
                }),
              )
              .optional(),
          }),
        },
      },
      handle: async () => {
        const connectors = await services.connectorStatus();
        return { body: { status: 'ok', version: services.version, ...(connectors?.length ? { connectors } : {}) } };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/openapi.json',
      operationId: 'openapi',
      summary: 'OpenAPI 3.1 document',
      tags: ['Service'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'OpenAPI document' } },
      handle: async () => {
        openApi ??= buildOpenApi(allRoutes(), { version: services.version, servers: [services.config.http.publicBaseUrl] });
        return { body: openApi };
      },
    }),
    defineRoute({
      method: 'GET',
      path: '/docs',
      operationId: 'docs',
      summary: 'Interactive API documentation',
      tags: ['Service'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'HTML page' } },
      handle: async () => ({ body: DOCS_PAGE, contentType: 'text/html; charset=utf-8' }),
    }),
    defineRoute({
      method: 'GET',
      path: '/docs/:asset',
      operationId: 'docsAsset',
      summary: 'Assets of the documentation page',
      tags: ['Service'],
      auth: 'none',
      hidden: true,
      responses: { 200: { description: 'Static asset' } },
      handle: async ({ request }) => {
        const asset = request.params.asset ?? '';
        const type = SWAGGER_ASSETS[asset];
        if (!type) throw new ApiError('NOT_FOUND');
        return {
          body: await readFile(path.join(swaggerDir, asset)),
          contentType: type,
          headers: { 'Cache-Control': 'public, max-age=86400' },
        };
      },
    }),
  ];
}
