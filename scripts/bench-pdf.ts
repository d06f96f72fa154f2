import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { PDFDocument, PDFName } from 'pdf-lib';
import { invoiceSchema } from '../src/invoice/model.js';
import { loadTemplate, renderInvoicePdf, templateRoots } from '../src/render/index.js';
import { writeInvoiceXml } from '../src/xml/index.js';
import { invoiceWithLines } from './lib/sample-invoices.js';
import { repoRoot, spawnService } from './lib/spawn-service.js';
import { quantile } from './lib/quantile.js';

/**
 * Benchmark (not a test): the four ZUGFeRD endpoints end to end against the built service
 * (HTTP, Temporal workflow, Ghostscript, pdf-lib/pdfjs in the isolated worker, veraPDF,
 * schematron, storage), for a 1-page and a ~20-page invoice. Per endpoint and size: median and
 * p95 latency, and the peak resident memory of the service's whole process tree (the Node
 * service with its worker threads, Ghostscript, veraPDF's JVM, the embedded Temporal server),
 * sampled every 20 ms, next to the tree's idle size.
 *   node dist-tools/scripts/bench-pdf.js [--requests 5] [--database-url postgres://…]
 */
const { values } = parseArgs({ options: { requests: { type: 'string', default: '5' }, 'database-url': { type: 'string' } } });
const requests = Number(values.requests);

const fixture = JSON.parse(readFileSync(path.join(repoRoot, 'test/fixtures/invoices/01-standard-19.json'), 'utf8'));
/** Line counts that give 1 and about 20 pages with the de-standard template. */
const SIZES = [
  { label: '1 page', lines: 3 },
  { label: '~20 pages', lines: 280 },
];

const template = await loadTemplate(templateRoots('/nonexistent'), 'de-standard');

/** The template renders PDF/A; without its XMP packet the service must convert it with Ghostscript. */
async function withoutPdfA(pdf: Uint8Array): Promise<Uint8Array> {
  const doc = await PDFDocument.load(pdf);
  doc.catalog.delete(PDFName.of('Metadata'));
  return doc.save();
}

const service = await spawnService({ name: 'bench-pdf', env: values['database-url'] ? { DATABASE_URL: values['database-url'] } : {} });
try {
  const post = async (route: string, body: unknown, check: (json: any) => boolean): Promise<any> => {
    const res = await fetch(`${service.url}/api/v1/zugferd/${route}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = await res.json();
    if (res.status !== 200 || !check(json)) throw new Error(`${route}: HTTP ${res.status} ${JSON.stringify(json).slice(0, 500)}`);
    return json;
  };

  const idle = treeRss();
  console.log(
    `ZUGFeRD endpoints, ${requests} requests per case after one warm-up, database ${values['database-url'] ? 'PostgreSQL' : 'SQLite'}; idle process tree ${mb(idle)}\n`,
  );
  console.log('endpoint                                       size        pages  median     p95   peak tree RSS');
  for (const size of SIZES) {
    const invoiceJson = invoiceWithLines(fixture, size.lines);
    const invoice = invoiceSchema.parse(invoiceJson);
    const rendered = await renderInvoicePdf(invoice, template, { created: new Date(), fileId: '0'.repeat(32) });
    const pdfA = Buffer.from(rendered.pdf).toString('base64');
    const plain = Buffer.from(await withoutPdfA(rendered.pdf)).toString('base64');
    const xml = writeInvoiceXml(invoice, { profile: 'EN16931' });
    const zugferd = (await post('createZugferdFromJson', { invoice: invoiceJson, invoicePdf64: pdfA }, (j) => j.zugferdValid))
      .zugferd as string;

    const cases: Array<[string, string, unknown, (json: any) => boolean]> = [
      [
        'createZugferdFromJson (PDF/A input)',
        'createZugferdFromJson',
        { invoice: invoiceJson, invoicePdf64: pdfA },
        (j) => j.zugferdValid && !j.convertedToPdfA,
      ],
      [
        'createZugferdFromJson (needs Ghostscript)',
        'createZugferdFromJson',
        { invoice: invoiceJson, invoicePdf64: plain },
        (j) => j.zugferdValid && j.convertedToPdfA,
      ],
      ['createZugferdPdfFromXinvoice', 'createZugferdPdfFromXinvoice', { xInvoiceXml: xml, invoicePdf64: pdfA }, (j) => j.valid],
      ['validateZugferdPdf (comparePDF2XML)', 'validateZugferdPdf', { zugferdFile64: zugferd, comparePDF2XML: true }, (j) => j.isValid],
      [
        'extractXinvoiceFromZugferdToJson',
        'extractXinvoiceFromZugferdToJson',
        { zugferd64: zugferd },
        (j) => j.invoice?.invoiceNumber === invoice.invoiceNumber,
      ],
    ];
    for (const [label, route, body, check] of cases) {
      await post(route, body, check); // warm-up: JIT, compiled rules, class loading
      let peak = 0;
      const sampler = setInterval(() => (peak = Math.max(peak, treeRss())), 20);
      const times: number[] = [];
      for (let i = 0; i < requests; i++) {
        const started = performance.now();
        await post(route, body, check);
        times.push(performance.now() - started);
      }
      clearInterval(sampler);
      console.log(
        `${label.padEnd(46)} ${size.label.padEnd(10)} ${String(rendered.pages).padStart(5)} ${`${pct(times, 50)} ms`.padStart(8)} ${`${pct(times, 95)} ms`.padStart(8)}   ${mb(peak)}`,
      );
    }
  }
} finally {
  await service.stop();
}

/** Resident memory of every process below this one (the service and what it started), in bytes. */
function treeRss(): number {
  const parents = new Map<number, number>();
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      // Field 4 of /proc/PID/stat is the parent; the command name (field 2) may contain spaces.
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      parents.set(Number(entry), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
    } catch {
      // The process ended while we looked.
    }
  }
  const inTree = (pid: number): boolean => {
    for (let p = parents.get(pid); p !== undefined && p > 1; p = parents.get(p)) if (p === process.pid) return true;
    return false;
  };
  let total = 0;
  for (const pid of parents.keys()) {
    if (!inTree(pid)) continue;
    try {
      total += Number(/VmRSS:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1] ?? 0) * 1024;
    } catch {
      // Ended meanwhile.
    }
  }
  return total;
}

function pct(values: number[], p: number): string {
  return quantile(values, p / 100).toFixed(0);
}

function mb(bytes: number): string {
  return `${(bytes / 1024 / 1024).toFixed(0)} MB`;
}
