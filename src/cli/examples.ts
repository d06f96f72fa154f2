#!/usr/bin/env node
import path from 'node:path';
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { reportError, UsageError } from './errors.js';
import { exportExamples, removeExamples } from '../jobs/intake/examples.js';
import { openBlobStorage } from '../storage/open-blob-storage.js';
import { openStorage, type Storage } from '../storage/index.js';

/**
 * Operator tool for the labelled examples people make in the review queue (README, "Labelled
 * examples"), configured by the same environment variables as the service:
 *
 *   node dist/src/cli/examples.js export --account ID --out DIR
 *   node dist/src/cli/examples.js keep --account ID --on|--off
 *   node dist/src/cli/examples.js remove --account ID
 *
 * Exit codes: 0 done, 1 it failed (unknown account, database down), 2 bad usage or configuration.
 */

const USAGE = `Usage: examples <command> --account ID [options]

Commands:
  export --account ID --out DIR   write the account's examples into DIR/ID/, as train-models --wild DIR reads them:
                                  NNNN-name.pdf (the pages with the invoice XML a person confirmed embedded) and
                                  NNNN-name.labels.json (each value confirmed: field, value, what was read and where)
  keep --account ID --on|--off    keep the account's reviews as examples (the default) or stop keeping them
  remove --account ID             delete the account's examples and their files

Configuration comes from the same environment variables as the service (EINVOICE_DATA_DIR, DATABASE_URL, BLOB_STORE).`;

const OPTIONS = {
  account: { type: 'string' },
  out: { type: 'string' },
  on: { type: 'boolean', default: false },
  off: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

type Options = { account?: string; out?: string; on: boolean; off: boolean };
type Deps = { storage: Storage; blobs: ReturnType<typeof openBlobStorage> };

/** Each command: what its options must be (checked before anything is opened), and what it does. */
const COMMANDS: Record<string, { check(o: Options): void; run(deps: Deps, accountId: string, o: Options): Promise<string> }> = {
  export: {
    check: (o) => {
      if (!o.out) throw new UsageError('--out is required');
    },
    async run(deps, accountId, o) {
      const { folder, files } = await exportExamples(deps, accountId, path.resolve(o.out!));
      return `${files.length} example(s) in ${folder}`;
    },
  },
  keep: {
    check: (o) => {
      if (o.on === o.off) throw new UsageError('give exactly one of --on and --off');
    },
    async run(deps, accountId, o) {
      await deps.storage.examples.setKeeps(accountId, o.on);
      return o.on ? `${accountId} keeps its reviews as labelled examples` : `${accountId} keeps no labelled examples from now on`;
    },
  },
  remove: {
    check: () => {},
    run: async (deps, accountId) => `${await removeExamples(deps, accountId)} example(s) of ${accountId} deleted`,
  },
};

async function main(argv: string[]): Promise<number> {
  let storage: Storage | undefined;
  try {
    const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
    const command = COMMANDS[positionals[0] ?? ''];
    if (values.help || !command || positionals.length > 1) {
      (values.help ? process.stdout : process.stderr).write(`${USAGE}\n`);
      return values.help ? 0 : 2;
    }
    if (!values.account) throw new UsageError('--account is required');
    command.check(values);
    const config = loadConfig();
    storage = await openStorage(config);
    if (!(await storage.accounts.get(values.account))) throw new Error(`No account ${values.account}`);
    const deps = { storage, blobs: openBlobStorage(config.blobs, config.dataDir) };
    process.stdout.write(`${await command.run(deps, values.account, values)}\n`);
    return 0;
  } catch (e) {
    return reportError(e, process.stderr);
  } finally {
    await storage?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
