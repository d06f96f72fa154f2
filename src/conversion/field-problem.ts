/** One problem with one input field; `bt` names the business term inside an invoice. */
export interface FieldProblem {
  field: string;
  bt?: string;
  message: string;
  /** What was read, when the problem is a value in conflict with another (a refusal FIELDS_UNCERTAIN of a conversion). */
  value?: string;
  /** The other readings found for the same field, when the analysis passed them: what a person may confirm instead. */
  candidates?: string[];
}
