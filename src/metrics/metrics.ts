import { Counter, Gauge, Histogram, Registry, collectDefaultMetrics } from 'prom-client';

/**
 * What every process reports on its metrics port (METRICS_PORT, src/metrics/server.ts), in one
 * registry per process: the HTTP front end, the business figures where they happen (documents
 * and validations in the worker, conversions where a request or a connector's file ends), the
 * connectors' files, and Node's own process figures. Labels are enum words, route patterns and
 * connector route names only: never an account, a file name or anything a caller chooses.
 * The Temporal SDK's worker metrics are served by the SDK itself (TEMPORAL_METRICS_PORT).
 */
export const registry = new Registry();
collectDefaultMetrics({ register: registry });

export const httpRequests = new Counter({
  name: 'einvoice_http_requests_total',
  help: 'HTTP requests answered, by route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  registers: [registry],
});

export const httpDuration = new Histogram({
  name: 'einvoice_http_request_duration_seconds',
  help: 'Time from request to answer, by route pattern and status',
  labelNames: ['method', 'route', 'status'] as const,
  // From a 10 ms validation to a 600 s conversion (SPEC: clients wait that long).
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120, 300, 600],
  registers: [registry],
});

export const httpInFlight = new Gauge({
  name: 'einvoice_http_requests_in_flight',
  help: 'HTTP requests being answered',
  registers: [registry],
});

export const documentsCreated = new Counter({
  name: 'einvoice_documents_created_total',
  help: 'Documents stored, by kind (xrechnung-xml, zugferd-pdf)',
  labelNames: ['kind'] as const,
  registers: [registry],
});

export const validations = new Counter({
  name: 'einvoice_validations_total',
  help: 'Validations run (on their own and inside creations), by format (xml, zugferd-pdf) and verdict (valid, invalid)',
  labelNames: ['format', 'verdict'] as const,
  registers: [registry],
});

export const conversions = new Counter({
  name: 'einvoice_conversions_total',
  help: 'PDFs and scans turned into ZUGFeRD (createZugferdFromPdf), by outcome (converted, or the refusal code) and where they came from (request, connector)',
  labelNames: ['outcome', 'via'] as const,
  registers: [registry],
});

export const connectorFiles = new Counter({
  name: 'einvoice_connector_files_total',
  help: 'Files of the folder connectors by route and stage: seen (first listed), claimed (moved into processing), done, failed (filed into error/), duplicate',
  labelNames: ['route', 'stage'] as const,
  registers: [registry],
});

export type ConnectorStage = 'seen' | 'claimed' | 'done' | 'failed' | 'duplicate';
