import path from 'node:path';
import { z } from 'zod';
import { DEFAULT_INTAKE_LIMITS, type IntakeLimits } from './files/declared-size.js';
import type { MailConfig, SmtpConfig } from './mail/transport.js';
import { TEST_FAULTS } from './mail/types.js';
import { WORKLOADS, type Workload } from './operations/workloads.js';
import type { WorkerSettings } from './temporal/worker-plan.js';
import type { BlobStorageConfig } from './storage/open-blob-storage.js';

/**
 * Configuration comes only from environment variables, validated once at start.
 * Every variable is documented in README.md; defaults give the embedded set-up
 * (SQLite, local blob folder, a Temporal dev server started by the service).
 */

const port = z.coerce.number().int().min(1).max(65535);
const optionalString = z
  .string()
  .trim()
  .transform((v) => (v === '' ? undefined : v))
  .optional();

const envSchema = z
  .object({
    EINVOICE_DATA_DIR: z.string().default('.data'),
    DATABASE_URL: optionalString.pipe(
      z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional(),
    ),
    PORT: port.default(3000),
    V2_PORT: z.union([z.literal('').transform(() => undefined), port]).optional(),
    HOST: z.string().default('127.0.0.1'),
    PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
    TEMPORAL_ADDRESS: optionalString,
    TEMPORAL_NAMESPACE: z
      .string()
      .regex(/^[A-Za-z0-9._-]+$/)
      .default('einvoice'),
    TEMPORAL_TASK_QUEUE: z.string().min(1).default('einvoice'),
    TEMPORAL_DEV_PORT: port.default(7233),
    TEMPORAL_UI_PORT: port.default(8233),
    TEMPORAL_CLI: optionalString,
    TEMPORAL_UI_URL: optionalString.pipe(z.url().optional()),
    SIGNING_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
    DOWNLOAD_URL_TTL_SECONDS: z.coerce
      .number()
      .int()
      .min(60)
      .default(24 * 3600),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    EINVOICE_ROLE: z.enum(['all', 'api', 'worker', 'connectors']).default('all'),
    /** The folder connectors' configuration file (connectors/config.ts); `all` runs them when it is set, `connectors` needs it. */
    EINVOICE_CONNECTORS: optionalString,
    VERAPDF_POOL_SIZE: z.coerce.number().int().min(1).max(32).default(1),
    SCHEMATRON_ENGINE: z.enum(['saxon-he', 'saxon-js']).default('saxon-he'),
    SOURCE_DATE_EPOCH: z.union([z.literal('').transform(() => undefined), z.coerce.number().int().min(0)]).optional(),
    CONVERSION_SCAN_CERTAINTY: z.union([z.literal('').transform(() => undefined), z.coerce.number().min(0).max(1)]).optional(),
    MAX_PDF_PAGES: z.coerce.number().int().min(1).max(100_000).default(DEFAULT_INTAKE_LIMITS.maxPdfPages),
    MAX_IMAGE_PIXELS: z.coerce.number().int().min(1_000_000).max(1_000_000_000).default(DEFAULT_INTAKE_LIMITS.maxImagePixels),
    MAX_INFLATED_MEGABYTES: z.coerce
      .number()
      .int()
      .min(16)
      .max(4096)
      .default(DEFAULT_INTAKE_LIMITS.maxInflatedBytes / 1024 / 1024),
    WORKFLOW_WAIT_SECONDS: z.union([z.literal('').transform(() => undefined), z.coerce.number().int().min(1).max(3600)]).optional(),
    /** The workload classes this process's worker serves (src/temporal/queues.ts); default all. */
    EINVOICE_WORKER_QUEUES: optionalString.pipe(
      z
        .string()
        .transform((v) => [...new Set(v.split(',').map((w) => w.trim()))])
        .pipe(z.array(z.enum(WORKLOADS, { error: `must be a comma-separated list of ${WORKLOADS.join(', ')}` })))
        .optional(),
    ),
    /** `quick=8,pdf=2`: activities at once per class. */
    EINVOICE_WORKER_CONCURRENCY: optionalString.pipe(
      z
        .string()
        .transform((v) => v.split(',').map((pair) => pair.split('=').map((p) => p.trim())))
        .pipe(
          z.array(
            z.tuple([z.enum(WORKLOADS), z.coerce.number<string>().int().min(1).max(256)], {
              error: `must be class=number pairs, e.g. quick=8,pdf=2 (classes: ${WORKLOADS.join(', ')})`,
            }),
          ),
        )
        .optional(),
    ),
    /** Where file contents live: a local folder, or an S3-compatible bucket when several machines share them. */
    BLOB_STORE: z.enum(['local', 's3']).default('local'),
    BLOB_S3_BUCKET: optionalString,
    BLOB_S3_PREFIX: z
      .string()
      .default('')
      .refine((v) => v === '' || v.endsWith('/'), 'must be empty or end in /'),
    BLOB_S3_REGION: z.string().default('us-east-1'),
    BLOB_S3_ENDPOINT: optionalString.pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' }).optional()),
    BLOB_S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).default('true'),
    /** Prometheus metrics of this process (src/metrics) on their own port; unset: none. */
    METRICS_PORT: z.union([z.literal('').transform(() => undefined), port]).optional(),
    /** The Temporal SDK's worker metrics (schedule-to-start latency, slots), served by the SDK; unset: none. */
    TEMPORAL_METRICS_PORT: z.union([z.literal('').transform(() => undefined), port]).optional(),
    EINVOICE_OCR_MEMORY_MB: z.union([z.literal('').transform(() => undefined), z.coerce.number().int().min(256)]).optional(),
    SMTP_URL: optionalString.pipe(z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional()),
    SMTP_REQUIRE_TLS: z.enum(['true', 'false']).default('true'),
    SMTP_CA_FILE: optionalString,
    DKIM_DOMAIN: optionalString,
    DKIM_SELECTOR: optionalString,
    DKIM_PRIVATE_KEY_FILE: optionalString,
    MAIL_OUTBOX_DIR: optionalString,
    EINVOICE_TEST_FAULTS: optionalString.pipe(
      z
        .string()
        .transform((v) => v.split(',').map((f) => f.trim()))
        .pipe(z.array(z.enum(TEST_FAULTS)))
        .optional(),
    ),
  })
  .refine((e) => e.EINVOICE_ROLE !== 'connectors' || e.EINVOICE_CONNECTORS, {
    path: ['EINVOICE_CONNECTORS'],
    message: 'EINVOICE_ROLE=connectors needs the configuration file',
  })
  .refine((e) => e.BLOB_STORE !== 's3' || e.BLOB_S3_BUCKET, { path: ['BLOB_S3_BUCKET'], message: 'BLOB_STORE=s3 needs the bucket' })
  .refine((e) => [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY_FILE].filter(Boolean).length % 3 === 0, {
    path: ['DKIM_DOMAIN'],
    message: 'set DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE together, or none of them',
  });

