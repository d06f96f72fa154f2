#!/usr/bin/env node
import { parseArgs } from 'node:util';
import { loadConfig } from '../config.js';
import { TokenError, issueToken, revokeToken, rotateToken, type IssuedToken } from '../auth/tokens.js';
import { createAccount, getAccount, listAccounts } from '../storage/accounts.js';
import { listApiTokens, type ApiTokenRecord } from '../storage/api-tokens.js';
import type { Database } from '../storage/database.js';
import { openDatabase } from '../storage/open-database.js';
import { addSenderRule, listSenderRules, removeSenderRule } from '../storage/mail-records.js';
import { parseSenderRule } from '../mail/sender-policy.js';
import { setReviewsApiRefusals } from '../storage/account-settings.js';
import { reportError, UsageError } from './errors.js';
import { table } from './table.js';

/**
 * Operator tool for accounts and API tokens, on the database the service is configured with:
 *
 *   node dist/src/cli/accounts.js <command> [options] [--json]
 *
 * Exit codes: 0 success, 1 the operation failed (e.g. unknown account or token),
 * 2 bad usage or configuration.
 */

const USAGE = `Usage: accounts <command> [options] [--json]

Commands:
  create-account --name NAME               create an account, print its id
  list-accounts                            list all accounts
  create-token --account ID [--label L]    create an API token (printed once: store it now)
  list-tokens --account ID                 list an account's tokens (never their secrets)
  rotate-token --token TOKEN_ID            revoke a token and print its replacement
  revoke-token --token TOKEN_ID            revoke a token
  allow-sender --account ID --sender S     let the account send e-mail as S: an address (billing@acme.example),
                                           a domain (acme.example: any address there) or * (any address)
  list-senders --account ID                list the account's allowed senders (none: it may not send e-mail)
  remove-sender --account ID --sender S    withdraw an allowed sender
  review-api-refusals --account ID --on|--off
                                           let the account's refused createZugferdFromPdf calls wait in the
                                           review queue (/app/review) for 30 days, their upload kept; off by default

Options:
  --json    machine-readable output
  --help    this text

Configuration comes from the same environment variables as the service (EINVOICE_DATA_DIR, DATABASE_URL).`;

const OPTIONS = {
  name: { type: 'string' },
  account: { type: 'string' },
  label: { type: 'string' },
  token: { type: 'string' },
  sender: { type: 'string' },
  on: { type: 'boolean', default: false },
  off: { type: 'boolean', default: false },
  json: { type: 'boolean', default: false },
  help: { type: 'boolean', default: false },
} as const;

type Options = {
  name?: string;
  account?: string;
  label?: string;
  token?: string;
  sender?: string;
  on: boolean;
  off: boolean;
  json: boolean;
};

interface Output {
  /** What the command prints: `text` for people, `json` with --json. */
  json: unknown;
  text: string;
  /** A warning for people, on stderr so it never mixes with the value a script captures. */
  note?: string;
}

type Command = (db: Database, options: Options) => Promise<Output>;

