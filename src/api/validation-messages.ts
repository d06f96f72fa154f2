import { z } from 'zod';
import { isErrorFinding as isError, type Finding, type ValidationReport } from '../validation/index.js';
import { lineLocator } from '../xml/locate.js';

/**
 * Findings in the item shape the RechnungsAPI client reads from validateXinvoiceXml
 * (`xInvoiceErrors`, `messages`): `{ type, message, location, schemaFile, id, line }`. The
 * answer keeps our `findings` as they are; these are the same findings, named the client's way.
 */

export const validationMessageSchema = z.object({
  type: z.enum(['error', 'warning', 'information']).meta({ description: 'fatal findings are errors' }),
  message: z.string(),
  location: z
    .string()
    .meta({ description: 'XPath of the element, line:column for parse errors; empty when the finding is about the whole document' }),
  schemaFile: z.string().meta({
    description:
      'The rule set and its version, e.g. "CEN EN 16931 schematron (CII) 1.3.15"; empty for checks before the rules (input, well-formedness)',
  }),
  id: z.string().meta({ description: 'The rule id, e.g. BR-CO-10' }),
  line: z.string().meta({ description: 'Line number in the document where known, else empty' }),
});

export type ValidationMessage = z.infer<typeof validationMessageSchema>;

/** The rule set a finding comes from: its source names the kind, the rule id tells a profile's XSD from its schematron. */
export function ruleSetOf(f: Finding, artefacts: ValidationReport['artefacts']): string {
  const matches = (name: string): boolean => {
    switch (f.source) {
      case 'xsd':
        return name.endsWith('XSD') && !name.startsWith('Factur-X');
      case 'en16931':
        return name.startsWith('CEN EN 16931');
      case 'xrechnung':
        return name.startsWith('XRechnung');
      case 'profile':
        return name.startsWith('Factur-X') && name.endsWith(f.ruleId.startsWith('PROFILE-XSD') ? 'XSD' : 'schematron');
      default:
        return false;
    }
  };
  const artefact = artefacts.find((a) => matches(a.name));
  return artefact ? `${artefact.name} ${artefact.version}` : '';
}

/** The line in the document sent of a finding's location (an XPath, or a parse error's line:column); '' where there is none. */
export function lineFinder(findings: readonly Finding[], xml: string): (location: string | undefined) => string {
  const locate = findings.some((f) => f.location?.startsWith('/')) ? lineLocator(xml) : undefined;
  return (location) => {
    if (!location) return '';
    const parseError = /^(\d+):\d+$/.exec(location);
    if (parseError) return parseError[1]!;
    const line = location.startsWith('/') ? locate?.(location) : undefined;
    return line === undefined ? '' : String(line);
  };
}

/** Errors (`xInvoiceErrors`) and the other findings (`messages`), so that the client, which lists both together, sees each finding once. */
export function validationMessages(
  report: ValidationReport,
  xml: string,
): { xInvoiceErrors: ValidationMessage[]; messages: ValidationMessage[] } {
  const lineOf = lineFinder(report.findings, xml);
  const toMessage = (f: Finding): ValidationMessage => ({
    type: isError(f) ? 'error' : f.severity === 'warning' ? 'warning' : 'information',
    message: f.message,
    location: f.location ?? '',
    schemaFile: ruleSetOf(f, report.artefacts),
    id: f.ruleId,
    line: lineOf(f.location),
  });
  return {
    xInvoiceErrors: report.findings.filter(isError).map(toMessage),
    messages: report.findings.filter((f) => !isError(f)).map(toMessage),
  };
}
