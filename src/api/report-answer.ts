import { pickLanguage } from '../report/language.js';
import { reportHtml } from '../report/html.js';
import { reportPdf } from '../report/pdf.js';
import { reportView, type ReportSubject } from '../report/validation-report.js';
import { preferredType } from './negotiate.js';
import { lineFinder, ruleSetOf } from './validation-messages.js';
import type { ParameterSpec, RequestInfo, RouteResult } from './route.js';

/** The validate endpoints answer their report for people when asked: `Accept: text/html` or `application/pdf`. */

export const REPORT_TYPES = ['application/json', 'text/html', 'application/pdf'] as const;

/** OpenAPI ignores an `Accept` header parameter; the response's content types document the choice. */
export const reportHeaders: Record<string, ParameterSpec> = {
  'Accept-Language': {
    description: "Language of the HTML and PDF report: de or en (default en); the findings quote the rule sets' own messages",
  },
};

export const REPORT_FORMATS_NOTE =
  ' Accept: text/html answers the report as a web page, Accept: application/pdf as a PDF/A-3b file (e.g. to send to the supplier); anything else JSON.';

export const reportAlternatives = {
  'text/html':
    "The report as a self-contained HTML page: verdict, document and scenario, findings grouped by validator with rule id, severity, message, business terms (BT) and location, and the validators' versions",
  'application/pdf': 'The same report as a PDF/A-3b document',
};

/**
 * The report as HTML or PDF when the request prefers one; undefined for JSON. With the XML that
 * was sent, each finding is placed on its line too.
 */
export async function reportAnswer(subject: ReportSubject, request: RequestInfo, xml?: string): Promise<RouteResult | undefined> {
  const type = preferredType(request.headers.accept, REPORT_TYPES);
  if (type === 'application/json') return undefined;
  const lineOf = xml === undefined ? undefined : lineFinder(subject.findings, xml);
  const findings = subject.findings.map((f) => {
    const line = lineOf?.(f.location);
    return { ...f, ...(line ? { line } : {}), ruleSet: ruleSetOf(f, subject.artefacts) };
  });
  const view = reportView({ ...subject, findings }, pickLanguage(undefined, request.headers['accept-language']));
  if (type === 'text/html')
    return { body: reportHtml(view), contentType: 'text/html; charset=utf-8', headers: { Vary: 'Accept, Accept-Language' } };
  return {
    body: Buffer.from(await reportPdf(view)),
    contentType: 'application/pdf',
    headers: { Vary: 'Accept, Accept-Language', 'Content-Disposition': `inline; filename="validation-report-${request.requestId}.pdf"` },
  };
}
