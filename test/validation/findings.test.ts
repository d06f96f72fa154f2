import { describe, expect, it } from 'vitest';
import { errorCount, isErrorFinding, isErrorSeverity, type Finding } from '../../src/validation/index.js';

const finding = (severity: Finding['severity']): Finding => ({ ruleId: 'BR-01', severity, message: '', source: 'en16931' });

describe('the one rule for what makes a document invalid', () => {
  it('counts error and fatal findings, never warnings or information', () => {
    expect(['fatal', 'error', 'warning', 'information'].map((s) => isErrorFinding(finding(s as Finding['severity'])))).toEqual([
      true,
      true,
      false,
      false,
    ]);
    expect(errorCount({ findings: [finding('fatal'), finding('warning'), finding('error'), finding('information')] })).toBe(2);
    expect(errorCount({ findings: [] })).toBe(0);
  });

  it("reads other tools' severities by the same rule", () => {
    expect(['error', 'fatal', 'notice', 'ERROR'].map(isErrorSeverity)).toEqual([true, true, false, false]);
  });
});
