import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * Path of a script of this folder that runs in its own process or thread. That
 * must be compiled JavaScript: under vitest this module is TypeScript in src/,
 * so the script is taken from dist/ (`npm run build` first).
 */
export function ocrScript(name: 'sandbox-child' | 'tesseract-worker'): string {
  const here = fileURLToPath(import.meta.url);
  const dir = here.endsWith('.ts') ? path.resolve(path.dirname(here), '../../dist/src/reading') : path.dirname(here);
  const script = path.join(dir, `${name}.js`);
  if (!existsSync(script)) throw new Error(`${script} is missing: run \`npm run build\``);
  return script;
}
