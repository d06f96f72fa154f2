import { existsSync, openSync, readdirSync, readFileSync, readSync, closeSync } from 'node:fs';
import path from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { isErrorFinding, validateInvoiceXml, type ValidationReport } from '../../src/validation/index.js';
import { mustangAvailable, repoRoot, runMustang, type MustangVerdict } from '../support/java-validators.js';

/**
 * Our in-process verdict must agree with the Mustang CLI's on every XML file
 * of the shared corpus: the valid XRechnung/EN 16931 samples and the XML
 * files among the ones official validators reject.
 */

const corpus = path.resolve(repoRoot, '../shared/corpus');
const corpusPresent = existsSync(corpus);

function startsWithXml(file: string): boolean {
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const n = readSync(fd, head, 0, head.length, 0);
    return head
      .subarray(0, n)
      .toString('utf8')
      .replace(/^\uFEFF/, '')
      .trimStart()
      .startsWith('<');
  } finally {
    closeSync(fd);
  }
}

function corpusXmlFiles(): string[] {
  const files: string[] = [];
  for (const dir of ['xml-cii', 'xml-ubl', 'invalid']) {
    const full = path.join(corpus, dir);
    if (!existsSync(full)) continue;
    for (const name of readdirSync(full).sort()) {
      const file = path.join(full, name);
      if (startsWithXml(file)) files.push(file);
    }
  }
  return files;
}

const files = corpusPresent ? corpusXmlFiles() : [];

if (!corpusPresent) console.log(`corpus-agreement: corpus not present at ${corpus}; agreement checks not run (not counted as passing)`);
else if (!mustangAvailable()) console.log('corpus-agreement: Mustang CLI not installed; run scripts/setup-validators.sh');

/** Runs at most `limit` tasks at once; the JVM start dominates each Mustang run. */
async function mapLimited<T, R>(items: T[], limit: number, fn: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const worker = async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await fn(items[i] as T);
    }
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
  return results;
}

function blockingIds(r: ValidationReport): string[] {
  return [...new Set(r.findings.filter(isErrorFinding).map((f) => f.ruleId))];
}

function mustangErrorIds(v: MustangVerdict): string[] {
  return [
    ...new Set(v.messages.filter((m) => m.severity === 'error' || m.severity === 'fatal').map((m) => m.ruleId ?? `type ${m.type ?? '?'}`)),
  ];
}

describe.runIf(corpusPresent && mustangAvailable())('corpus agreement with the Mustang CLI', () => {
  const ours = new Map<string, ValidationReport>();
  const theirs = new Map<string, MustangVerdict>();

  beforeAll(async () => {
    for (const file of files) ours.set(file, await validateInvoiceXml(readFileSync(file, 'utf8')));
    const verdicts = await mapLimited(files, 2, (file) => runMustang(file, { timeoutMs: 180_000 }));
    files.forEach((file, i) => theirs.set(file, verdicts[i] as MustangVerdict));
    const rows = files.map((file) => {
      const o = ours.get(file) as ValidationReport;
      const m = theirs.get(file) as MustangVerdict;
      const mark = o.valid === m.valid ? '  ' : '≠ ';
      return `${mark}${path.relative(corpus, file)}: ours ${o.valid ? 'valid' : `invalid [${blockingIds(o).join(' ')}]`}, Mustang ${m.valid ? 'valid' : `invalid [${mustangErrorIds(m).join(' ')}]`}`;
    });
    const agreeing = files.filter((f) => ours.get(f)?.valid === theirs.get(f)?.valid).length;
    console.log(`corpus-agreement: ${agreeing}/${files.length} verdicts agree\n${rows.join('\n')}`);
  }, 1_200_000);

  it('covers the XML corpus', () => {
    expect(files.length).toBeGreaterThan(40);
  });

  it.each(files.map((f) => [path.relative(corpus, f), f]))('%s: same verdict as Mustang', (_name, file) => {
    const o = ours.get(file) as ValidationReport;
    const m = theirs.get(file) as MustangVerdict;
    expect({ valid: o.valid, errors: blockingIds(o) }).toEqual({
      valid: m.valid,
      errors: o.valid === m.valid ? blockingIds(o) : mustangErrorIds(m),
    });
  });
});