export interface Config {
  dataDir: string;
  databaseUrl: string | undefined;
  http: { host: string; port: number; v2Port: number | undefined; publicBaseUrl: string };
  temporal: {
    /** Undefined: the service starts and owns a local dev server. */
    address: string | undefined;
    namespace: string;
    taskQueue: string;
    devPort: number;
    uiPort: number;
    /** The Web UI of a cluster (TEMPORAL_UI_URL); the embedded dev server's is known once it runs. */
    uiUrl: string | undefined;
    cliPath: string;
  };
  signingSecret: string | undefined;
  downloadUrlTtlSeconds: number;
  /** What an uploaded file may declare before anything parses it (src/files/declared-size.ts). */
  intakeLimits: IntakeLimits;
  /** SOURCE_DATE_EPOCH: every built document carries this creation time, so equal requests give equal bytes. */
  documentTime: Date | undefined;
  /** CONVERSION_SCAN_CERTAINTY: the confidence a value read by OCR needs to be written into an e-invoice unconfirmed; unset: the product's default. */
  scanCertainty: number | undefined;
  /** The longest an API request waits for its workflow before answering 504 (WORKFLOW_WAIT_SECONDS); unset: each operation's own limit. */
  workflowWaitMs: number | undefined;
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  role: z.infer<typeof envSchema>['EINVOICE_ROLE'];
  /** veraPDF processes kept running by the worker (src/pdf/verapdf.ts). */
  veraPdf: { poolSize: number };
  /** Where the worker applies the official schematrons: Saxon-HE on a JVM (when installed), or SaxonJS in the process. */
  schematronEngine: 'saxon-he' | 'saxon-js';
  /** The worker's queues and their limits (src/temporal/worker-plan.ts). */
  worker: WorkerSettings;
  blobs: BlobStorageConfig;
  /** Ports of the metrics endpoints (on HOST); undefined: not served. */
  metrics: { port: number | undefined; temporalPort: number | undefined };
  /** The folder connectors: their configuration file, and the queue their source activities are served on. */
  connectors: { configFile: string | undefined; taskQueue: string };
  mail: MailConfig;
}

