import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  listTemplates,
  loadTemplate,
  templateRoots,
  TemplateInvalidError,
  TemplateNotFoundError,
  type TemplateRoots,
} from '../../src/render/index.js';

const builtin = templateRoots('/nonexistent').builtin;
const de = () => JSON.parse(readFileSync(path.join(builtin, 'de-standard/template.json'), 'utf8'));

let dataDir: string;
let roots: TemplateRoots;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'templates-'));
  roots = templateRoots(dataDir);
});
afterEach(() => rmSync(dataDir, { recursive: true, force: true }));

/** Writes an operator template folder; `json` may be any text, to test broken files. */
function operator(id: string, json: unknown, files: Record<string, Buffer> = {}): void {
  const dir = path.join(roots.operator, id);
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'template.json'), typeof json === 'string' ? json : JSON.stringify(json));
  for (const [name, bytes] of Object.entries(files)) writeFileSync(path.join(dir, name), bytes);
}

async function problemsOf(id: string): Promise<string[]> {
  const err = await loadTemplate(roots, id).catch((e: unknown) => e);
  expect(err).toBeInstanceOf(TemplateInvalidError);
  return (err as TemplateInvalidError).problems;
}

describe('template registry', () => {
  it('finds operator templates without a restart and without an operator folder at all', async () => {
    expect((await listTemplates(roots)).map((t) => t.id)).toEqual(['de-standard', 'en-standard']);
    cpSync(path.join(builtin, 'de-standard'), path.join(roots.operator, 'firma'), { recursive: true });
    writeFileSync(path.join(roots.operator, 'firma/template.json'), JSON.stringify({ ...de(), id: 'firma', name: 'Firma' }));
    const loaded = await loadTemplate(roots, 'firma');
    expect(loaded).toMatchObject({ source: 'operator', template: { id: 'firma', name: 'Firma' }, logo: { type: 'png' } });
  });

  it('names an unknown template and the ones that exist', async () => {
    const err = await loadTemplate(roots, 'nope').catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TemplateNotFoundError);
    expect((err as TemplateNotFoundError).available).toEqual(['de-standard', 'en-standard']);
  });

  it('reports every problem of a broken template with its path', async () => {
    const t = de();
    delete t.logo;
    delete t.labels.amountDue;
    t.colors.accent = 'blue';
    t.blocks = ['lines', 'lines'];
    t.lineColumns.push({ field: 'colour', width: 5 });
    t.font.family = 'Arial';
    t.extra = true;
    operator('de-standard-copy', { ...t, id: 'de-standard-copy' });
    const problems = (await problemsOf('de-standard-copy')).join('\n');
    for (const expected of [
      'labels.amountDue',
      'colors.accent: must be a colour as #rrggbb',
      'blocks: each block at most once',
      'lineColumns.7.field',
      'font.family',
      'unknown field(s) extra',
    ]) {
      expect(problems).toContain(expected);
    }
  });

  it.each([
    ['not JSON', '{ "id": ', /not valid JSON/],
    ['another id than its folder', { ...de(), id: 'other' }, /must equal the folder name/],
    [
      'margins that leave no room',
      { ...de(), id: 'case', page: { size: 'A5', margins: { top: 50, right: 10, bottom: 50, left: 10 } } },
      /too little room/,
    ],
    ['an unknown locale', { ...de(), id: 'case', locale: 'xx-invalid-locale-tag-!' }, /locale/],
    ['a logo that is missing', { ...de(), id: 'case' }, /logo logo.png is missing/],
    [
      'a logo path that leaves the folder',
      { ...de(), id: 'case', logo: { file: '../secret.png', width: 30, align: 'left' } },
      /plain file name/,
    ],
  ])('refuses %s', async (_, json, problem) => {
    operator('case', json);
    expect((await problemsOf('case')).join('\n')).toMatch(problem);
  });

  it('refuses a logo that is not PNG or JPEG', async () => {
    operator(
      'gif',
      { ...de(), id: 'gif', logo: { file: 'logo.gif', width: 30, align: 'left' } },
      { 'logo.gif': Buffer.from('GIF89a......') },
    );
    expect(await problemsOf('gif')).toEqual(['logo logo.gif must be a PNG or JPEG image']);
  });

  it('lists a broken template with its problems, and refuses an operator template that takes a built-in id', async () => {
    operator('broken', '[]');
    cpSync(path.join(builtin, 'en-standard'), path.join(roots.operator, 'en-standard'), { recursive: true });
    const listed = await listTemplates(roots);
    expect(listed.find((t) => t.id === 'broken')).toMatchObject({ source: 'operator', valid: false });
    expect(listed.find((t) => t.id === 'en-standard' && t.source === 'operator')).toMatchObject({
      valid: false,
      problems: [expect.stringContaining('built-in')],
    });
    expect((await loadTemplate(roots, 'en-standard')).source).toBe('builtin');
  });
});
