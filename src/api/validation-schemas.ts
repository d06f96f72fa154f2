import { z } from 'zod';

/** How every endpoint reports validation findings and the rule versions behind them. */
export const findingSchema = z.object({
  ruleId: z.string(),
  severity: z
    .enum(['fatal', 'error', 'warning', 'information'])
    .meta({ description: "After the scenario's severity override (KoSIT's customLevel); error and fatal make the document invalid" }),
  originalSeverity: z.enum(['fatal', 'error', 'warning', 'information']).optional().meta({
    description: "The rule set's own severity, present only where the scenario changed it (e.g. BR-CL-23 error → warning for XRechnung)",
  }),
  message: z.string(),
  location: z.string().optional(),
  source: z.string().meta({
    description:
      "xml, xsd, en16931, xrechnung, profile (the Factur-X profile's XSD and rules) or input for the XML's findings; pdf for PDF/A, attachment, XMP and visible-text findings",
  }),
});

export const scenarioSchema = z
  .object({
    id: z.string(),
    name: z.string().meta({
      description:
        'As the KoSIT validator names it where it has the scenario, e.g. "EN16931 XRechnung (CII)", "EN16931 (UBL Invoice)"; else e.g. "Factur-X 1.0 / ZUGFeRD 2.x EN 16931 (CII)"',
    }),
    layers: z
      .array(z.string())
      .meta({ description: "The rule layers applied, named like the findings' source: xsd, en16931, xrechnung, profile" }),
  })
  .meta({
    description:
      'The scenario the XML was judged under, chosen by its root element and BT-24. Absent when none matches: the document is then invalid (finding SPECIFICATION-UNSUPPORTED names BT-24 and the supported identifiers)',
  });

export const artefactsSchema = z
  .array(z.object({ name: z.string(), version: z.string() }))
  .meta({ description: 'Validators and pinned rule versions that judged the document (XSD, schematrons, veraPDF)' });
