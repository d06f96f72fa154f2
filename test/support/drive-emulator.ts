import { createServer, type IncomingMessage, type Server } from 'node:http';
import { buffer } from 'node:stream/consumers';
import { createApp } from 'google-drive-mock';
import { freePort } from '../../scripts/lib/spawn-service.js';

/**
 * The open-source Google Drive v3 emulator (npm google-drive-mock), in this
 * process on a loopback port: Google itself cannot be reached from test
 * machines. Its files live in a module-level store, so they survive a
 * stop/start of the HTTP server. It accepts the bearer token `valid-token`.
 */

export interface DriveEmulator {
  rootUrl: string;
  token: string;
  /**
   * OAuth credentials as a Google client file gives them (client id and secret, a refresh token),
   * with `token_uri` pointing at this emulator, whose token endpoint hands out its one access token:
   * what a connectors process configured with `credentials` uses to reach it.
   */
  oauthCredentials: string;
  start(): Promise<void>;
  stop(): Promise<void>;
}

const TOKEN = 'valid-token';

export async function startDriveEmulator(): Promise<DriveEmulator> {
  const app = createApp();
  // The emulator keeps a media upload's bytes only when its JSON or text body parser read them, so a
  // PDF uploaded as application/octet-stream would arrive empty. Reading such bodies here first keeps
  // them whole; its parsers skip a request whose body was read.
  const handler = async (req: IncomingMessage & { body?: Buffer; rawBody?: Buffer }, res: Parameters<typeof app>[1]) => {
    if (req.method === 'POST' && req.url === '/token') {
      await buffer(req);
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ access_token: TOKEN, token_type: 'Bearer', expires_in: 3600 }));
      return;
    }
    if (req.url?.startsWith('/upload/') && new URL(req.url, 'http://x').searchParams.get('uploadType') === 'media') {
      req.body = req.rawBody = await buffer(req);
    }
    app(req as Parameters<typeof app>[0], res);
  };
  const port = await freePort();
  let server: Server | undefined;
  const emulator: DriveEmulator = {
    rootUrl: `http://127.0.0.1:${port}/`,
    token: TOKEN,
    oauthCredentials: JSON.stringify({
      client_id: 'einvoice-test',
      client_secret: 'not-a-secret',
      refresh_token: 'refresh',
      token_uri: `http://127.0.0.1:${port}/token`,
    }),
    async start() {
      const listening = createServer((req, res) => void handler(req, res));
      await new Promise<void>((resolve, reject) => listening.once('error', reject).listen(port, '127.0.0.1', resolve));
      server = listening;
    },
    async stop() {
      const closing = server;
      server = undefined;
      if (!closing) return;
      closing.closeAllConnections();
      await new Promise((resolve) => closing.close(resolve));
    },
  };
  await emulator.start();
  return emulator;
}

/** A folder at the top of the emulator's drive, as a user would share with the connector. */
export async function createDriveFolder(emulator: DriveEmulator, name: string): Promise<string> {
  const res = await fetch(new URL('drive/v3/files', emulator.rootUrl), {
    method: 'POST',
    headers: { authorization: `Bearer ${emulator.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ name, mimeType: 'application/vnd.google-apps.folder' }),
  });
  if (!res.ok) throw new Error(`emulator refused to create folder ${name}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { id: string }).id;
}
