import { execFile, execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments, parse as parseYaml } from 'yaml';
import { parseConfig } from '../../connectors/config.js';
import { repoRoot, serviceCommand } from '../../scripts/lib/spawn-service.js';
import { loadConfig } from '../../src/config.js';
import { WORKLOADS } from '../../src/operations/workloads.js';
import { planWorker } from '../../src/temporal/worker-plan.js';

/**
 * The deployment files (deploy/) checked without a Docker engine or a Kubernetes cluster: they
 * parse, every process gets an environment the service accepts (the same check it makes at
 * start), the images are the versions the scale test runs (scripts/scale-cluster.sh builds the
 * same Temporal server), the services start in the order they need each other, and ports, volumes
 * and names agree across the files. Where the tools are on the machine, more: the Temporal schema
 * script runs (twice) against a real PostgreSQL, and `docker compose config` renders the file.
 */

const deploy = path.join(repoRoot, 'deploy');
const read = (file: string) => readFileSync(path.join(deploy, file), 'utf8');
const run = promisify(execFile);

/** The Temporal server version scripts/setup-temporal-cluster.sh builds for the scale test. */
const scaleServerVersion = /^TEMPORAL_SERVER_VERSION=v(\S+)$/m.exec(
  readFileSync(path.join(repoRoot, 'scripts/setup-temporal-cluster.sh'), 'utf8'),
)![1]!;

// ---------------------------------------------------------------- compose

const dotEnv = Object.fromEntries(
  read('.env')
    .split('\n')
    .filter((l) => /^[A-Z][A-Z0-9_]*=/.test(l))
    .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
);

/** Compose's interpolation: ${VAR}, ${VAR:-default}, ${VAR-default}, ${VAR:?message}, $$. */
function interpolate(text: string, vars: Record<string, string>, missing: string[]): string {
  return text.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?[-?])([^}]*))?\}/g,
    (all, name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (!name) return '$';
      const value = vars[name];
      if (value !== undefined && !(op?.startsWith(':') && value === '')) return value;
      if (op?.endsWith('-')) return arg ?? '';
      missing.push(name);
      return '';
    },
  );
}

interface ComposeService {
  image?: string;
  build?: unknown;
  environment?: Record<string, string>;
  depends_on?: Record<string, { condition: string }> | string[];
  healthcheck?: { test: string[] };
  ports?: string[];
  volumes?: string[];
  command?: string[];
  profiles?: string[];
  deploy?: { replicas?: number | string; resources?: { limits?: { memory?: string } } };
}

/** Compose parses the YAML first, then interpolates the values: a ${…} where YAML syntax does not allow it fails there too. */
function interpolateValues(value: unknown, missing: string[]): unknown {
  if (typeof value === 'string') return interpolate(value, dotEnv, missing);
  if (Array.isArray(value)) return value.map((v) => interpolateValues(v, missing));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, interpolateValues(v, missing)]));
  return value;
}

const missingVars: string[] = [];
const compose = interpolateValues(parseYaml(read('compose.yaml'), { merge: true }), missingVars) as {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
};
const services = compose.services;
const einvoiceServices = Object.entries(services).filter(([, s]) => s.image === 'einvoice-service:local');
const envOf = (s: ComposeService) => Object.fromEntries(Object.entries(s.environment ?? {}).map(([k, v]) => [k, String(v)]));
const dependencies = (s: ComposeService) =>
  Array.isArray(s.depends_on) ? Object.fromEntries(s.depends_on.map((d) => [d, { condition: 'service_started' }])) : (s.depends_on ?? {});
const mib = (size: string) => {
  const m = /^(\d+)\s*(g|gi|gb|m|mi|mb)$/i.exec(size.trim());
  if (!m) throw new Error(`not a memory size: ${size}`);
  return Number(m[1]) * (m[2]!.toLowerCase().startsWith('g') ? 1024 : 1);
};

