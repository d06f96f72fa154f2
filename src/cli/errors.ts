import { ConfigError } from '../config.js';

/** A command line the tool cannot run: exit 2, with a pointer to --help. */
export class UsageError extends Error {}

/**
 * Writes the error and answers the exit code: 2 for usage and configuration mistakes (a
 * `UsageError`, `ConfigError`, a parseArgs error, or one of `usageErrors`), 1 for a failed
 * operation (unknown account, database down).
 */
export function reportError(
  e: unknown,
  err: NodeJS.WritableStream,
  ...usageErrors: Array<abstract new (...args: never[]) => Error>
): number {
  const parseArgsError = e instanceof Error && 'code' in e && String(e.code).startsWith('ERR_PARSE_ARGS');
  const usage = e instanceof UsageError || e instanceof ConfigError || parseArgsError || usageErrors.some((c) => e instanceof c);
  err.write(`Error: ${e instanceof Error ? e.message : String(e)}\n`);
  if (usage) err.write('Run with --help for usage.\n');
  return usage ? 2 : 1;
}
