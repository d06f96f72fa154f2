// Sends the uploads a manifest lists ({ url, token, uploads: [{ path, name, file }] }), n at a time,
// with the fetch of the Node that runs it, and prints for each its status and error code, or why
// there was no answer. Run by the Node the machine ships (20), the client of the report.
import { readFileSync } from 'node:fs';

const manifest = JSON.parse(readFileSync(process.argv[2], 'utf8'));
const inFlight = Number(process.argv[3]);
const results = [];
let next = 0;
async function lane() {
  for (let i = next++; i < manifest.uploads.length; i = next++) {
    const u = manifest.uploads[i];
    try {
      const r = await fetch(`${manifest.url}${u.path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${manifest.token}`, 'content-type': 'application/json' },
        body: readFileSync(u.file, 'utf8'),
      });
      const text = await r.text();
      results[i] = { status: r.status, code: r.status === 200 ? undefined : JSON.parse(text).error?.code };
    } catch (err) {
      results[i] = `${u.name} to ${u.path}: no answer (${err.cause?.code ?? err.message})`;
    }
  }
}
await Promise.all(Array.from({ length: inFlight }, lane));
console.log(JSON.stringify(results));
