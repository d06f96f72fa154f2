import { pino } from 'pino';
import { ConfigError, loadConfig } from './config.js';
import { startService } from './service.js';

let config;
try {
  config = loadConfig();
} catch (err) {
  if (!(err instanceof ConfigError)) throw err;
  console.error(err.message);
  process.exit(78); // EX_CONFIG
}

const log = pino({ level: config.logLevel });
const service = await startService(config, log).catch((err: unknown) => {
  log.fatal({ err }, 'service failed to start');
  process.exit(1);
});

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    log.info({ signal }, 'shutting down');
    service.stop().then(
      () => process.exit(0),
      (err: unknown) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  });
}
