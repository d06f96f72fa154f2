import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { parseConfig } from '../../connectors/config.js';

it('the example configuration of the README is a valid one', () => {
  const readme = readFileSync(path.resolve(import.meta.dirname, '../../README.md'), 'utf8');
  const section = readme.slice(readme.indexOf('## Folder connectors'));
  const yaml = /```yaml\n([\s\S]*?)```/.exec(section)?.[1];
  expect(yaml).toBeDefined();
  // Indented as a list item in the README.
  const config = parseConfig(yaml!.replace(/^ {3}/gm, ''), 'README.md');
  expect(config.routes.map((r) => [r.name, r.source, r.operation])).toEqual([
    ['scans', 'inbox', 'createZugferdFromPdf'],
    ['partner-check', 'partner', 'validate'],
    ['erp-export', 'bucket', 'createXinvoiceFromJson'],
  ]);
  expect(Object.values(config.sources).map((s) => s.kind)).toEqual(['local', 'sftp', 's3', 'gdrive']);
});
