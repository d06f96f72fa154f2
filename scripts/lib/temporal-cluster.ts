import { execFile } from 'node:child_process';
import net from 'node:net';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { stringify } from 'yaml';
import { startChildServer, type ChildServer } from './child-server.js';
import { freePort, repoRoot } from './spawn-service.js';

/**
 * A real Temporal cluster without Docker: the server built from the Go module proxy
 * (scripts/setup-temporal-cluster.sh) with its schema in a PostgreSQL database, started as four
 * processes, one per service (frontend, history, matching, worker), as a multi-machine
 * installation runs them, on loopback ports of their own. Visibility is on PostgreSQL too
 * (advanced visibility with custom search attributes, no Elasticsearch).
 */

const TOOLS = path.join(repoRoot, '.tools/temporal-server');
export const TEMPORAL_SERVER = path.join(TOOLS, 'bin/temporal-server');
const SQL_TOOL = path.join(TOOLS, 'bin/temporal-sql-tool');
const run = promisify(execFile);

export const SERVICES = ['history', 'matching', 'frontend', 'worker'] as const;
type Service = (typeof SERVICES)[number];

export interface ClusterOptions {
  /** postgres://user[:password]@host:port/… of a server where the databases may be created. */
  postgresUrl: string;
  /** Config files and logs. */
  dir: string;
  /** Fixed at install: the unit of history's parallelism and of its rebalancing across history processes. */
  historyShards: number;
  /** Database names, so that several clusters can share one PostgreSQL. */
  databasePrefix?: string;
}

export interface TemporalCluster {
  /** The frontend's gRPC address, TEMPORAL_ADDRESS for the service. */
  address: string;
  /** The Prometheus endpoint of each server process. */
  metrics: Record<Service, string>;
  pids: Record<Service, number | undefined>;
  stop(): Promise<void>;
}

export function clusterAvailable(): boolean {
  return existsSync(TEMPORAL_SERVER) && existsSync(SQL_TOOL);
}

/** Creates both databases and their schema with temporal-sql-tool (create, setup-schema 0.0, update to the latest version). */
export async function setupSchema(opts: ClusterOptions): Promise<void> {
  const pg = new URL(opts.postgresUrl);
  const base = [
    '--plugin',
    'postgres12',
    '--ep',
    pg.hostname,
    '-p',
    pg.port || '5432',
    '-u',
    decodeURIComponent(pg.username),
    ...(pg.password ? ['--pw', decodeURIComponent(pg.password)] : []),
  ];
  for (const [db, schema] of [
    [`${opts.databasePrefix ?? ''}temporal`, 'temporal'],
    [`${opts.databasePrefix ?? ''}temporal_visibility`, 'visibility'],
  ] as const) {
    await run(SQL_TOOL, [...base, '--db', db, 'create']);
    await run(SQL_TOOL, [...base, '--db', db, 'setup-schema', '-v', '0.0']);
    await run(SQL_TOOL, [...base, '--db', db, 'update-schema', '-d', path.join(TOOLS, 'schema/postgresql/v12', schema, 'versioned')]);
  }
}

export async function startCluster(opts: ClusterOptions): Promise<TemporalCluster> {
  mkdirSync(opts.dir, { recursive: true });
  const pg = new URL(opts.postgresUrl);
  const ports = Object.fromEntries(
    await Promise.all(
      SERVICES.map(async (s) => [s, { grpc: await freePort(), membership: await membershipPort(), metrics: await freePort() }] as const),
    ),
  ) as Record<Service, { grpc: number; membership: number; metrics: number }>;
  const httpPort = await freePort();
  const address = `127.0.0.1:${ports.frontend.grpc}`;
  const datastore = (db: string, maxConns: number) => ({
    sql: {
      pluginName: 'postgres12',
      databaseName: `${opts.databasePrefix ?? ''}${db}`,
      connectAddr: `${pg.hostname}:${pg.port || '5432'}`,
      connectProtocol: 'tcp',
      user: decodeURIComponent(pg.username),
      password: decodeURIComponent(pg.password),
      maxConns,
      maxIdleConns: maxConns,
      maxConnLifetime: '1h',
    },
  });
  const dynamicConfig = path.join(opts.dir, 'dynamicconfig.yaml');
  // New custom search attributes are visible to the next query at once, not after a cache refresh.
  writeFileSync(dynamicConfig, stringify({ 'system.forceSearchAttributesCacheRefreshOnRead': [{ value: true, constraints: {} }] }));
  const configOf = (service: Service) => ({
    log: { stdout: true, level: 'warn' },
    persistence: {
      defaultStore: 'postgres-default',
      visibilityStore: 'postgres-visibility',
      numHistoryShards: opts.historyShards,
      datastores: { 'postgres-default': datastore('temporal', 20), 'postgres-visibility': datastore('temporal_visibility', 10) },
    },
    global: {
      membership: { maxJoinDuration: '30s', broadcastAddress: '127.0.0.1' },
      metrics: { prometheus: { framework: 'tally', timerType: 'histogram', listenAddress: `127.0.0.1:${ports[service].metrics}` } },
    },
    services: Object.fromEntries(
      SERVICES.map((s) => [
        s,
        {
          rpc: {
            grpcPort: ports[s].grpc,
            membershipPort: ports[s].membership,
            bindOnLocalHost: true,
            ...(s === 'frontend' ? { httpPort } : {}),
          },
        },
      ]),
    ),
    clusterMetadata: {
      enableGlobalNamespace: false,
      failoverVersionIncrement: 10,
      masterClusterName: 'active',
      currentClusterName: 'active',
      clusterInformation: { active: { enabled: true, initialFailoverVersion: 1, rpcName: 'frontend', rpcAddress: address } },
    },
    dcRedirectionPolicy: { policy: 'noop' },
    publicClient: { hostPort: address },
    dynamicConfigClient: { filepath: dynamicConfig, pollInterval: '10s' },
  });
  const started: ChildServer[] = [];
  const pids = {} as Record<Service, number | undefined>;
  const stop = async () => {
    for (const s of started.reverse()) await s.stop();
  };
  try {
    const start = async (service: Service) => {
      const configFile = path.join(opts.dir, `${service}.yaml`);
      writeFileSync(configFile, stringify(configOf(service)));
      const child = await startChildServer(
        TEMPORAL_SERVER,
        ['--config-file', configFile, '--allow-no-auth', 'start', '--service', service],
        ports[service].grpc,
      );
      started.push(child);
      pids[service] = child.pid;
    };
    // One at a time: the first process writes the cluster's metadata into the fresh database, and
    // two doing so at once fail. History and matching before the frontend, which needs them.
    for (const service of SERVICES) await start(service);
  } catch (err) {
    await stop();
    throw err;
  }
  return {
    address,
    metrics: Object.fromEntries(SERVICES.map((s) => [s, `http://127.0.0.1:${ports[s].metrics}/metrics`])) as Record<Service, string>,
    pids,
    stop,
  };
}

/** Temporal keeps membership ports in a SMALLINT column: a free port below 32768 (the kernel hands out ephemeral ports above). */
async function membershipPort(): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20_000 + Math.floor(Math.random() * 12_000);
    const free = await new Promise<boolean>((resolve) => {
      const server = net.createServer();
      server.once('error', () => resolve(false));
      server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
    });
    if (free) return port;
  }
  throw new Error('no free port below 32768 for Temporal membership');
}