describe('deploy/compose.yaml', () => {
  it('uses only variables that deploy/.env sets, and pins every image to a version', () => {
    expect(missingVars).toEqual([]);
    for (const [name, s] of Object.entries(services)) {
      expect(s.image, name).toMatch(/^[\w./-]+:[\w.-]+$/);
      expect(s.image, name).not.toMatch(/:latest$/);
    }
  });

  it('runs the Temporal server version the scale test builds and runs (scripts/setup-temporal-cluster.sh)', () => {
    expect(services.temporal!.image).toBe(`temporalio/server:${scaleServerVersion}`);
    expect(services['temporal-schema']!.image).toBe(`temporalio/admin-tools:${scaleServerVersion}`);
  });

  it('gives every process of the service an environment it accepts, with the role and queues of its part', () => {
    const roles: Record<string, string> = {};
    const served = new Set<string>();
    for (const [name, s] of einvoiceServices) {
      const config = loadConfig(envOf(s)); // throws ConfigError, naming the variable, like the service at start
      roles[name] = config.role;
      expect(config.blobs.kind, name).toBe('s3');
      expect(config.temporal.address, name).toBe('temporal:7233');
      if (config.role === 'worker') for (const w of config.worker.workloads) served.add(w);
    }
    expect(roles).toMatchObject({
      api: 'api',
      'worker-quick': 'worker',
      'worker-pdf': 'worker',
      'worker-ocr': 'worker',
      connectors: 'connectors',
    });
    // Every workload class has workers; each class in exactly one worker service.
    expect([...served].sort()).toEqual([...WORKLOADS].sort());
    const queues = einvoiceServices.flatMap(([, s]) => envOf(s).EINVOICE_WORKER_QUEUES?.split(',') ?? []);
    expect(queues.length).toBe(new Set(queues).size);
  });

  it('points the service at the PostgreSQL, Temporal and S3 services of the file, with their credentials', () => {
    const postgres = services.postgresql!.environment!;
    const api = envOf(services.api!);
    const db = new URL(api.DATABASE_URL!);
    expect([db.hostname, db.port, decodeURIComponent(db.username), decodeURIComponent(db.password), db.pathname]).toEqual([
      'postgresql',
      '5432',
      postgres.POSTGRES_USER,
      postgres.POSTGRES_PASSWORD,
      `/${postgres.POSTGRES_DB}`,
    ]);
    expect(services.temporal!.environment).toMatchObject({
      POSTGRES_SEEDS: 'postgresql',
      POSTGRES_USER: postgres.POSTGRES_USER,
      POSTGRES_PWD: postgres.POSTGRES_PASSWORD,
    });
    expect(services['temporal-schema']!.environment).toMatchObject({
      SQL_HOST: 'postgresql',
      SQL_USER: postgres.POSTGRES_USER,
      SQL_PASSWORD: postgres.POSTGRES_PASSWORD,
    });
    const s3 = new URL(api.BLOB_S3_ENDPOINT!);
    expect(s3.hostname).toBe('s3');
    expect(services.s3!.command).toContain(`-s3.port=${s3.port}`);
    expect(services['temporal-ui']!.environment!.TEMPORAL_ADDRESS).toBe(api.TEMPORAL_ADDRESS);
  });

  it('starts the services in the order they need each other, waiting for health or completion', () => {
    const needs = (name: string) => dependencies(services[name]!);
    // Every dependency exists, and whoever is waited for as healthy has a health check.
    for (const [name, s] of Object.entries(services)) {
      for (const [dep, { condition }] of Object.entries(dependencies(s))) {
        expect(services[dep], `${name} → ${dep}`).toBeDefined();
        if (condition === 'service_healthy') expect(services[dep]!.healthcheck, `${dep} has no health check`).toBeDefined();
      }
    }
    expect(needs('temporal-schema')).toEqual({ postgresql: { condition: 'service_healthy' } });
    expect(needs('temporal')).toEqual({ 'temporal-schema': { condition: 'service_completed_successfully' } });
    expect(needs('blob-buckets')).toEqual({ s3: { condition: 'service_healthy' } });
    expect(needs('api')).toEqual({
      temporal: { condition: 'service_healthy' },
      'blob-buckets': { condition: 'service_completed_successfully' },
      postgresql: { condition: 'service_healthy' },
    });
    for (const worker of ['worker-quick', 'worker-pdf', 'worker-ocr', 'connectors'])
      expect(needs(worker), worker).toEqual({ api: { condition: 'service_healthy' } });
    // A start order exists (no cycle), and it is the one the file's comment promises.
    const order: string[] = [];
    const visit = (name: string, path: string[] = []) => {
      if (path.includes(name)) throw new Error(`cycle: ${[...path, name].join(' → ')}`);
      for (const dep of Object.keys(needs(name))) visit(dep, [...path, name]);
      if (!order.includes(name)) order.push(name);
    };
    for (const name of Object.keys(services)) visit(name);
    const at = (name: string) => order.indexOf(name);
    expect(at('postgresql')).toBeLessThan(at('temporal-schema'));
    expect(at('temporal-schema')).toBeLessThan(at('temporal'));
    expect(at('temporal')).toBeLessThan(at('api'));
    expect(at('blob-buckets')).toBeLessThan(at('api'));
    expect(at('api')).toBeLessThan(at('worker-ocr'));
  });

  it('has a health check for the API on its port, which it publishes', () => {
    const port = loadConfig(envOf(services.api!)).http.port;
    expect(services.api!.ports).toContain(`${port}:${port}`);
    expect(services.api!.healthcheck!.test.join(' ')).toContain(`http://127.0.0.1:${port}/health`);
  });

  it('gives the OCR workers a memory budget that holds documents and fits their container', () => {
    const ocr = services['worker-ocr']!;
    const limit = mib(String(ocr.deploy!.resources!.limits!.memory));
    const config = loadConfig(envOf(ocr));
    expect(config.worker.ocrMemoryMb).toBeLessThan(limit);
    const plan = planWorker(config.temporal.taskQueue, config.worker, { memoryMb: limit, ocrEngines: 2, sandboxHeapMb: 1024 });
    expect(plan.ocr!.documents).toBeGreaterThanOrEqual(1);
    for (const name of ['worker-quick', 'worker-pdf', 'worker-ocr'])
      expect(Number(services[name]!.deploy!.replicas), name).toBeGreaterThanOrEqual(1);
  });

  it('mounts files that exist and declares its named volumes', () => {
    for (const [name, s] of Object.entries(services)) {
      for (const volume of s.volumes ?? []) {
        const source = volume.split(':')[0]!;
        if (source.startsWith('.')) expect(existsSync(path.join(deploy, source)), `${name}: ${source}`).toBe(true);
        else expect(compose.volumes, `${name}: volume ${source}`).toHaveProperty(source);
      }
    }
  });

  it('lets Prometheus scrape every process on the metrics ports the processes serve', () => {
    const prometheus = parseYaml(read('compose/prometheus.yml')) as {
      scrape_configs: Array<{ job_name: string; dns_sd_configs?: Array<{ names: string[]; port: number }> }>;
    };
    const job = (name: string) => prometheus.scrape_configs.find((j) => j.job_name === name)!.dns_sd_configs![0]!;
    for (const [name, s] of einvoiceServices.filter(([n]) => n !== 'blob-buckets')) {
      const config = loadConfig(envOf(s));
      expect(job('einvoice').names, name).toContain(name);
      expect(job('einvoice').port).toBe(config.metrics.port);
      if (config.role !== 'api') {
        expect(job('einvoice-temporal-sdk').names, name).toContain(name);
        expect(job('einvoice-temporal-sdk').port).toBe(config.metrics.temporalPort);
      }
    }
  });

  it('ships a connectors example that the connectors accept', () => {
    const config = parseConfig(read('compose/connectors.yaml'), 'compose/connectors.yaml');
    const env = envOf(services.connectors!);
    const inbox = config.sources.inbox as { kind: string; endpoint: string; bucket: string };
    expect(inbox).toMatchObject({ kind: 's3', endpoint: env.BLOB_S3_ENDPOINT });
    expect(services['blob-buckets']!.command!.join(' ')).toContain(`--bucket ${inbox.bucket}`);
    expect(env.EINVOICE_CONNECTORS).toBe('/etc/einvoice/connectors.yaml');
    expect(services.connectors!.volumes).toContain('./compose/connectors.yaml:/etc/einvoice/connectors.yaml:ro');
  });

  it('exposes the API and metrics ports in the image', () => {
    const expose = /^EXPOSE (.+)$/m.exec(read('Dockerfile'))![1]!.split(/\s+/);
    expect(expose).toEqual(['3000', '9464', '9465']);
  });

  it('creates the Temporal schema with its script, and a second run keeps it (the Temporal server tools from scripts/setup-temporal-cluster.sh)', async (ctx) => {
    const tools = path.join(repoRoot, '.tools/temporal-server');
    const databaseUrl = process.env.TEST_DATABASE_URL;
    if (!existsSync(path.join(tools, 'bin/temporal-sql-tool')) || !databaseUrl) {
      ctx.skip(
        `needs the Temporal server tools (bash scripts/setup-temporal-cluster.sh) and TEST_DATABASE_URL${databaseUrl ? '' : ' (scripts/test.sh sets it)'}`,
      );
      return;
    }
    const url = new URL(databaseUrl);
    const suffix = randomUUID().slice(0, 8);
    const env = {
      PATH: `${path.join(tools, 'bin')}:${process.env.PATH}`,
      SQL_PLUGIN: 'postgres12',
      SQL_HOST: url.hostname,
      SQL_PORT: url.port,
      SQL_USER: decodeURIComponent(url.username),
      SQL_PASSWORD: decodeURIComponent(url.password),
      DBNAME: `temporal_${suffix}`,
      VISIBILITY_DBNAME: `temporal_visibility_${suffix}`,
      TEMPORAL_SCHEMA_DIR: path.join(tools, 'schema/postgresql/v12'),
    };
    for (let i = 0; i < 2; i++) await run('sh', [path.join(deploy, 'compose/temporal-schema.sh')], { env });
    const db = new pg.Client({
      connectionString: Object.assign(new URL(databaseUrl), { pathname: `/${env.VISIBILITY_DBNAME}` }).toString(),
    });
    await db.connect();
    try {
      const { rows } = await db.query('SELECT curr_version FROM schema_version');
      expect(rows).toHaveLength(1);
      expect(Number(rows[0].curr_version)).toBeGreaterThan(1);
    } finally {
      await db.end();
    }
  }, 120_000);

  it('is rendered by docker compose config where the Compose CLI is installed', async (ctx) => {
    const compose = composeCli();
    if (!compose) {
      ctx.skip('no Docker Compose CLI on this machine (docker compose, or DOCKER_COMPOSE naming a docker-compose binary)');
      return;
    }
    const { stdout } = await run(
      compose[0]!,
      [
        ...compose.slice(1),
        '-f',
        path.join(deploy, 'compose.yaml'),
        '--profile',
        'connectors',
        '--profile',
        'monitoring',
        'config',
        '--format',
        'json',
      ],
      { env: { ...process.env, DOCKER_CONFIG: '/nonexistent' } },
    );
    const rendered = JSON.parse(stdout) as { services: Record<string, ComposeService> };
    expect(Object.keys(rendered.services).sort()).toEqual(Object.keys(services).sort());
    expect(rendered.services['worker-ocr']!.environment).toMatchObject({
      EINVOICE_WORKER_QUEUES: 'ocr',
      EINVOICE_OCR_MEMORY_MB: dotEnv.OCR_MEMORY_MB,
    });
  }, 60_000);
});

