#!/usr/bin/env node
import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { ConfigError as ConnectorConfigError, parseConfig, type ConnectorConfig, type RouteConfig } from '../../connectors/config.js';
import { openSource } from '../../connectors/sources/open.js';
import type { FolderSource } from '../../connectors/sources/source.js';
import { routeStatus } from '../../connectors/status.js';
import { loadConfig } from '../config.js';
import { reportError, UsageError } from './errors.js';
import { senderAllowed } from '../mail/sender-policy.js';
import { openStorage, type Storage } from '../storage/index.js';
import { table } from './table.js';

/**
 * Operator tool for the folder connectors, on the configuration file the connectors run with
 * and the database the service is configured with. It starts no worker and claims no file:
 *
 *   node dist/src/cli/connectors.js <command> --config FILE [--json]
 *
 * Exit codes: 0 success, 1 a check failed (a source unreachable, an account missing) or the
 * database could not be reached, 2 bad usage or a configuration file with errors.
 */

const USAGE = `Usage: connectors <command> --config FILE [--json]

Commands:
  check     check the configuration file (every error with its line), connect to each source and
            look at its root, and look up each route's account and its e-mail senders
  status    per route: files waiting in its folder, being processed, processed, refused

Options:
  --config FILE   the connectors' configuration (YAML or JSON), as EINVOICE_CONNECTORS names it
  --json          machine-readable output
  --help          this text

The database comes from the same environment variables as the service (EINVOICE_DATA_DIR, DATABASE_URL);
secrets from the files and environment variables the configuration names.`;

const OPTIONS = {
  config: { type: 'string' },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

interface Output {
  json: unknown;
  text: string;
  /** Something failed: exit 1 after printing. */
  failed: boolean;
}

/** What a command works on: the parsed configuration, its sources opened, the database. */
interface Context {
  config: ConnectorConfig;
  sources: Map<string, FolderSource | Error>;
  storage: Storage;
}

type Command = (ctx: Context) => Promise<Output>;

const COMMANDS: Record<string, Command> = {
  async check({ config, sources, storage }) {
    const sourceResults = await Promise.all(
      Object.entries(config.sources).map(async ([name, c]) => {
        const source = sources.get(name)!;
        const error =
          source instanceof Error
            ? source
            : await source.check().then(
                () => undefined,
                (e: unknown) => (e instanceof Error ? e : new Error(String(e))),
              );
        return { source: name, kind: c.kind, ok: !error, ...(error ? { error: error.message } : {}) };
      }),
    );
    const routeResults = await Promise.all(
      config.routes.map(async (route) => {
        const problems = await routeProblems(storage, route);
        return { route: route.name, account: route.account, ok: problems.length === 0, ...(problems.length ? { problems } : {}) };
      }),
    );
    const failed = [...sourceResults, ...routeResults].some((r) => !r.ok);
    return {
      failed,
      json: { ok: !failed, sources: sourceResults, routes: routeResults },
      text: [
        table(
          ['SOURCE', 'KIND', 'RESULT'],
          sourceResults.map((r) => [r.source, r.kind, r.error ?? 'OK']),
        ),
        table(
          ['ROUTE', 'ACCOUNT', 'RESULT'],
          routeResults.map((r) => [r.route, r.account, r.problems?.join('; ') ?? 'OK']),
        ),
      ].join('\n\n'),
    };
  },
  async status({ config, sources, storage }) {
    const opened = new Map([...sources].filter((e): e is [string, FolderSource] => !(e[1] instanceof Error)));
    const statuses = await routeStatus(config, opened, storage);
    return {
      failed: false,
      json: statuses,
      text: table(
        ['ROUTE', 'OPERATION', 'WAITING', 'PROCESSING', 'PROCESSED', 'REFUSED'],
        statuses.map((s) => [
          s.route,
          s.operation ?? '',
          s.waiting < 0 ? 'unreachable' : String(s.waiting),
          String(s.processing),
          String(s.processed),
          String(s.refused),
        ]),
      ),
    };
  },
};

/** What would stop the route's files from being processed or its e-mails from going out. */
async function routeProblems(storage: Storage, route: RouteConfig): Promise<string[]> {
  if (!(await storage.accounts.get(route.account))) return [`no account ${route.account}`];
  const rules = (await storage.mail.senderRules(route.account)).map((r) => r.rule);
  const senders = [...new Set([route.mail?.onSuccess?.from, route.mail?.onFailure?.from].filter((s): s is string => s !== undefined))];
  return senders.filter((s) => !senderAllowed(rules, s)).map((s) => `the account may not send e-mail as ${s} (accounts.js allow-sender)`);
}

function readConfig(file: string | undefined): ConnectorConfig {
  if (!file) throw new UsageError('--config is required');
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (e) {
    throw new UsageError(`cannot read ${file}: ${(e as Error).message}`);
  }
  return parseConfig(text, file);
}

function openAll(config: ConnectorConfig): Map<string, FolderSource | Error> {
  return new Map(
    Object.entries(config.sources).map(([name, c]): [string, FolderSource | Error] => {
      try {
        return [name, openSource(c)];
      } catch (e) {
        return [name, new Error(`${name}: ${(e as Error).message}`)];
      }
    }),
  );
}

/** Runs the CLI and returns its exit code. */
async function main(argv: string[]): Promise<number> {
  const { stdout: out, stderr: err } = process;
  let sources: Map<string, FolderSource | Error> | undefined;
  let storage: Storage | undefined;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
    const name = positionals[0];
    if (values.help || name === undefined) {
      (values.help ? out : err).write(`${USAGE}\n`);
      return values.help ? 0 : 2;
    }
    if (!Object.hasOwn(COMMANDS, name)) throw new UsageError(`Unknown command: ${name}`);
    // The file first: its errors are the operator's to fix, whatever the database does.
    const config = readConfig(values.config);
    storage = await openStorage(loadConfig());
    sources = openAll(config);
    const result = await COMMANDS[name]!({ config, sources, storage });
    out.write(`${values.json ? JSON.stringify(result.json, null, 2) : result.text}\n`);
    return result.failed ? 1 : 0;
  } catch (e) {
    return reportError(e, err, ConnectorConfigError);
  } finally {
    await Promise.all([...(sources?.values() ?? [])].map((s) => (s instanceof Error ? undefined : s.close().catch(() => undefined))));
    await storage?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
