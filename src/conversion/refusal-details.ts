import type { Finding, ValidationReport } from '../validation/index.js';
import type { FieldProblem } from './field-problem.js';
import type { OwnerLanguage } from './owner-texts.js';

/** What a refusal carries beyond its code and message (ApplicationFailure details): what to fix, and in whose words. */
export interface RefusalDetails {
  fields?: FieldProblem[];
  ruleCodes?: string[];
  /** For refusals a workflow raises itself (no activity to name). */
  stage?: string;
  /** The owner's language (de or en), for the userMessage and the e-mail. */
  language?: OwnerLanguage;
  /** What the owner of the invoice reads, in that language. */
  userMessage?: string;
  /** The analysis' confidence, for refusals after the analysis. */
  extractionConfidence?: number;
  /** The findings behind `ruleCodes` (one per rule) and the rule sets that made them, for explanations. */
  findings?: Finding[];
  artefacts?: ValidationReport['artefacts'];
}