function composeCli(): string[] | undefined {
  if (process.env.DOCKER_COMPOSE) return [process.env.DOCKER_COMPOSE];
  try {
    execFileSync('docker', ['compose', 'version'], { stdio: 'ignore' });
    return ['docker', 'compose'];
  } catch {
    return undefined;
  }
}

// ---------------------------------------------------------------- Kubernetes

interface K8sObject {
  kind: string;
  metadata: { name: string; labels?: Record<string, string> };
  data?: Record<string, string>;
  stringData?: Record<string, string>;
  spec?: any;
}

const k8s = parseAllDocuments(read('kubernetes/einvoice.yaml')).map((d) => d.toJS() as K8sObject);
const byKind = (kind: string) => k8s.filter((o) => o.kind === kind);
const named = (kind: string, name: string) => k8s.find((o) => o.kind === kind && o.metadata.name === name)!;

/** What a container's process sees: its envFrom ConfigMaps and Secrets, then its env. */
function containerEnv(container: any): Record<string, string> {
  const env: Record<string, string> = {};
  for (const from of container.envFrom ?? []) {
    if (from.configMapRef) Object.assign(env, named('ConfigMap', from.configMapRef.name).data);
    if (from.secretRef) Object.assign(env, named('Secret', from.secretRef.name).stringData);
  }
  for (const e of container.env ?? []) env[e.name] = e.value;
  return env;
}

