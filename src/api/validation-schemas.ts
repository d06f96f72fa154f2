import { z } from 'zod';

/** How every endpoint reports validation findings and the rule versions behind them. */
export const findingSchema = z.object({
  ruleId: z.string(),
  severity: z.enum(['fatal', 'error', 'warning', 'information']),
  message: z.string(),
  location: z.string().optional(),
  source: z.string().meta({ description: "xml, xsd, en16931, xrechnung or input for the XML's findings; pdf for PDF/A, attachment, XMP and visible-text findings" }),
});

export const artefactsSchema = z
  .array(z.object({ name: z.string(), version: z.string() }))
  .meta({ description: 'Validators and pinned rule versions that judged the document (XSD, schematrons, veraPDF)' });
