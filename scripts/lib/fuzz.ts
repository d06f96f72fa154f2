import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import fc from 'fast-check';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../../src/render/index.js';
import { invoiceSchema } from '../../src/invoice/model.js';
import { rssMiB } from './process-memory.js';
import { repoRoot } from './spawn-service.js';

/**
 * Fuzzing the intake (issue 15): generated requests against the running service, through the
 * same front door as any client. Three families: JSON bodies of createXinvoiceFromJson (a valid
 * invoice with one part replaced by anything, arbitrary JSON, broken JSON text, deep nesting),
 * XML for validateXinvoiceXml (a valid XRechnung mutated: bytes, elements, entities, DOCTYPE,
 * nesting), and files for the analysis (a valid PDF, PNG or TIFF mutated, truncated, with
 * huge declared sizes, or random bytes behind a magic number). Every answer must be below 500;
 * the service's memory is sampled along the way.
 */

export interface FuzzCase {
  family: 'json' | 'xml' | 'file';
  path: string;
  body: string;
  /** What was done to the input, for the report of a failure. */
  how: string;
}

const CREATE = '/api/v1/zugferd/createXinvoiceFromJson';
const VALIDATE = '/api/v1/zugferd/validateXinvoiceXml';
const ANALYSE = '/createJSONFromAnalysedPdf';

export async function fuzzCases(): Promise<fc.Arbitrary<FuzzCase>> {
  const invoice = invoiceSchema.parse(
    JSON.parse(await readFile(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8')),
  );
  const xml = await readFile(path.join(repoRoot, 'test/fixtures/validation/xrechnung-minimal.cii.xml'), 'utf8');
  const template = await loadTemplate(templateRoots('/nonexistent'), 'de-standard');
  const pdf = Buffer.from(
    (await renderInvoicePdf(invoice, template, { created: new Date('2025-03-12T10:00:00Z'), fileId: '0'.repeat(32) })).pdf,
  );
  const tiff = readFileSync(path.join(repoRoot, 'test/fixtures/images/grey-lzw.tif'));
  return fc.oneof(
    { weight: 5, arbitrary: jsonCases(invoice) },
    { weight: 2, arbitrary: xmlCases(xml) },
    { weight: 3, arbitrary: fileCases([pdf, tiff, tinyPng()]) },
  );
}

// ------------------------------------------------------------------ JSON

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/** Every path to a value inside a JSON value. */
function paths(value: unknown, prefix: Array<string | number> = []): Array<Array<string | number>> {
  if (Array.isArray(value)) return [prefix, ...value.flatMap((v, i) => paths(v, [...prefix, i]))];
  if (value && typeof value === 'object') return [prefix, ...Object.entries(value).flatMap(([k, v]) => paths(v, [...prefix, k]))];
  return [prefix];
}

function replaceAt(value: unknown, at: Array<string | number>, replacement: unknown): unknown {
  if (at.length === 0) return replacement;
  const [head, ...rest] = at;
  if (Array.isArray(value)) return value.map((v, i) => (i === head ? replaceAt(v, rest, replacement) : v));
  return { ...(value as object), [head!]: replaceAt((value as Record<string, unknown>)[head as string], rest, replacement) };
}

/** Values people and programs put where they do not belong. */
const oddValue: fc.Arbitrary<unknown> = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.string({ unit: 'binary', maxLength: 200 }),
  fc.constantFrom(
    '',
    ' ',
    '\u0000',
    'a\r\nBcc: x@evil.example',
    '=?utf-8?b?PGI+?=',
    '31.02.2024',
    '2024-13-01',
    '1e400',
    '-0',
    'NaN',
    '١٢٣',
    '\uD800',
    '💶'.repeat(50),
    'x'.repeat(200_000),
  ),
  fc.double(),
  fc.bigInt().map((n) => Number(n)),
  fc.constant(undefined),
);

function jsonCases(invoice: unknown): fc.Arbitrary<FuzzCase> {
  const all = paths(invoice);
  const mutated = fc.tuple(fc.integer({ min: 0, max: all.length - 1 }), oddValue).map(([i, v]): FuzzCase => ({
    family: 'json',
    path: CREATE,
    body: JSON.stringify({ invoice: replaceAt(invoice, all[i]!, v) }),
    how: `invoice.${all[i]!.join('.')} = ${String(JSON.stringify(v)).slice(0, 80)}`,
  }));
  const arbitrary = fc
    .jsonValue({ maxDepth: 6 })
    .map((v): FuzzCase => ({ family: 'json', path: CREATE, body: JSON.stringify(v as Json), how: 'arbitrary JSON' }));
  const broken = fc.tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 5 }), fc.boolean()).map(([at, insert, truncate]): FuzzCase => {
    const text = JSON.stringify({ invoice });
    const i = at % text.length;
    return {
      family: 'json',
      path: CREATE,
      body: truncate ? text.slice(0, i) : text.slice(0, i) + insert + text.slice(i),
      how: truncate ? `truncated at ${i}` : `inserted ${JSON.stringify(insert)} at ${i}`,
    };
  });
  const deep = fc.integer({ min: 100, max: 100_000 }).map((depth): FuzzCase => ({
    family: 'json',
    path: CREATE,
    body: `{"invoice":${'['.repeat(depth)}${']'.repeat(depth)}}`,
    how: `nesting depth ${depth}`,
  }));
  return fc.oneof(
    { weight: 6, arbitrary: mutated },
    { weight: 2, arbitrary: arbitrary },
    { weight: 2, arbitrary: broken },
    { weight: 1, arbitrary: deep },
  );
}

