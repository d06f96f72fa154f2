import { describe, expect, it } from 'vitest';
import { catalog } from '../../src/invoice/catalog.js';
import { ciiDocument } from '../../src/xml/cii.js';
import type { XmlDocument, XmlNode } from '../../src/xml/mapping.js';
import { ublCreditNoteDocument, ublInvoiceDocument } from '../../src/xml/ubl.js';

/** Every model path a description binds (element text or attribute), in catalogue form: `invoiceLine[].x`. */
function boundPaths(doc: XmlDocument): string[] {
  const out: string[] = [];
  const join = (base: string, path: string) => (path.startsWith('/') ? path.slice(1) : [base, path].filter(Boolean).join('.'));
  const catalogForm = (path: string) => path.replace(/\.(\d+)(?=\.|$)/g, '[]').replace(/\[\]$/, '');
  const walk = (node: XmlNode, base: string) => {
    const scope = node.each !== undefined ? `${join(base, node.each)}[]` : node.scope !== undefined ? join(base, node.scope) : base;
    if (node.path !== undefined) out.push(catalogForm(join(scope, node.path)));
    for (const spec of Object.values(node.attrs ?? {}))
      if (typeof spec === 'object' && 'path' in spec) out.push(catalogForm(join(scope, spec.path)));
    for (const child of node.children ?? []) walk(child, scope);
  };
  walk(doc.root, '');
  return out;
}

/** Catalogue paths no element of the syntax carries; a binding of a whole object (a codec) covers its fields. */
function unmapped(...docs: XmlDocument[]): string[] {
  const bound = docs.flatMap(boundPaths);
  return catalog
    .map((f) => f.path)
    .filter((path) => !bound.some((b) => path === b || path.startsWith(`${b}[].`) || path.startsWith(`${b}.`)));
}

describe('mapping coverage of the EN 16931 model', () => {
  it('CII carries every field', () => {
    expect(unmapped(ciiDocument)).toEqual([]);
  });

  it('UBL carries every field but the project name, which EN 16931 does not have (BT-11-0 is a CII extra)', () => {
    expect(unmapped(ublInvoiceDocument)).toEqual(['projectReference.projectReferenceName']);
    expect(unmapped(ublCreditNoteDocument)).toEqual(['projectReference.projectReferenceName']);
  });

  it('binds only paths the model has', () => {
    const known = new Set(catalog.map((f) => f.path));
    const groups = ['invoiceNote'];
    for (const doc of [ciiDocument, ublInvoiceDocument, ublCreditNoteDocument]) {
      expect(boundPaths(doc).filter((p) => !known.has(p) && !groups.includes(p))).toEqual([]);
    }
  });
});
