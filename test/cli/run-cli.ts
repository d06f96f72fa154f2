import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { globSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import path from 'node:path';
import { promisify } from 'node:util';
import { REPO_ROOT } from '../storage/helpers.js';

const exec = promisify(execFile);

/**
 * A CLI runs as a real child process from compiled JavaScript. Only its own import graph is
 * compiled (not the whole project), into a folder inside node_modules so that its package
 * imports resolve.
 */
export interface CompiledCli {
  run(env: Record<string, string>, ...args: string[]): Promise<CliResult>;
  remove(): Promise<void>;
}

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Environment variables that would point the CLI at the developer's own database. */
const SCRUBBED = ['DATABASE_URL', 'EINVOICE_DATA_DIR', 'SIGNING_SECRET'];

/** Compiles `src/cli/<name>.ts`; `run` starts it with the test's environment over a scrubbed copy of this one. */
export async function compileCli(name: string): Promise<CompiledCli> {
  const buildDir = path.join(REPO_ROOT, 'node_modules', '.cache', `einv-cli-test-${randomBytes(4).toString('hex')}`);
  const tsc = path.join(REPO_ROOT, 'node_modules', 'typescript', 'bin', 'tsc');
  const options = [
    '--outDir',
    buildDir,
    '--rootDir',
    REPO_ROOT,
    '--module',
    'NodeNext',
    '--moduleResolution',
    'NodeNext',
    '--target',
    'ES2023',
  ];
  const strictness = ['--strict', '--noUncheckedIndexedAccess', '--skipLibCheck', '--types', 'node'];
  // The project's declarations of untyped packages come along: the import graph may reach them.
  const declarations = globSync('src/**/*.d.ts', { cwd: REPO_ROOT }).map((f) => path.join(REPO_ROOT, f));
  await exec(process.execPath, [tsc, ...options, ...strictness, path.join(REPO_ROOT, `src/cli/${name}.ts`), ...declarations], {
    cwd: REPO_ROOT,
  });
  const cli = path.join(buildDir, 'src', 'cli', `${name}.js`);
  const baseEnv = Object.fromEntries(Object.entries(process.env).filter(([k]) => !SCRUBBED.includes(k)));
  return {
    async run(env, ...args) {
      try {
        const { stdout, stderr } = await exec(process.execPath, [cli, ...args], { env: { ...baseEnv, ...env }, cwd: REPO_ROOT });
        return { code: 0, stdout, stderr };
      } catch (e) {
        const { code, stdout, stderr } = e as { code: number; stdout: string; stderr: string };
        return { code, stdout, stderr };
      }
    },
    remove: () => rm(buildDir, { recursive: true, force: true }),
  };
}