export class ConfigError extends Error {
  constructor(public readonly problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  const e = parsed.data;
  const dataDir = path.resolve(e.EINVOICE_DATA_DIR);
  return {
    dataDir,
    databaseUrl: e.DATABASE_URL,
    http: {
      host: e.HOST,
      port: e.PORT,
      v2Port: e.V2_PORT,
      publicBaseUrl: (e.PUBLIC_BASE_URL ?? `http://${e.HOST}:${e.PORT}`).replace(/\/+$/, ''),
    },
    temporal: {
      address: e.TEMPORAL_ADDRESS,
      namespace: e.TEMPORAL_NAMESPACE,
      taskQueue: e.TEMPORAL_TASK_QUEUE,
      devPort: e.TEMPORAL_DEV_PORT,
      uiPort: e.TEMPORAL_UI_PORT,
      uiUrl: e.TEMPORAL_UI_URL?.replace(/\/+$/, ''),
      cliPath: e.TEMPORAL_CLI ?? path.resolve('.tools/temporal/bin/temporal'),
    },
    signingSecret: e.SIGNING_SECRET,
    downloadUrlTtlSeconds: e.DOWNLOAD_URL_TTL_SECONDS,
    intakeLimits: {
      maxPdfPages: e.MAX_PDF_PAGES,
      maxImagePixels: e.MAX_IMAGE_PIXELS,
      maxInflatedBytes: e.MAX_INFLATED_MEGABYTES * 1024 * 1024,
    },
    documentTime: e.SOURCE_DATE_EPOCH === undefined ? undefined : new Date(e.SOURCE_DATE_EPOCH * 1000),
    scanCertainty: e.CONVERSION_SCAN_CERTAINTY,
    workflowWaitMs: e.WORKFLOW_WAIT_SECONDS === undefined ? undefined : e.WORKFLOW_WAIT_SECONDS * 1000,
    logLevel: e.LOG_LEVEL,
    role: e.EINVOICE_ROLE,
    veraPdf: { poolSize: e.VERAPDF_POOL_SIZE },
    schematronEngine: e.SCHEMATRON_ENGINE,
    worker: {
      workloads: e.EINVOICE_WORKER_QUEUES ?? WORKLOADS,
      concurrency: Object.fromEntries(e.EINVOICE_WORKER_CONCURRENCY ?? []) as Partial<Record<Workload, number>>,
      ocrMemoryMb: e.EINVOICE_OCR_MEMORY_MB,
    },
    blobs:
      e.BLOB_STORE === 's3'
        ? {
            kind: 's3',
            bucket: e.BLOB_S3_BUCKET!,
            prefix: e.BLOB_S3_PREFIX,
            region: e.BLOB_S3_REGION,
            ...(e.BLOB_S3_ENDPOINT ? { endpoint: e.BLOB_S3_ENDPOINT } : {}),
            forcePathStyle: e.BLOB_S3_FORCE_PATH_STYLE === 'true',
          }
        : { kind: 'local' },
    metrics: { port: e.METRICS_PORT, temporalPort: e.TEMPORAL_METRICS_PORT },
    connectors: {
      configFile: e.EINVOICE_CONNECTORS ? path.resolve(e.EINVOICE_CONNECTORS) : undefined,
      taskQueue: `${e.TEMPORAL_TASK_QUEUE}-connectors`,
    },
    mail: {
      smtp: e.SMTP_URL ? smtpConfig(e.SMTP_URL, e.SMTP_REQUIRE_TLS === 'true', e.SMTP_CA_FILE) : undefined,
      outboxDir: path.resolve(e.MAIL_OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
      dkim:
        e.DKIM_DOMAIN && e.DKIM_SELECTOR && e.DKIM_PRIVATE_KEY_FILE
          ? { domainName: e.DKIM_DOMAIN, keySelector: e.DKIM_SELECTOR, privateKeyFile: e.DKIM_PRIVATE_KEY_FILE }
          : undefined,
      testFaults: e.EINVOICE_TEST_FAULTS ?? [],
    },
  };
}

function smtpConfig(url: string, requireTls: boolean, caFile: string | undefined): SmtpConfig {
  const u = new URL(url);
  const secure = u.protocol === 'smtps:';
  const user = decodeURIComponent(u.username);
  return {
    host: u.hostname.replace(/^\[|\]$/g, ''),
    port: u.port ? Number(u.port) : secure ? 465 : 587,
    secure,
    requireTls: !secure && requireTls,
    auth: user ? { user, pass: decodeURIComponent(u.password) } : undefined,
    caFile,
  };
}