// ------------------------------------------------------------------ XML

function xmlCases(xml: string): fc.Arbitrary<FuzzCase> {
  const at = (n: number) => n % xml.length;
  const mutations: Array<fc.Arbitrary<{ text: string; how: string }>> = [
    fc
      .tuple(fc.nat(), fc.nat({ max: 200 }))
      .map(([i, n]) => ({ text: xml.slice(0, at(i)) + xml.slice(at(i) + n), how: `deleted ${n} at ${at(i)}` })),
    fc
      .tuple(fc.nat(), fc.string({ unit: 'binary', maxLength: 30 }))
      .map(([i, s]) => ({ text: xml.slice(0, at(i)) + s + xml.slice(at(i)), how: `inserted ${JSON.stringify(s)} at ${at(i)}` })),
    fc
      .tuple(
        fc.nat(),
        fc.constantFrom(
          '<x>',
          '</ram:ID>',
          '&amp;',
          '&lt;',
          '&unknown;',
          '&#0;',
          '&#x110000;',
          ']]>',
          '<![CDATA[',
          '<?pi x?>',
          '<!-- -->',
          ' xmlns:ram="urn:x"',
          '\uFEFF',
        ),
      )
      .map(([i, s]) => ({ text: xml.slice(0, at(i)) + s + xml.slice(at(i)), how: `inserted ${s} at ${at(i)}` })),
    fc.constantFrom(
      {
        text: `<!DOCTYPE x [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;"><!ENTITY c "&b;&b;&b;&b;&b;&b;&b;&b;&b;&b;">]>${xml.replace(/^<\?xml[^>]*\?>/, '')}`,
        how: 'billion laughs',
      },
      { text: `<!DOCTYPE x [<!ENTITY e SYSTEM "file:///etc/passwd">]><x>&e;</x>`, how: 'XXE' },
      {
        text: xml.replace('</rsm:CrossIndustryInvoice>', `${'<a>'.repeat(20_000)}${'</a>'.repeat(20_000)}</rsm:CrossIndustryInvoice>`),
        how: 'nesting 20,000',
      },
      { text: xml.replace('<ram:ID>', `<ram:ID a="${'v'.repeat(1_000_000)}">`), how: 'a 1 MB attribute' },
      { text: xml.replace(/^<\?xml[^>]*\?>/, '<?xml version="1.0" encoding="UTF-16"?>'), how: 'declares UTF-16' },
    ),
  ];
  return fc
    .oneof(...mutations)
    .map(({ text, how }): FuzzCase => ({ family: 'xml', path: VALIDATE, body: JSON.stringify({ xinvoiceXML: text }), how }));
}

// ------------------------------------------------------------------ files

function fileCases(samples: Buffer[]): fc.Arbitrary<FuzzCase> {
  const named = ['PDF', 'TIFF', 'PNG'];
  const mutated = fc
    .tuple(
      fc.integer({ min: 0, max: samples.length - 1 }),
      fc.array(fc.tuple(fc.nat(), fc.integer({ min: 0, max: 255 })), { minLength: 1, maxLength: 20 }),
    )
    .map(([s, flips]) => {
      const bytes = Buffer.from(samples[s]!);
      for (const [i, b] of flips) bytes[i % bytes.length] = b;
      return { bytes, how: `${named[s]} with ${flips.length} byte(s) changed` };
    });
  const truncated = fc
    .tuple(fc.integer({ min: 0, max: samples.length - 1 }), fc.nat())
    .map(([s, n]) => ({ bytes: samples[s]!.subarray(0, n % samples[s]!.length), how: `${named[s]} cut at ${n % samples[s]!.length}` }));
  const magic = fc
    .tuple(fc.constantFrom('%PDF-1.7\n', '\x89PNG\r\n\x1a\n', '\xff\xd8\xff\xe0', 'II*\x00', 'MM\x00*'), fc.uint8Array({ maxLength: 4096 }))
    .map(([m, rest]) => ({
      bytes: Buffer.concat([Buffer.from(m, 'latin1'), Buffer.from(rest)]),
      how: `random bytes after ${JSON.stringify(m)}`,
    }));
  const huge = fc
    .tuple(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 1, max: 2 ** 31 - 1 }))
    .map(([w, h]) => ({ bytes: tinyPng(w, h), how: `PNG claiming ${w}×${h}` }));
  return fc
    .oneof(
      { weight: 4, arbitrary: mutated },
      { weight: 2, arbitrary: truncated },
      { weight: 2, arbitrary: magic },
      { weight: 1, arbitrary: huge },
    )
    .map(({ bytes, how }): FuzzCase => ({
      family: 'file',
      path: ANALYSE,
      body: JSON.stringify({ pdfInvoiceBase64: bytes.toString('base64'), withLineItems: false }),
      how,
    }));
}

