import type { XmlDocument } from 'libxml2-wasm';
import type { Syntax } from './types.js';

/**
 * Identifies the document from its root element, like the KoSIT validator's
 * scenario selection: the namespace and local name of the root decide which
 * schema and which rule bindings apply.
 */

export const NS = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  ublInvoice: 'urn:oasis:names:specification:ubl:schema:xsd:Invoice-2',
  ublCreditNote: 'urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2',
  cbc: 'urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2',
} as const;

export type RootKind = 'cii' | 'ubl-invoice' | 'ubl-creditnote';

export interface DetectedDocument {
  kind: RootKind;
  syntax: Syntax;
  documentType?: string;
  customization?: string;
}

export type DetectResult = { ok: true; document: DetectedDocument } | { ok: false; root: string };

// XPaths per root kind for BT-3 (invoice type code) and BT-24 (specification identifier).
const FIELDS: Record<RootKind, { typeCode: string; customization: string }> = {
  cii: {
    typeCode: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocument/ram:TypeCode',
    customization: '/rsm:CrossIndustryInvoice/rsm:ExchangedDocumentContext/ram:GuidelineSpecifiedDocumentContextParameter/ram:ID',
  },
  'ubl-invoice': { typeCode: '/inv:Invoice/cbc:InvoiceTypeCode', customization: '/inv:Invoice/cbc:CustomizationID' },
  'ubl-creditnote': { typeCode: '/cn:CreditNote/cbc:CreditNoteTypeCode', customization: '/cn:CreditNote/cbc:CustomizationID' },
};

const XPATH_NS = { rsm: NS.rsm, ram: NS.ram, inv: NS.ublInvoice, cn: NS.ublCreditNote, cbc: NS.cbc };

function rootKind(ns: string, name: string): RootKind | undefined {
  if (ns === NS.rsm && name === 'CrossIndustryInvoice') return 'cii';
  if (ns === NS.ublInvoice && name === 'Invoice') return 'ubl-invoice';
  if (ns === NS.ublCreditNote && name === 'CreditNote') return 'ubl-creditnote';
  return undefined;
}

function text(doc: XmlDocument, xpath: string, trim = true): string | undefined {
  const content = doc.get(xpath, XPATH_NS)?.content;
  const value = trim ? content?.trim() : content;
  return value === undefined || value.trim() === '' ? undefined : value;
}

export function detectDocument(doc: XmlDocument): DetectResult {
  const root = doc.root;
  const kind = rootKind(root.namespaceUri, root.name);
  if (!kind) return { ok: false, root: root.namespaceUri ? `{${root.namespaceUri}}${root.name}` : root.name };
  const documentType = text(doc, FIELDS[kind].typeCode);
  // Untrimmed: scenarios match BT-24 exactly, as KoSIT does.
  const customization = text(doc, FIELDS[kind].customization, false);
  return {
    ok: true,
    document: {
      kind,
      syntax: kind === 'cii' ? 'CII' : 'UBL',
      ...(documentType !== undefined ? { documentType } : {}),
      ...(customization !== undefined ? { customization } : {}),
    },
  };
}
