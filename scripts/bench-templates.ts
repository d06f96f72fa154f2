import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { invoiceSchema } from '../src/invoice/model.js';
import { embedInvoiceXml } from '../src/pdf/embed.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../src/render/index.js';
import { writeInvoiceXml } from '../src/xml/index.js';
import { invoiceWithLines } from './lib/sample-invoices.js';
import { repoRoot, spawnService } from './lib/spawn-service.js';
import { quantile } from './lib/quantile.js';

/**
 * Benchmark (not a test): template invoices of 1 and about 20 pages, with every built-in template.
 *  1. in process: render + attach the XML (what the renderTemplatePdf and buildZugferdPdf
 *     activities compute), median time and the peak resident memory of this process;
 *  2. end to end: POST createInvoicePdfFromJson against the built service (Temporal workflow,
 *     veraPDF and schematron validation, storage), median and p95 latency, and the peak
 *     resident memory of the service process (veraPDF's JVM runs beside it and is not counted).
 *   node dist-tools/scripts/bench-templates.js [--requests 8] [--renders 20] [--database-url postgres://…]
 */
const { values } = parseArgs({
  options: {
    requests: { type: 'string', default: '8' },
    renders: { type: 'string', default: '20' },
    'database-url': { type: 'string' },
  },
});
const requests = Number(values.requests);
const renders = Number(values.renders);

const fixture = JSON.parse(readFileSync(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8'));
const TEMPLATES = ['de-standard', 'en-standard'];
/** Line counts that give 1 and about 20 pages with the built-in templates. */
const SIZES = [
  { label: '1 page', lines: 3 },
  { label: '~20 pages', lines: 280 },
];

const roots = templateRoots('/nonexistent');

console.log(`Template invoices: ${TEMPLATES.join(', ')}; ${renders} renders, ${requests} requests per case\n`);
console.log('In process (render + attach XML):');
for (const size of SIZES) {
  const invoice = invoiceSchema.parse(invoiceWithLines(fixture, size.lines));
  const xml = Buffer.from(writeInvoiceXml(invoice, { profile: 'EN16931' }), 'utf8');
  for (const templateId of TEMPLATES) {
    const template = await loadTemplate(roots, templateId);
    const times: number[] = [];
    let pages = 0;
    for (let i = 0; i < renders + 2; i++) {
      const started = performance.now();
      const rendered = await renderInvoicePdf(invoice, template, { created: new Date(), fileId: '0'.repeat(32) });
      await embedInvoiceXml({ pdf: rendered.pdf, xml, profile: 'EN16931', title: rendered.title, now: new Date() });
      if (i >= 2) times.push(performance.now() - started); // the first two warm up the JIT and the font cache
      pages = rendered.pages;
    }
    console.log(
      `  ${templateId.padEnd(12)} ${size.label.padEnd(10)} ${String(pages).padStart(2)} pages: median ${pct(times, 50)} ms, p95 ${pct(times, 95)} ms; peak RSS of this process so far ${mb(process.resourceUsage().maxRSS * 1024)}`,
    );
  }
}

const service = await spawnService({
  name: 'bench-templates',
  env: values['database-url'] ? { DATABASE_URL: values['database-url'] } : {},
});
try {
  const servicePid = findServicePid();
  const once = async (body: unknown): Promise<{ ms: number; pages: number }> => {
    const started = performance.now();
    const res = await fetch(`${service.url}/api/v1/zugferd/createInvoicePdfFromJson`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await res.json()) as { zugferdValid?: boolean; xInvoiceValid?: boolean; pages?: number };
    if (res.status !== 200 || !json.zugferdValid || !json.xInvoiceValid)
      throw new Error(`HTTP ${res.status}: ${JSON.stringify(json).slice(0, 500)}`);
    return { ms: performance.now() - started, pages: json.pages ?? 0 };
  };
  for (let i = 0; i < 2; i++) await once({ invoice: fixture, templateId: TEMPLATES[0] }); // warm-up: JIT, rule sets, connections

  console.log(`\nEnd to end (HTTP → workflow → validation → storage), database ${values['database-url'] ? 'PostgreSQL' : 'SQLite'}:`);
  for (const size of SIZES) {
    const invoice = invoiceWithLines(fixture, size.lines);
    for (const templateId of TEMPLATES) {
      const results: Array<{ ms: number; pages: number }> = [];
      for (let i = 0; i < requests; i++) results.push(await once({ invoice, templateId }));
      const times = results.map((r) => r.ms);
      console.log(
        `  ${templateId.padEnd(12)} ${size.label.padEnd(10)} ${String(results[0]!.pages).padStart(2)} pages: median ${pct(times, 50)} ms, p95 ${pct(times, 95)} ms; service peak RSS so far ${mb(peakRss(servicePid))}`,
      );
    }
  }
} finally {
  await service.stop();
}

function pct(values: number[], p: number): string {
  return quantile(values, p / 100).toFixed(0);
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
}

/** The service is our child process running dist/src/main.js (Linux /proc). */
function findServicePid(): number {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes('dist/src/main.js')) return Number(entry);
    } catch {
      // the process ended while we looked
    }
  }
  throw new Error('service process not found');
}

/** VmHWM: the highest resident set size the process has had. */
function peakRss(pid: number): number {
  const kb = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1];
  return Number(kb) * 1024;
}
