import { analyseOperation } from '../src/operations/analysis.js';
import { convertOperation } from '../src/operations/convert.js';
import { createXInvoiceOperation } from '../src/operations/xrechnung.js';
import type { SyntaxId } from '../src/xml/index.js';

/**
 * What a connector route can do with a file: a route's `operation`. Three are REST operations of
 * the same name; two are the connectors' own, each run by REST operations' workflows. A value,
 * but plain, so workflows may import it.
 */

/** A route's validation: XML by validateXinvoiceXml's workflow, a PDF by validateZugferdPdf's; its result is the report. */
export const VALIDATE = 'validate';
/** The invoice JSON a ZUGFeRD PDF carries, by extractXinvoiceFromZugferdToJson's workflow. */
export const EXTRACT_JSON = 'extractJSONFromZugferd';

export const CONNECTOR_OPERATIONS = [
  convertOperation.name,
  analyseOperation.name,
  VALIDATE,
  createXInvoiceOperation.name,
  EXTRACT_JSON,
] as const;
export type ConnectorOperation = (typeof CONNECTOR_OPERATIONS)[number];

export interface ConnectorOptions {
  syntax?: SyntaxId;
  withLineItems?: boolean;
}
