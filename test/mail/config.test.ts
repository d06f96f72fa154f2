import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('e-mail configuration', () => {
  it('writes to the outbox in the data dir when no SMTP server is configured', () => {
    const { mail } = loadConfig({ EINVOICE_DATA_DIR: '/srv/einvoice' });
    expect(mail).toEqual({ smtp: undefined, outboxDir: '/srv/einvoice/outbox', dkim: undefined, testFaults: [] });
  });

  it('reads SMTP_URL: implicit TLS for smtps, required STARTTLS for smtp, URL-encoded credentials, default ports', () => {
    expect(loadConfig({ SMTP_URL: 'smtps://user%40acme.example:p%40ss%3Aw%2Frd@mail.acme.example' }).mail.smtp).toEqual({
      host: 'mail.acme.example',
      port: 465,
      secure: true,
      requireTls: false,
      auth: { user: 'user@acme.example', pass: 'p@ss:w/rd' },
      caFile: undefined,
    });
    expect(loadConfig({ SMTP_URL: 'smtp://relay.internal', SMTP_CA_FILE: '/etc/ca.pem' }).mail.smtp).toEqual({
      host: 'relay.internal',
      port: 587,
      secure: false,
      requireTls: true,
      auth: undefined,
      caFile: '/etc/ca.pem',
    });
    expect(loadConfig({ SMTP_URL: 'smtp://127.0.0.1:2525', SMTP_REQUIRE_TLS: 'false' }).mail.smtp).toMatchObject({
      port: 2525,
      requireTls: false,
    });
  });

  it('takes DKIM settings all together or not at all, and only known test faults', () => {
    expect(loadConfig({ DKIM_DOMAIN: 'acme.example', DKIM_SELECTOR: 's1', DKIM_PRIVATE_KEY_FILE: '/k.pem' }).mail.dkim).toEqual({
      domainName: 'acme.example',
      keySelector: 's1',
      privateKeyFile: '/k.pem',
    });
    expect(loadConfig({ EINVOICE_TEST_FAULTS: 'mail-after-accept' }).mail.testFaults).toEqual(['mail-after-accept']);
    for (const [env, name] of [
      [{ SMTP_URL: 'http://mail.acme.example' }, 'SMTP_URL'],
      [{ SMTP_REQUIRE_TLS: 'yes' }, 'SMTP_REQUIRE_TLS'],
      [{ DKIM_DOMAIN: 'acme.example' }, 'DKIM_DOMAIN'],
      [{ EINVOICE_TEST_FAULTS: 'crash-everything' }, 'EINVOICE_TEST_FAULTS'],
    ] as const) {
      expect(() => loadConfig(env), name).toThrow(ConfigError);
      expect(() => loadConfig(env)).toThrow(name);
    }
  });
});