/** A PNG header (with an IHDR that may claim any size) and no image data. */
function tinyPng(width = 1, height = 1): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 8;
  ihdr[9] = 0;
  return Buffer.concat([
    Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex'),
    ihdr,
    Buffer.alloc(4),
    Buffer.from('0000000049454e44ae426082', 'hex'),
  ]);
}

// ------------------------------------------------------------------ the run

export interface FuzzReport {
  cases: number;
  byStatus: Record<string, number>;
  /** Answers of 500 or more, with what was sent. */
  failures: Array<{ status: number; how: string; family: string; answer: string }>;
  /** Resident memory of the service process (MiB) after each tenth of the run. */
  rssMiB: number[];
  /** The highest resident memory seen after any one case, and that case. */
  peak: { rssMiB: number; how: string; family: string };
  seconds: number;
}

/** Cases are made a batch at a time, so that a long run holds only one batch of inputs. */
const BATCH = 100;

export async function runFuzz(
  target: { url: string; token: string; pid: number },
  opts: { runs: number; seed: number; log?: (line: string) => void },
): Promise<FuzzReport> {
  const started = Date.now();
  const arbitrary = await fuzzCases();
  const report: FuzzReport = { cases: 0, byStatus: {}, failures: [], rssMiB: [], peak: { rssMiB: 0, how: '', family: '' }, seconds: 0 };
  const tenth = Math.max(1, Math.floor(opts.runs / 10));
  for (let batch = 0; batch * BATCH < opts.runs; batch++) {
    const cases = fc.sample(arbitrary, { numRuns: Math.min(BATCH, opts.runs - batch * BATCH), seed: opts.seed + batch });
    for (const c of cases) {
      let status: number;
      let answer = '';
      try {
        const res = await fetch(`${target.url}${c.path}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', authorization: `Bearer ${target.token}` },
          body: c.body,
          signal: AbortSignal.timeout(600_000),
        });
        status = res.status;
        answer = (await res.text()).slice(0, 300);
      } catch (err) {
        status = 599; // no answer at all: a reset connection counts as a failure
        answer = (err as Error).message;
      }
      report.cases++;
      report.byStatus[status] = (report.byStatus[status] ?? 0) + 1;
      if (status >= 500) report.failures.push({ status, how: c.how, family: c.family, answer });
      const rss = rssMiB(target.pid);
      if (rss > report.peak.rssMiB) report.peak = { rssMiB: rss, how: c.how.slice(0, 200), family: c.family };
      if (report.cases % tenth === 0) {
        report.rssMiB.push(rss);
        opts.log?.(`${report.cases}/${opts.runs}: ${JSON.stringify(report.byStatus)}, service RSS ${rss} MiB`);
      }
    }
  }
  report.seconds = Math.round((Date.now() - started) / 1000);
  return report;
}

/** The service may hold this much at any moment (the OCR engines are replaced above 1.5 GB). */
export const PEAK_LIMIT_MIB = 2048;
/** After the first tenth (engines started, caches filled) the service ends within this of where it was. */
export const GROWTH_LIMIT_MIB = 128;

/** Why the run's memory was not bounded, or undefined when it was. */
export function memoryProblem(report: FuzzReport): string | undefined {
  const growth = report.rssMiB.at(-1)! - report.rssMiB[0]!;
  if (growth >= GROWTH_LIMIT_MIB) return `the service grew by ${growth} MiB after warm-up (RSS ${report.rssMiB.join(', ')} MiB)`;
  if (report.peak.rssMiB >= PEAK_LIMIT_MIB)
    return `the service reached ${report.peak.rssMiB} MiB after ${report.peak.family} case "${report.peak.how}"`;
  return undefined;
}
