import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { spawnService } from './dist/scripts/lib/spawn-service.js';
const dir = 'test/fixtures/invoices';
const invoices = readdirSync(dir).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(path.join(dir, f), 'utf8')));
const service = await spawnService({ name: 'prof', env: { NODE_OPTIONS: '--cpu-prof --cpu-prof-dir=/tmp/prof' } });
const once = async (i) => {
  const res = await fetch(`${service.url}/api/v1/zugferd/createXinvoiceFromJson`, { method: 'POST', headers: { authorization: `Bearer ${service.token}`, 'content-type': 'application/json' }, body: JSON.stringify({ invoice: invoices[i % invoices.length] }) });
  await res.json();
};
let next = 0;
await Promise.all(Array.from({ length: 8 }, async () => { while (next < 400) await once(next++); }));
await service.stop();
console.log('done');
