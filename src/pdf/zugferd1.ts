import type { Element, Node } from '@xmldom/xmldom';
import { parseUntrustedXml } from '../xml/dom.js';

/**
 * ZUGFeRD 1.0 (2014) predates EN 16931 and uses the older CrossIndustryDocument schema. Its
 * content is, element for element, the same as CII D16B's except for the names of the trade
 * groups and a few leaves, so a renaming pass turns it into CII that the one CII mapping reads.
 * Only extraction uses this; nothing is ever written as ZUGFeRD 1.0.
 */

const ZF1 = {
  rsm: 'urn:ferd:CrossIndustryDocument:invoice:1p0',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:12',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:15',
} as const;

const D16B: Readonly<Record<string, string>> = {
  rsm: 'urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100',
  ram: 'urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100',
  udt: 'urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100',
  qdt: 'urn:un:unece:uncefact:data:standard:QualifiedDataType:100',
};

const PREFIX_OF: Readonly<Record<string, keyof typeof D16B>> = { [ZF1.rsm]: 'rsm', [ZF1.ram]: 'ram', [ZF1.udt]: 'udt' };

/** ZUGFeRD 1.0 name → D16B name; the monetary summation depends on whether it is the header's or a line's. */
const RENAMES: Readonly<Record<string, string>> = {
  CrossIndustryDocument: 'CrossIndustryInvoice',
  SpecifiedExchangedDocumentContext: 'ExchangedDocumentContext',
  HeaderExchangedDocument: 'ExchangedDocument',
  SpecifiedSupplyChainTradeTransaction: 'SupplyChainTradeTransaction',
  ApplicableSupplyChainTradeAgreement: 'ApplicableHeaderTradeAgreement',
  ApplicableSupplyChainTradeDelivery: 'ApplicableHeaderTradeDelivery',
  ApplicableSupplyChainTradeSettlement: 'ApplicableHeaderTradeSettlement',
  SpecifiedSupplyChainTradeAgreement: 'SpecifiedLineTradeAgreement',
  SpecifiedSupplyChainTradeDelivery: 'SpecifiedLineTradeDelivery',
  SpecifiedSupplyChainTradeSettlement: 'SpecifiedLineTradeSettlement',
  ApplicablePercent: 'RateApplicablePercent',
};

function renamed(el: Element): string {
  const name = el.localName ?? el.nodeName;
  if (name === 'SpecifiedTradeSettlementMonetarySummation') {
    return (el.parentNode as Element | null)?.localName === 'SpecifiedSupplyChainTradeSettlement'
      ? 'SpecifiedTradeSettlementLineMonetarySummation'
      : 'SpecifiedTradeSettlementHeaderMonetarySummation';
  }
  // Referenced documents carry their number as ID in 1.0 and as IssuerAssignedID in D16B.
  if (name === 'ID' && /ReferencedDocument$/.test((el.parentNode as Element | null)?.localName ?? '')) return 'IssuerAssignedID';
  return RENAMES[name] ?? name;
}

/** ZUGFeRD 1.0 XML → equivalent CII D16B XML. Elements outside the ZUGFeRD 1.0 namespaces are dropped. */
export function migrateZugferd1(xml: string): string {
  const root = parseUntrustedXml(xml);
  if (root.namespaceURI !== ZF1.rsm) throw new Error('Not a ZUGFeRD 1.0 CrossIndustryDocument');
  const declarations = Object.entries(D16B)
    .map(([prefix, uri]) => ` xmlns:${prefix}="${uri}"`)
    .join('');
  return `<?xml version="1.0" encoding="UTF-8"?>\n${emit(root, declarations)}`;
}

/** ZUGFeRD 1.0 also allowed month (610) and week (616) dates; EN 16931 has only days, so they are left out. */
const isNonDayDate = (el: Element) => el.localName === 'DateTimeString' && (el.getAttribute('format') ?? '102') !== '102';

function emit(el: Element, declarations = ''): string {
  const prefix = PREFIX_OF[el.namespaceURI ?? ''];
  if (!prefix || isNonDayDate(el)) return '';
  const tag = `${prefix}:${renamed(el)}`;
  const attrs = Array.from(el.attributes)
    .filter((a) => !a.name.startsWith('xmlns') && !a.namespaceURI)
    .map((a) => ` ${a.name}="${escape(a.value)}"`)
    .join('');
  const children = Array.from(el.childNodes as ArrayLike<Node>);
  const elements = children.filter((n): n is Element => n.nodeType === 1);
  const content = elements.length > 0 ? elements.map((c) => emit(c)).join('') : escape(el.textContent ?? '');
  return `<${tag}${declarations}${attrs}>${content}</${tag}>`;
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}

/** ZUGFeRD 1.0 (and its release candidates) is recognised by its root namespace; its BT-24 values varied. */
export function isZugferd1(xml: string): boolean {
  try {
    return parseUntrustedXml(xml).namespaceURI === ZF1.rsm;
  } catch {
    return false;
  }
}

/** BT-24 of CII (any generation) or UBL, read without knowing which it is; undefined when absent or unreadable. */
export function guidelineOf(xml: string): string | undefined {
  let root: Element;
  try {
    root = parseUntrustedXml(xml);
  } catch {
    return undefined;
  }
  const child = (el: Element | undefined, name: string) =>
    el
      ? Array.from(el.childNodes as ArrayLike<Node>).find((n): n is Element => n.nodeType === 1 && (n as Element).localName === name)
      : undefined;
  const context = child(root, 'ExchangedDocumentContext') ?? child(root, 'SpecifiedExchangedDocumentContext');
  const id = child(child(context, 'GuidelineSpecifiedDocumentContextParameter'), 'ID') ?? child(root, 'CustomizationID');
  const value = id?.textContent?.trim();
  return value || undefined;
}