describe('deploy/kubernetes', () => {
  const deployments = byKind('Deployment');

  it('lists only files that exist in its kustomization', () => {
    const kustomization = parseYaml(read('kubernetes/kustomization.yaml')) as { resources: string[]; images: Array<{ name: string }> };
    for (const r of kustomization.resources) expect(existsSync(path.join(deploy, 'kubernetes', r)), r).toBe(true);
    for (const d of deployments)
      expect(kustomization.images.map((i) => i.name)).toContain(d.spec.template.spec.containers[0].image.split(':')[0]);
  });

  it('gives every deployment an environment the service accepts, on Temporal from the official chart and S3 blobs', () => {
    const served = new Set<string>();
    const roles: string[] = [];
    for (const d of deployments) {
      const config = loadConfig(containerEnv(d.spec.template.spec.containers[0]));
      roles.push(config.role);
      expect(config.blobs.kind, d.metadata.name).toBe('s3');
      // The official chart's frontend service, release "temporal" in namespace "temporal", on its default port.
      expect(config.temporal.address, d.metadata.name).toBe('temporal-frontend.temporal.svc.cluster.local:7233');
      if (config.role === 'worker') for (const w of config.worker.workloads) served.add(w);
    }
    expect(roles.sort()).toEqual(['api', 'connectors', 'worker', 'worker', 'worker']);
    expect([...served].sort()).toEqual([...WORKLOADS].sort());
  });

  it('selects its pods by their labels, and probes ports the container declares', () => {
    for (const d of deployments) {
      expect(d.spec.template.metadata.labels).toMatchObject(d.spec.selector.matchLabels);
      const container = d.spec.template.spec.containers[0];
      const ports = new Map<string, number>(container.ports.map((p: { name: string; containerPort: number }) => [p.name, p.containerPort]));
      const env = loadConfig(containerEnv(container));
      expect(ports.get('metrics'), d.metadata.name).toBe(env.metrics.port);
      if (env.role !== 'api') expect(ports.get('temporal-metrics'), d.metadata.name).toBe(env.metrics.temporalPort);
      for (const probe of [container.readinessProbe, container.livenessProbe].filter(Boolean)) {
        const port = probe.httpGet?.port ?? probe.tcpSocket?.port;
        expect(ports.has(port), `${d.metadata.name} probes ${port}`).toBe(true);
      }
      expect(d.spec.template.metadata.annotations['prometheus.io/port']).toBe(String(env.metrics.port));
    }
    const api = named('Deployment', 'einvoice-api');
    const service = named('Service', 'einvoice-api');
    expect(api.spec.template.metadata.labels).toMatchObject(service.spec.selector);
    expect(loadConfig(containerEnv(api.spec.template.spec.containers[0])).http.port).toBe(3000);
    expect(api.spec.template.spec.containers[0].ports.find((p: { name: string }) => p.name === 'http').containerPort).toBe(3000);
  });

  it("sizes the OCR workers' memory budget inside their limit", () => {
    const container = named('Deployment', 'einvoice-worker-ocr').spec.template.spec.containers[0];
    const limit = mib(container.resources.limits.memory);
    const config = loadConfig(containerEnv(container));
    expect(config.worker.ocrMemoryMb).toBeLessThan(limit);
    expect(
      planWorker('einvoice', config.worker, { memoryMb: limit, ocrEngines: 2, sandboxHeapMb: 1024 }).ocr!.documents,
    ).toBeGreaterThanOrEqual(1);
  });

  it('mounts a connectors configuration that the connectors accept', () => {
    const d = named('Deployment', 'einvoice-connectors');
    const env = containerEnv(d.spec.template.spec.containers[0]);
    const mount = d.spec.template.spec.containers[0].volumeMounts.find((m: { name: string }) => m.name === 'connectors');
    const volume = d.spec.template.spec.volumes.find((v: { name: string }) => v.name === 'connectors');
    const map = named('ConfigMap', volume.configMap.name);
    expect(path.join(mount.mountPath, 'connectors.yaml')).toBe(env.EINVOICE_CONNECTORS);
    expect(() => parseConfig(map.data!['connectors.yaml']!, 'connectors.yaml')).not.toThrow();
  });

  it('configures the official Temporal chart for PostgreSQL, with the server version of the scale test', () => {
    const values = parseYaml(read('kubernetes/temporal-values.yaml')) as any;
    expect(values.server.image.tag).toBe(scaleServerVersion);
    const { persistence } = values.server.config;
    expect(persistence.numHistoryShards).toBeGreaterThanOrEqual(512);
    for (const store of [persistence.defaultStore, persistence.visibilityStore])
      expect(persistence.datastores[store].sql.pluginName).toBe('postgres12');
  });
});

