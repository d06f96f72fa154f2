import { describe, expect, it } from 'vitest';
import * as fileOperation from '../../connectors/file-operation.js';
import * as watchOperation from '../../connectors/watch-operation.js';
import { connectorActivities, type ConnectorDeps } from '../../activities/connectors.js';
import { createActivities, type ActivityDeps } from '../../activities/index.js';
import * as analysis from '../../src/operations/analysis.js';
import * as convert from '../../src/operations/convert.js';
import * as mail from '../../src/operations/mail.js';
import type { Operation } from '../../src/operations/operation.js';
import * as render from '../../src/operations/render.js';
import * as retention from '../../src/operations/retention.js';
import * as xrechnung from '../../src/operations/xrechnung.js';
import * as zugferd from '../../src/operations/zugferd.js';
import * as workflows from '../../workflows/index.js';

const modules = [analysis, convert, mail, render, retention, xrechnung, zugferd, fileOperation, watchOperation];
const definitions = modules.flatMap((m) => Object.values(m).filter((v): v is Operation => typeof v === 'object' && 'workflowType' in v));

describe('operation definitions', () => {
  it('finds every definition', () => {
    expect(definitions.map((d) => d.name).sort()).toEqual(
      [
        'connectorFile',
        'createInvoicePdfFromJson',
        'createJSONFromAnalysedPdf',
        'createJSONFromAnalysedPdfAsync',
        'createJSONFromAnalysedPdfV1',
        'createXinvoiceFromJson',
        'createZugferdFromJson',
        'createZugferdFromPdf',
        'createZugferdPdfFromXinvoice',
        'deliverMail',
        'delivery',
        'extractXinvoiceFromZugferdToJson',
        'resendEmail',
        'retention',
        'validateXinvoiceXml',
        'validateZugferdPdf',
        'watchRoute',
      ].sort(),
    );
  });

  // Jobs start workflows by this name; Temporal records it as the type that histories in flight replay by.
  it.each(definitions.map((d) => [d.name, d.workflowType]))('%s runs the bundled workflow %s', (_, type) => {
    const bundled = (workflows as Record<string, unknown>)[type];
    expect(typeof bundled).toBe('function');
    expect((bundled as () => unknown).name).toBe(type);
  });

  it('times only steps that are activities of the worker or the connector processes', () => {
    const activities = new Set([
      ...Object.keys(createActivities({} as ActivityDeps)),
      ...Object.keys(connectorActivities({} as ConnectorDeps)),
    ]);
    const unknown = definitions.flatMap((d) =>
      Object.keys(d.steps)
        .filter((step) => !activities.has(step))
        .map((s) => `${d.name}.${s}`),
    );
    expect(unknown).toEqual([]);
  });
});
