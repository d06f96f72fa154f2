import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';
import { call, expectEnvelope, services } from './client.js';

const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const VALIDATE = '/api/v1/zugferd/validateXinvoiceXml';
const body = { xinvoiceXML: '<not-an-invoice/>' };

describe.each(services)('authentication ($name)', (service) => {
  const cli = async (...args: string[]) =>
    JSON.parse(
      (await run(process.execPath, [path.join(root, 'dist/src/cli/accounts.js'), ...args, '--json'], { env: service.env })).stdout,
    );

  it('accepts Authorization: Bearer <token>', async () => {
    const r = await call(service, VALIDATE, { body });
    expect(r.status).toBe(200);
    expect(r.json.isValid).toBe(false);
  });

  it('accepts the scheme name in any case (RFC 9110 makes it case-insensitive)', async () => {
    const r = await call(service, VALIDATE, { body, token: null, headers: { authorization: `bearer ${service.token}` } });
    expect(r.status).toBe(200);
  });

  it('answers 403 for a raw token without "Bearer "', async () => {
    const r = await call(service, VALIDATE, { body, token: null, headers: { authorization: service.token } });
    expectEnvelope(r, 403, 'AUTH_SCHEME_INVALID');
  });

  it('answers 403 for a token in an authtoken header', async () => {
    const r = await call(service, VALIDATE, { body, token: null, headers: { authtoken: service.token } });
    expectEnvelope(r, 403, 'AUTH_SCHEME_INVALID');
  });

  it('answers 401 without credentials and for unknown or malformed tokens', async () => {
    expectEnvelope(await call(service, VALIDATE, { body, token: null }), 401, 'AUTH_MISSING');
    const [, id] = service.token.split('_');
    expectEnvelope(await call(service, VALIDATE, { body, token: `einv_${id}_${'A'.repeat(43)}` }), 401, 'AUTH_INVALID');
    expectEnvelope(await call(service, VALIDATE, { body, token: 'einv_nope' }), 401, 'AUTH_INVALID');
  });

  it('refuses a bad token before reading a large body, well under a second', async () => {
    const big = JSON.stringify({ xinvoiceXML: 'x'.repeat(15 * 1024 * 1024) });
    const r = await call(service, VALIDATE, { raw: big, token: 'einv_x_y' });
    expectEnvelope(r, 401, 'AUTH_INVALID');
    expect(r.ms).toBeLessThan(1000);
  });

  it('stops accepting a token once it is revoked or rotated', async () => {
    const created = await cli('create-token', '--account', service.accountId, '--label', 'short-lived');
    expect((await call(service, VALIDATE, { body, token: created.token })).status).toBe(200);
    const rotated = await cli('rotate-token', '--token', created.tokenId);
    expectEnvelope(await call(service, VALIDATE, { body, token: created.token }), 401, 'AUTH_INVALID');
    expect((await call(service, VALIDATE, { body, token: rotated.token })).status).toBe(200);
    await cli('revoke-token', '--token', rotated.tokenId);
    expectEnvelope(await call(service, VALIDATE, { body, token: rotated.token }), 401, 'AUTH_INVALID');
  });
});
