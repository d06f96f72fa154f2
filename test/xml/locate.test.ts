import { describe, expect, it } from 'vitest';
import { lineLocator } from '../../src/xml/locate.js';

const XML = `<?xml version="1.0"?>
<rsm:Root xmlns:rsm="urn:r" xmlns:ram="urn:a">
  <ram:Line><ram:ID>1</ram:ID></ram:Line>
  <ram:Line>
    <ram:ID currency="EUR">2</ram:ID>
  </ram:Line>
</rsm:Root>`;

describe('lineLocator', () => {
  const line = lineLocator(XML)!;
  it('finds the line of a schematron path, a libxml2 path and an attribute', () => {
    expect(line("/*:Root[namespace-uri()='urn:r'][1]/*:Line[namespace-uri()='urn:a'][2]/*:ID[namespace-uri()='urn:a'][1]")).toBe(5);
    expect(line('/rsm:Root/ram:Line[1]/ram:ID')).toBe(3);
    expect(line('/rsm:Root/ram:Line[2]/ram:ID/@currency')).toBe(5);
  });
  it('has no line for what the document does not have, or for other expressions', () => {
    expect(line('/rsm:Root/ram:Line[3]')).toBeUndefined();
    expect(line('/rsm:Other')).toBeUndefined();
    expect(line('count(//x)')).toBeUndefined();
    expect(lineLocator('<x')).toBeUndefined();
  });
});
