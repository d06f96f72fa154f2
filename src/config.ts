import path from 'node:path';
import { z } from 'zod';
import { TEST_FAULTS, type TestFault } from './mail/types.js';

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

const envSchema = z.object({
  EINVOICE_DATA_DIR: z.string().default('.data'),
  DATABASE_URL: optionalString.pipe(z.url({ protocol: /^postgres(ql)?$/, error: 'must be a postgres:// or postgresql:// URL' }).optional()),
  PORT: port.default(3000),
  V2_PORT: z.union([z.literal('').transform(() => undefined), port]).optional(),
  HOST: z.string().default('127.0.0.1'),
  PUBLIC_BASE_URL: optionalString.pipe(z.url().optional()),
  TEMPORAL_ADDRESS: optionalString,
  TEMPORAL_NAMESPACE: z.string().regex(/^[A-Za-z0-9._-]+$/).default('einvoice'),
  TEMPORAL_TASK_QUEUE: z.string().min(1).default('einvoice'),
  TEMPORAL_DEV_PORT: port.default(7233),
  TEMPORAL_UI_PORT: port.default(8233),
  TEMPORAL_CLI: optionalString,
  TEMPORAL_UI_URL: optionalString.pipe(z.url().optional()),
  SIGNING_SECRET: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  DOWNLOAD_URL_TTL_SECONDS: z.coerce.number().int().min(60).default(24 * 3600),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  EINVOICE_ROLE: z.enum(['all', 'api', 'worker', 'connectors']).default('all'),
  /** The folder connectors' configuration file (connectors/config.ts); `all` runs them when it is set, `connectors` needs it. */
  EINVOICE_CONNECTORS: optionalString,
  VERAPDF_POOL_SIZE: z.coerce.number().int().min(1).max(32).default(1),
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
  .refine((e) => e.EINVOICE_ROLE !== 'connectors' || e.EINVOICE_CONNECTORS, { path: ['EINVOICE_CONNECTORS'], message: 'EINVOICE_ROLE=connectors needs the configuration file' })
  .refine((e) => [e.DKIM_DOMAIN, e.DKIM_SELECTOR, e.DKIM_PRIVATE_KEY_FILE].filter(Boolean).length % 3 === 0, {
  path: ['DKIM_DOMAIN'],
  message: 'set DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY_FILE together, or none of them',
});

/** The SMTP server from SMTP_URL: `smtps://` is TLS from the start, `smtp://` upgrades with STARTTLS. */
export interface SmtpConfig {
  host: string;
  port: number;
  /** Implicit TLS (smtps://). */
  secure: boolean;
  /** smtp:// only: refuse to send when the server offers no STARTTLS (SMTP_REQUIRE_TLS, default true). */
  requireTls: boolean;
  auth: { user: string; pass: string } | undefined;
  /** PEM file of an extra CA to trust (a private CA or the server's self-signed certificate). */
  caFile: string | undefined;
}

export interface MailConfig {
  /** Undefined: messages are written to the outbox folder instead of being sent. */
  smtp: SmtpConfig | undefined;
  outboxDir: string;
  dkim: { domainName: string; keySelector: string; privateKeyFile: string } | undefined;
  /** Test only: faults to inject (EINVOICE_TEST_FAULTS); empty in any real deployment. */
  testFaults: TestFault[];
}

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
  logLevel: z.infer<typeof envSchema>['LOG_LEVEL'];
  role: z.infer<typeof envSchema>['EINVOICE_ROLE'];
  /** veraPDF processes kept running by the worker (src/pdf/verapdf.ts). */
  veraPdf: { poolSize: number };
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
    logLevel: e.LOG_LEVEL,
    role: e.EINVOICE_ROLE,
    veraPdf: { poolSize: e.VERAPDF_POOL_SIZE },
    connectors: { configFile: e.EINVOICE_CONNECTORS ? path.resolve(e.EINVOICE_CONNECTORS) : undefined, taskQueue: `${e.TEMPORAL_TASK_QUEUE}-connectors` },
    mail: {
      smtp: e.SMTP_URL ? smtpConfig(e.SMTP_URL, e.SMTP_REQUIRE_TLS === 'true', e.SMTP_CA_FILE) : undefined,
      outboxDir: path.resolve(e.MAIL_OUTBOX_DIR ?? path.join(dataDir, 'outbox')),
      dkim: e.DKIM_DOMAIN && e.DKIM_SELECTOR && e.DKIM_PRIVATE_KEY_FILE ? { domainName: e.DKIM_DOMAIN, keySelector: e.DKIM_SELECTOR, privateKeyFile: e.DKIM_PRIVATE_KEY_FILE } : undefined,
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
