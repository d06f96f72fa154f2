import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig } from '../../src/config.js';

describe('configuration from the environment', () => {
  it('gives the embedded defaults with nothing set', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      databaseUrl: undefined,
      http: { host: '127.0.0.1', port: 3000, v2Port: undefined, publicBaseUrl: 'http://127.0.0.1:3000' },
      temporal: { address: undefined, namespace: 'einvoice', taskQueue: 'einvoice', devPort: 7233, uiPort: 8233 },
      role: 'all',
    });
  });

  it('reads every problem at once, naming the variable', () => {
    try {
      loadConfig({ PORT: 'eighty', DATABASE_URL: 'mysql://x/y', SIGNING_SECRET: 'short', EINVOICE_ROLE: 'both' });
      expect.fail('accepted a bad configuration');
    } catch (err) {
      expect(err).toBeInstanceOf(ConfigError);
      const text = (err as ConfigError).message;
      for (const name of ['PORT', 'DATABASE_URL', 'SIGNING_SECRET', 'EINVOICE_ROLE']) expect(text).toContain(name);
    }
  });

  it('treats empty optional variables as unset and honours a cluster address', () => {
    const c = loadConfig({
      DATABASE_URL: '',
      V2_PORT: '',
      TEMPORAL_ADDRESS: 'temporal.internal:7233',
      PUBLIC_BASE_URL: 'https://einvoice.example.com/',
    });
    expect(c.databaseUrl).toBeUndefined();
    expect(c.http.v2Port).toBeUndefined();
    expect(c.temporal.address).toBe('temporal.internal:7233');
    expect(c.http.publicBaseUrl).toBe('https://einvoice.example.com');
  });
});