const COMMANDS: Record<string, Command> = {
  'create-account': async (db, o) => {
    const account = await createAccount(db, requireName(o.name));
    return { json: { id: account.id, name: account.name, createdAt: iso(account.createdAt) }, text: account.id };
  },
  'list-accounts': async (db) => {
    const accounts = await listAccounts(db);
    return {
      json: accounts.map((a) => ({ id: a.id, name: a.name, createdAt: iso(a.createdAt) })),
      text: table(
        ['ID', 'CREATED', 'NAME'],
        accounts.map((a) => [a.id, iso(a.createdAt), a.name]),
      ),
    };
  },
  'create-token': async (db, o) => tokenOutput(await issueToken(db, required(o.account, 'account'), label(o.label))),
  'list-tokens': async (db, o) => {
    const accountId = required(o.account, 'account');
    if (!(await getAccount(db, accountId))) throw new TokenError('ACCOUNT_NOT_FOUND', `No account ${accountId}`);
    const tokens = await listApiTokens(db, accountId);
    return {
      json: tokens.map(tokenInfo),
      text: table(
        ['TOKEN ID', 'LABEL', 'CREATED', 'LAST USED', 'REVOKED'],
        tokens.map((t) => [t.id, t.label, iso(t.createdAt), isoOrNull(t.lastUsedAt) ?? '-', isoOrNull(t.revokedAt) ?? '-']),
      ),
    };
  },
  'rotate-token': async (db, o) => {
    const tokenId = required(o.token, 'token');
    return {
      ...tokenOutput(await rotateToken(db, tokenId)),
      note: `Token ${tokenId} is revoked. Store the new token now: it is not shown again.`,
    };
  },
  'revoke-token': async (db, o) => {
    const tokenId = required(o.token, 'token');
    await revokeToken(db, tokenId);
    return { json: { tokenId, revoked: true }, text: `Token ${tokenId} revoked` };
  },
  'allow-sender': async (db, o) => {
    const accountId = await existingAccount(db, o.account);
    const sender = senderRule(o.sender);
    const added = await addSenderRule(db, accountId, sender);
    return {
      json: { accountId, sender, added },
      text: added ? `${accountId} may now send as ${sender}` : `${accountId} could already send as ${sender}`,
    };
  },
  'list-senders': async (db, o) => {
    const accountId = await existingAccount(db, o.account);
    const rules = await listSenderRules(db, accountId);
    return {
      json: rules.map((r) => ({ sender: r.rule, createdAt: iso(r.createdAt) })),
      text: rules.length
        ? table(
            ['CREATED', 'SENDER'],
            rules.map((r) => [iso(r.createdAt), r.rule]),
          )
        : `${accountId} may not send e-mail from any address (no senders allowed)`,
    };
  },
  'remove-sender': async (db, o) => {
    const accountId = await existingAccount(db, o.account);
    const sender = senderRule(o.sender);
    if (!(await removeSenderRule(db, accountId, sender))) throw new Error(`${accountId} has no allowed sender ${sender}`);
    return { json: { accountId, sender, removed: true }, text: `${accountId} may no longer send as ${sender}` };
  },
  'review-api-refusals': async (db, o) => {
    if (o.on === o.off) throw new UsageError('give exactly one of --on and --off');
    const accountId = await existingAccount(db, o.account);
    await setReviewsApiRefusals(db, accountId, o.on);
    return {
      json: { accountId, reviewApiRefusals: o.on },
      text: o.on
        ? `${accountId}: refused createZugferdFromPdf calls now wait in the review queue`
        : `${accountId}: refused createZugferdFromPdf calls are only answered`,
    };
  },
};

async function existingAccount(db: Database, account: string | undefined): Promise<string> {
  const accountId = required(account, 'account');
  if (!(await getAccount(db, accountId))) throw new TokenError('ACCOUNT_NOT_FOUND', `No account ${accountId}`);
  return accountId;
}

function senderRule(value: string | undefined): string {
  const parsed = parseSenderRule(required(value, 'sender'));
  if (!parsed.ok) throw new UsageError(`--sender: ${parsed.error}`);
  return parsed.value;
}

function tokenOutput(issued: IssuedToken): Output {
  return {
    json: { token: issued.token, ...tokenInfo(issued.record) },
    text: issued.token,
    note: 'Store this token now: it is not shown again.',
  };
}

function tokenInfo(t: ApiTokenRecord) {
  return {
    tokenId: t.id,
    accountId: t.accountId,
    label: t.label,
    createdAt: iso(t.createdAt),
    lastUsedAt: isoOrNull(t.lastUsedAt),
    revokedAt: isoOrNull(t.revokedAt),
  };
}

function iso(epochMs: number): string {
  return new Date(epochMs).toISOString();
}

function isoOrNull(epochMs: number | null): string | null {
  return epochMs === null ? null : iso(epochMs);
}

function required(value: string | undefined, option: string): string {
  if (value === undefined || value.trim() === '') throw new UsageError(`--${option} is required`);
  return value.trim();
}

function requireName(value: string | undefined): string {
  const name = required(value, 'name');
  if (name.length > 200) throw new UsageError('--name must be at most 200 characters');
  return name;
}

function label(value: string | undefined): string {
  const result = value?.trim() || 'default';
  if (result.length > 100) throw new UsageError('--label must be at most 100 characters');
  return result;
}

function parse(argv: string[]): { command: Command | undefined; options: Options; help: boolean } {
  const { values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true });
  if (positionals.length > 1) throw new UsageError(`Unexpected argument: ${positionals[1]}`);
  const name = positionals[0];
  if (name !== undefined && !Object.hasOwn(COMMANDS, name)) throw new UsageError(`Unknown command: ${name}`);
  return { command: name === undefined ? undefined : COMMANDS[name], options: values, help: values.help };
}

/** Runs the CLI and returns its exit code. */
async function main(argv: string[]): Promise<number> {
  const { stdout: out, stderr: err } = process;
  let db: Database | undefined;
  try {
    const { command, options, help } = parse(argv);
    if (help || !command) {
      (help ? out : err).write(`${USAGE}\n`);
      return help ? 0 : 2;
    }
    db = await openDatabase(loadConfig());
    const result = await command(db, options);
    out.write(`${options.json ? JSON.stringify(result.json, null, 2) : result.text}\n`);
    if (result.note && !options.json) err.write(`${result.note}\n`);
    return 0;
  } catch (e) {
    return reportError(e, err);
  } finally {
    await db?.close();
  }
}

process.exitCode = await main(process.argv.slice(2));
