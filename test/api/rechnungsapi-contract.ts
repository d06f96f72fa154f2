/**
 * What the public RechnungsAPI TypeScript client (Rechnungsapi/rechnungsapi-sdk, MIT: src/client.ts,
 * src/types.ts, src/errors.ts) does on the wire, written down from its source so the contract
 * test can make exactly its requests and read exactly the fields it reads:
 *
 * - the gateway base URL gets one trailing slash and the path `api/v1/zugferd/<operation>`; the
 *   V2 base loses its trailing slashes and gets `/<operation>`;
 * - every POST carries `Content-Type: application/json` and `Authorization: Bearer <token>`, the
 *   status GET only the latter, with the job id URL-encoded into `?id=`;
 * - a 2xx answer is its JSON, or `{ success: true }` when the body is not JSON; HTTP 412 becomes a
 *   ValidationFailedError (`noOfMissingData`, `errorlist`, default 0 and []); any other status an
 *   error whose message is the first non-blank string of `message`, `error`, `error.userMessage`;
 * - validateXRechnungXml reads `isValid ?? valid`, `message`, `messages ?? errors ?? warnings`
 *   followed by `xInvoiceErrors`, and `details` with `xInvoiceErrors`;
 * - createZugferdFromPdf never throws: a 2xx application/pdf answer gives the PDF, the name from
 *   `filename="…"` (else `<input name without extension>-zugferd.pdf`) and `X-Zugferd-Reference`;
 *   anything else is `{ ok: false, status, body }` with the JSON body, or an UNKNOWN_ERROR body
 *   the client makes up when the answer is not JSON.
 *
 * The class has the client's constructor options and method names, so the README's example runs
 * against it unchanged but for its import.
 */

export class ClientError extends Error {
  constructor(
    message: string,
    readonly status: number,
    readonly body: unknown,
  ) {
    super(message);
    this.name = 'RechnungsApiError';
  }
}

export class MissingDataError extends ClientError {
  readonly noOfMissingData: number;
  readonly errorlist: unknown[];
  constructor(message: string, body: { noOfMissingData?: number; errorlist?: unknown[] }) {
    super(message, 412, body);
    this.name = 'ValidationFailedError';
    this.noOfMissingData = body.noOfMissingData ?? 0;
    this.errorlist = body.errorlist ?? [];
  }
}

export interface ClientOptions {
  apiToken: string;
  baseUrl?: string;
  v2BaseUrl?: string;
}

export interface ValidationMessage {
  type: string;
  message: string;
  location: string;
  schemaFile: string;
  id: string;
  line: string;
}

export type ConversionResult =
  { ok: true; pdfBase64: string; fileName: string; reference: string } | { ok: false; status: number; body: any };

/** The request a method sends, recorded for the test to compare with the client's. */
export interface SentRequest {
  method: 'GET' | 'POST';
  url: string;
  headers: Record<string, string>;
  body?: unknown;
}

/** First non-blank string among the three places the client looks for a reason. */
function reasonOf(data: any): string | undefined {
  return [data?.message, data?.error, data?.error?.userMessage].find((v): v is string => typeof v === 'string' && v.trim() !== '');
}

async function jsonOrNull(response: Response): Promise<any> {
  try {
    return await response.json();
  } catch {
    return null;
  }
}

export class RechnungsApiClient {
  private readonly gateway: string;
  private readonly v2: string;
  readonly sent: SentRequest[] = [];
  /** The response headers, in the order of `sent`, for what the client does not show (filename*). */
  readonly received: Headers[] = [];

  constructor(private readonly options: ClientOptions) {
    if (!options.apiToken) throw new Error('apiToken is required');
    const base = options.baseUrl ?? 'https://api.rechnungsapi.de/';
    this.gateway = base.endsWith('/') ? base : `${base}/`;
    this.v2 = (options.v2BaseUrl ?? 'https://api.v2.rechnungsapi.de').replace(/\/+$/, '');
  }

  createZugferdFromJson(invoice: unknown, invoicePdf64: string, options: { transport?: unknown } = {}) {
    return this.gatewayCall('createZugferdFromJson', {
      invoice,
      invoicePdf64,
      ...(options.transport ? { transport: options.transport } : {}),
    });
  }

  createXRechnungFromJson(invoice: unknown, options: { transport?: unknown } = {}) {
    return this.gatewayCall('createXinvoiceFromJson', { invoice, ...(options.transport ? { transport: options.transport } : {}) });
  }

  createZugferdPdf(invoicePdf64: string, xrechnungXml: string) {
    return this.gatewayCall('createZugferdPdfFromXinvoice', { invoicePdf64, xInvoiceXml: xrechnungXml });
  }

  extractXRechnungFromZugferd(zugferd64: string) {
    return this.gatewayCall('extractXinvoiceFromZugferdToJson', { zugferd64 });
  }