// ---------------------------------------------------------------- Grafana

describe('deploy/grafana-dashboard.json', () => {
  it('is a dashboard on a Prometheus data source chosen at import', () => {
    const dashboard = JSON.parse(read('grafana-dashboard.json')) as {
      uid: string;
      panels: Array<{ type: string; datasource?: { uid: string }; targets?: Array<{ expr: string }> }>;
      templating: { list: Array<{ name: string; query: string }> };
    };
    expect(dashboard.templating.list).toContainEqual(expect.objectContaining({ name: 'datasource', query: 'prometheus' }));
    const queries = dashboard.panels.filter((p) => p.type !== 'row');
    expect(queries.length).toBeGreaterThan(10);
    for (const p of queries) {
      expect(p.datasource!.uid).toBe('${datasource}');
      expect(p.targets!.length).toBeGreaterThan(0);
    }
  });
});

// ---------------------------------------------------------------- how the service is started

describe('the service command line', () => {
  it("carries the tests' V8 flags wherever users start the service (the memory the fuzz test measures is theirs)", () => {
    const [, args] = serviceCommand();
    const flags = args.slice(0, -1);
    expect(flags.length).toBeGreaterThan(0);
    const launchers: Record<string, string> = {
      'scripts/start.sh': /^exec \S*node (.*) dist\/src\/main\.js$/m.exec(readFileSync(path.join(repoRoot, 'scripts/start.sh'), 'utf8'))![1]!,
      'npm start': /^node (.*) dist\/src\/main\.js$/.exec(
        (JSON.parse(readFileSync(path.join(repoRoot, 'package.json'), 'utf8')) as { scripts: { start: string } }).scripts.start,
      )![1]!,
      'deploy/Dockerfile': (JSON.parse(/^CMD (.+)$/m.exec(read('Dockerfile'))![1]!) as string[]).slice(1, -1).join(' '),
      'deploy/einvoice.service': /^ExecStart=\S*node (.*) dist\/src\/main\.js$/m.exec(read('einvoice.service'))![1]!,
    };
    for (const [launcher, given] of Object.entries(launchers)) expect(given, launcher).toBe(flags.join(' '));
  });
});
