import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../connectors/config.js';

const valid = `# Scans from the office copier become ZUGFeRD PDFs.
sources:
  office:
    kind: local
    root: /srv/invoices
  partner:
    kind: sftp
    host: sftp.example.com
    username: einvoice
    privateKey: { file: /run/secrets/sftp_key }
routes:
  - name: copier
    account: acc_123
    source: office
    folder: in
    files: "*.{pdf,png,jpg,tif,tiff}"
    operation: createZugferdFromPdf
    output: { folder: out }
    mail:
      onFailure: { to: [buchhaltung@example.com], from: einvoice@example.com }
  - name: partner-validation
    account: acc_123
    source: partner
    folder: upload
    files: "*.xml"
    operation: validate
`;

function problemsOf(text: string) {
  try {
    parseConfig(text, 'connectors.yaml');
  } catch (err) {
    expect(err).toBeInstanceOf(ConfigError);
    return (err as ConfigError).problems;
  }
  throw new Error('the configuration was accepted');
}

describe('connector configuration', () => {
  it('reads routes and sources with their defaults', () => {
    const config = parseConfig(valid, 'connectors.yaml');
    expect(config.routes.map((r) => [r.name, r.operation, r.processing, r.done, r.error, r.minAgeSeconds])).toEqual([
      ['copier', 'createZugferdFromPdf', 'processing/copier', 'done', 'error', 10],
      ['partner-validation', 'validate', 'processing/partner-validation', 'done', 'error', 10],
    ]);
    expect(config.sources.partner).toMatchObject({
      kind: 'sftp',
      port: 22,
      pollSeconds: 30,
      privateKey: { file: '/run/secrets/sftp_key' },
    });
  });

  it('accepts the same configuration written as JSON', () => {
    const asJson = JSON.stringify(parseConfig(valid, 'connectors.yaml'), null, 2);
    expect(parseConfig(asJson, 'connectors.json')).toEqual(parseConfig(valid, 'connectors.yaml'));
  });

  it('refuses a secret written into the file, naming its line', () => {
    const problems = problemsOf(valid.replace('privateKey: { file: /run/secrets/sftp_key }', 'password: hunter2'));
    expect(problems).toEqual([expect.objectContaining({ line: 10, path: 'sources.partner.password' })]);
  });

  it('names the line of an unknown operation, a missing source and a route writing into its own inbox', () => {
    expect(problemsOf(valid.replace('operation: validate', 'operation: convert')).map((p) => [p.line, p.path])).toEqual([
      [26, 'routes.1.operation'],
    ]);
    expect(problemsOf(valid.replace('source: office', 'source: copier'))).toEqual([
      expect.objectContaining({ line: 14, path: 'routes.0.source', message: 'no source named copier' }),
    ]);
    expect(problemsOf(valid.replace('output: { folder: out }', 'output: { folder: in }'))).toEqual([
      expect.objectContaining({ line: 18, path: 'routes.0.output', message: expect.stringContaining('watched folder') }),
    ]);
  });

  it('refuses folders that climb out of the source, and YAML that does not parse', () => {
    expect(problemsOf(valid.replace('folder: in', 'folder: ../etc'))).toEqual([
      expect.objectContaining({ line: 15, path: 'routes.0.folder' }),
    ]);
    expect(problemsOf(valid.replace('  office:\n', '  office:\n   bad: [\n'))[0]).toMatchObject({ line: expect.any(Number) });
  });
});