  async validateXRechnungXml(
    xml: string,
  ): Promise<{ isValid: boolean; message: string; messages: ValidationMessage[]; details: Record<string, unknown> }> {
    const r = (await this.gatewayCall('validateXinvoiceXml', { xinvoiceXML: xml })) as any;
    const errors = r.xInvoiceErrors ?? [];
    return {
      isValid: Boolean(r.isValid ?? r.valid ?? false),
      message: r.message ?? '',
      messages: [...(r.messages ?? r.errors ?? r.warnings ?? []), ...errors],
      details: { ...(r.details ?? {}), xInvoiceErrors: errors },
    };
  }

  validateZugferdPdf(zugferdFile64: string, options: { comparePDF2XML?: boolean } = {}) {
    return this.gatewayCall('validateZugferdPdf', { zugferdFile64, comparePDF2XML: options.comparePDF2XML ?? false });
  }

  analyzePdfInvoice(pdfInvoiceBase64: string) {
    return this.gatewayCall('createJSONFromAnalysedPdf', { pdfInvoiceBase64 });
  }

  analyzePdfInvoiceV2(pdfInvoiceBase64: string, withLineItems = false) {
    return this.v2Call('createJSONFromAnalysedPdf', { pdfInvoiceBase64, withLineItems });
  }

  analyzePdfInvoiceAsync(pdfInvoiceBase64: string, withLineItems?: boolean): Promise<any> {
    return this.v2Call('createJSONFromAnalysedPdfAsync', {
      pdfInvoiceBase64,
      ...(typeof withLineItems === 'boolean' ? { withLineItems } : {}),
    });
  }

  async getAnalysisStatus(jobId: string): Promise<any> {
    const response = await this.send({
      method: 'GET',
      url: `${this.v2}/rechnungsapi-invoice-async-status?id=${encodeURIComponent(jobId)}`,
      headers: this.auth(),
    });
    const data = await jsonOrNull(response);
    if (!response.ok) throw new ClientError(reasonOf(data) ?? `Status check failed with status ${response.status}`, response.status, data);
    return data;
  }

  async createZugferdFromPdf(pdfInvoiceBase64: string, fileName?: string): Promise<ConversionResult> {
    const response = await this.send({
      method: 'POST',
      url: `${this.v2}/createZugferdFromPdf`,
      headers: this.jsonHeaders(),
      body: { pdfInvoiceBase64, ...(fileName ? { fileName } : {}) },
    });
    const reference = response.headers.get('x-zugferd-reference') ?? '';
    if (response.ok && (response.headers.get('content-type') ?? '').startsWith('application/pdf')) {
      const named = /filename="([^"]+)"/.exec(response.headers.get('content-disposition') ?? '')?.[1];
      const pdfBase64 = Buffer.from(await response.arrayBuffer()).toString('base64');
      return { ok: true, pdfBase64, fileName: named ?? `${(fileName ?? 'invoice').replace(/\.[^.]+$/, '')}-zugferd.pdf`, reference };
    }
    const body = (await jsonOrNull(response)) ?? {
      success: false,
      error: {
        code: 'UNKNOWN_ERROR',
        stage: 'unknown',
        httpStatus: response.status,
        retryable: false,
        userMessage: 'The request could not be processed.',
        detail: '',
        reference,
      },
      email: { subject: '', text: '', html: '' },
    };
    return { ok: false, status: response.status, body };
  }

  // The 0.1.x names the client keeps as aliases.
  createXInvoiceFromJson(invoice: unknown, options: { transport?: unknown } = {}) {
    return this.createXRechnungFromJson(invoice, options);
  }

  extractXInvoiceFromZugferd(zugferd64: string) {
    return this.extractXRechnungFromZugferd(zugferd64);
  }

  validateXInvoiceXml(xml: string) {
    return this.validateXRechnungXml(xml);
  }

  private auth(): Record<string, string> {
    return { Authorization: `Bearer ${this.options.apiToken}` };
  }

  private jsonHeaders(): Record<string, string> {
    return { 'Content-Type': 'application/json', ...this.auth() };
  }

  private async send(request: SentRequest): Promise<Response> {
    this.sent.push(request);
    const response = await fetch(request.url, {
      method: request.method,
      headers: request.headers,
      ...(request.body !== undefined ? { body: JSON.stringify(request.body) } : {}),
    });
    this.received.push(response.headers);
    return response;
  }

  private gatewayCall(operation: string, body: unknown): Promise<unknown> {
    return this.post(`${this.gateway}api/v1/zugferd/${operation}`, body);
  }

  private v2Call(operation: string, body: unknown): Promise<unknown> {
    return this.post(`${this.v2}/${operation}`, body);
  }

  private async post(url: string, body: unknown): Promise<unknown> {
    const response = await this.send({ method: 'POST', url, headers: this.jsonHeaders(), body });
    const data = await jsonOrNull(response);
    if (response.ok) return data ?? { success: true };
    if (response.status === 412) throw new MissingDataError(reasonOf(data) ?? 'Data validation failed', data ?? {});
    throw new ClientError(reasonOf(data) ?? `API request failed with status: ${response.status}`, response.status, data);
  }
}
