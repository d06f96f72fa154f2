import { readdir, readFile, stat } from 'node:fs/promises';
import path from 'node:path';
import type { z } from 'zod';
import { detectFileType } from '../files/file-type.js';
import { findRepoRoot } from '../validation/artefacts.js';
import { TEMPLATE_ID, templateSchema, type Template } from './template.js';

/**
 * Where templates come from: built-in ones shipped in the repository (templates/builtin/<id>/)
 * and operator ones in the data folder (<dataDir>/templates/<id>/), each a template.json plus
 * an optional logo. Folders are read on every request, so an operator adds, fixes or removes a
 * template without a restart; a broken one is listed with its problems instead of hiding.
 */

export type TemplateSource = 'builtin' | 'operator';

export interface TemplateRoots {
  builtin: string;
  operator: string;
}

export interface LoadedTemplate {
  template: Template;
  source: TemplateSource;
  /** Absolute folder, so that a worker (which may be another process) reads the same files. */
  dir: string;
  logo?: { bytes: Uint8Array; type: 'png' | 'jpeg' };
}

export type TemplateListing =
  | { id: string; source: TemplateSource; valid: true; name: string; description?: string; locale: string }
  | { id: string; source: TemplateSource; valid: false; problems: string[] };

export class TemplateNotFoundError extends Error {
  constructor(
    readonly templateId: string,
    readonly available: string[],
  ) {
    super(`No template "${templateId}"; available: ${available.join(', ') || 'none'}`);
  }
}

export class TemplateInvalidError extends Error {
  constructor(
    readonly templateId: string,
    readonly problems: string[],
  ) {
    super(`Template "${templateId}" is invalid: ${problems.join('; ')}`);
  }
}

const MAX_TEMPLATE_BYTES = 256 * 1024;
const MAX_LOGO_BYTES = 2 * 1024 * 1024;

export function templateRoots(dataDir: string): TemplateRoots {
  return { builtin: path.join(findRepoRoot(), 'templates', 'builtin'), operator: path.join(dataDir, 'templates') };
}

/** Every template folder, valid or not; built-in first, then by id. */
export async function listTemplates(roots: TemplateRoots): Promise<TemplateListing[]> {
  const builtin = await folders(roots.builtin);
  const operator = await folders(roots.operator);
  const listings: TemplateListing[] = [];
  for (const [source, ids] of [
    ['builtin', builtin],
    ['operator', operator],
  ] as const) {
    for (const id of ids) {
      try {
        if (source === 'operator' && builtin.includes(id))
          throw new TemplateInvalidError(id, [`the id "${id}" belongs to a built-in template; choose another folder name`]);
        const { template } = await loadTemplateFrom(path.join(roots[source], id), source);
        listings.push({
          id,
          source,
          valid: true,
          name: template.name,
          ...(template.description ? { description: template.description } : {}),
          locale: template.locale,
        });
      } catch (err) {
        if (!(err instanceof TemplateInvalidError)) throw err;
        listings.push({ id, source, valid: false, problems: err.problems });
      }
    }
  }
  return listings;
}

/** The template with this id, validated, with its logo read. */
export async function loadTemplate(roots: TemplateRoots, id: string): Promise<LoadedTemplate> {
  const builtin = await folders(roots.builtin);
  if (builtin.includes(id)) return loadTemplateFrom(path.join(roots.builtin, id), 'builtin');
  const operator = await folders(roots.operator);
  if (operator.includes(id)) return loadTemplateFrom(path.join(roots.operator, id), 'operator');
  throw new TemplateNotFoundError(id, [...builtin, ...operator]);
}

/** Reads and validates one template folder; every problem found is reported at once. */
export async function loadTemplateFrom(dir: string, source: TemplateSource): Promise<LoadedTemplate> {
  const id = path.basename(dir);
  const fail = (...problems: string[]): never => {
    throw new TemplateInvalidError(id, problems);
  };
  const file = path.join(dir, 'template.json');
  const size = await stat(file).then(
    (s) => s.size,
    () => fail('template.json is missing'),
  );
  if (size > MAX_TEMPLATE_BYTES) fail(`template.json is larger than ${MAX_TEMPLATE_BYTES / 1024} KiB`);
  let json: unknown;
  try {
    json = JSON.parse(await readFile(file, 'utf8'));
  } catch (err) {
    fail(`template.json is not valid JSON: ${(err as Error).message}`);
  }
  const parsed = templateSchema.safeParse(json);
  if (!parsed.success) fail(...parsed.error.issues.map(describeIssue));
  const template = parsed.data!;
  if (template.id !== id) fail(`id "${template.id}" must equal the folder name "${id}"`);
  return { template, source, dir, ...(template.logo ? { logo: await readLogo(path.join(dir, template.logo.file), fail) } : {}) };
}

async function readLogo(file: string, fail: (problem: string) => never): Promise<NonNullable<LoadedTemplate['logo']>> {
  const bytes = await readFile(file).catch(() => fail(`logo ${path.basename(file)} is missing`));
  if (bytes.byteLength > MAX_LOGO_BYTES) fail(`logo ${path.basename(file)} is larger than 2 MB`);
  const detected = detectFileType(bytes);
  if (!detected.supported || (detected.type !== 'png' && detected.type !== 'jpeg'))
    return fail(`logo ${path.basename(file)} must be a PNG or JPEG image`);
  return { bytes, type: detected.type };
}

function describeIssue(issue: z.core.$ZodIssue): string {
  const where = issue.path.map(String).join('.');
  const what = issue.code === 'unrecognized_keys' ? `unknown field(s) ${issue.keys.join(', ')}` : issue.message;
  return where ? `${where}: ${what}` : what;
}

/** Sub-folders whose names can be template ids; a missing root (no operator templates yet) is empty. */
async function folders(root: string): Promise<string[]> {
  const entries = await readdir(root, { withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return [];
    throw err;
  });
  return entries
    .filter((e) => e.isDirectory() && TEMPLATE_ID.test(e.name))
    .map((e) => e.name)
    .sort();
}
