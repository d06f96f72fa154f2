import type { Element } from '@xmldom/xmldom';
import { create } from 'xmlbuilder2';
import {
  PROFILES,
  textCodec,
  type AttrSpec,
  type Match,
  type MatchValue,
  type ModelObject,
  type Profile,
  type XmlDocument,
  type XmlNode,
} from './mapping.js';

/**
 * The one engine behind both syntaxes: it walks an XmlDocument description to turn a model
 * object into XML (xmlbuilder2) and a parsed DOM back into a model object (@xmldom/xmldom).
 * It knows nothing about invoices; everything syntax-specific lives in the descriptions.
 */

const XMLNS = 'http://www.w3.org/2000/xmlns/';

type XMLBuilder = ReturnType<typeof create>;

// ---------------------------------------------------------------------------------------
// Model paths

function segments(path: string): string[] {
  return path === '' ? [] : path.split('.');
}

function getIn(value: unknown, path: string): unknown {
  let current = value;
  for (const key of segments(path)) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return current;
}

function resolve(path: string, scope: unknown, root: unknown): unknown {
  return path.startsWith('/') ? getIn(root, path.slice(1)) : getIn(scope, path);
}

const isNumeric = (segment: string) => /^\d+$/.test(segment);

/** Walks to the container of the last segment, creating objects and arrays on the way. */
function containerFor(start: ModelObject, keys: string[]): Record<string, unknown> {
  let current: Record<string, unknown> = start;
  keys.slice(0, -1).forEach((key, i) => {
    const next = keys[i + 1]!;
    current[key] ??= isNumeric(next) ? [] : {};
    current = current[key] as Record<string, unknown>;
  });
  return current;
}

/** A scope that exists only once something is written into it, so absent groups stay absent. */
interface ScopeRef {
  get(): ModelObject | undefined;
  ensure(): ModelObject;
  /** Only for array items, which may be plain values (a string list) rather than objects. */
  replace?(value: unknown): void;
}

const fixedRef = (object: ModelObject): ScopeRef => ({ get: () => object, ensure: () => object });

function childRef(parent: ScopeRef, root: ScopeRef, path: string): ScopeRef {
  const [base, relative] = path.startsWith('/') ? [root, path.slice(1)] : [parent, path];
  return {
    get: () => getIn(base.get(), relative) as ModelObject | undefined,
    ensure: () => {
      const keys = segments(relative);
      if (keys.length === 0) return base.ensure();
      const container = containerFor(base.ensure(), keys);
      const last = keys[keys.length - 1]!;
      container[last] ??= {};
      return container[last] as ModelObject;
    },
  };
}

/** First value wins: alternative forms and repeated absolute bindings never overwrite. */
function setValue(scope: ScopeRef, root: ScopeRef, path: string, value: unknown): void {
  if (value === undefined) return;
  const [base, relative] = path.startsWith('/') ? [root, path.slice(1)] : [scope, path];
  const keys = segments(relative);
  if (keys.length > 0) {
    const container = containerFor(base.ensure(), keys);
    const last = keys[keys.length - 1]!;
    if (container[last] === undefined) container[last] = value;
  } else if (typeof value === 'object' && value !== null) {
    const target = base.ensure();
    for (const [key, v] of Object.entries(value)) if (target[key] === undefined && v !== undefined) target[key] = v;
  } else {
    base.replace?.(value);
  }
}

function pushValue(scope: ScopeRef, root: ScopeRef, path: string, value: unknown): void {
  const [base, relative] = path.startsWith('/') ? [root, path.slice(1)] : [scope, path];
  const keys = segments(relative);
  const container = containerFor(base.ensure(), keys);
  const last = keys[keys.length - 1]!;
  container[last] ??= [];
  (container[last] as unknown[]).push(value);
}

function isEmpty(value: unknown): boolean {
  return value === undefined || (typeof value === 'object' && value !== null && Object.keys(value).length === 0);
}

// ---------------------------------------------------------------------------------------
// Writing

interface Rendered {
  tag: string;
  attrs: Array<[string, string]>;
  text?: string;
  children: Rendered[];
  /** True when a model value (not only constants or placeholders) lies inside. */
  content: boolean;
}

interface WriteContext {
  root: ModelObject;
  maxRank: number;
  /** Position within the nearest repeated ancestor. */
  itemIndex: number;
}

const rank = (profile: Profile) => PROFILES.indexOf(profile);

function renderAttrs(specs: XmlNode['attrs'], value: unknown, scope: ModelObject, ctx: WriteContext): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const [name, spec] of Object.entries(specs ?? {})) {
    const v = attrValue(spec, value, scope, ctx);
    if (v !== undefined) out.push([name, v]);
  }
  return out;
}

function attrValue(spec: AttrSpec, value: unknown, scope: ModelObject, ctx: WriteContext): string | undefined {
  if (typeof spec === 'string') return spec;
  if ('path' in spec) {
    if (spec.firstItemOnly && ctx.itemIndex > 0) return undefined;
    const v = resolve(spec.path, scope, ctx.root);
    return typeof v === 'string' ? v : undefined;
  }
  return spec.derive(value, scope, ctx.root);
}

function render(node: XmlNode, scope: ModelObject, ctx: WriteContext, inherited: Profile): Rendered[] {
  const profile = node.profile ?? inherited;
  if (node.parseOnly || rank(profile) > ctx.maxRank || (node.firstItemOnly && ctx.itemIndex > 0)) return [];
  if (node.each !== undefined) {
    const items = resolve(node.each, scope, ctx.root);
    const list = Array.isArray(items) && items.length > 0 ? items : node.eachOrOnce ? [{}] : [];
    return list.flatMap((item, itemIndex) => renderOne(node, item as ModelObject, { ...ctx, itemIndex }, profile));
  }
  const inner = node.scope === undefined ? scope : ((resolve(node.scope, scope, ctx.root) ?? {}) as ModelObject);
  return renderOne(node, inner, ctx, profile);
}

function renderOne(node: XmlNode, scope: ModelObject, ctx: WriteContext, profile: Profile): Rendered[] {
  if (node.onlyWith && node.onlyWith.every((path) => resolve(path, scope, ctx.root) === undefined)) return [];
  if (node.value !== undefined)
    return [{ tag: node.tag, attrs: renderAttrs(node.attrs, node.value, scope, ctx), text: node.value, children: [], content: false }];
  if (node.path !== undefined) return renderLeaf(node, scope, ctx);
  const children = (node.children ?? []).flatMap((child) => render(child, scope, ctx, profile));
  const content = children.some((c) => c.content);
  if (!content && !node.required) return [];
  return [{ tag: node.tag, attrs: renderAttrs(node.attrs, undefined, scope, ctx), children, content }];
}

function renderLeaf(node: XmlNode, scope: ModelObject, ctx: WriteContext): Rendered[] {
  const value = resolve(node.path!, scope, ctx.root);
  const text = value === undefined ? undefined : (node.codec ?? textCodec).write(value);
  if (text !== undefined) return [{ tag: node.tag, attrs: renderAttrs(node.attrs, value, scope, ctx), text, children: [], content: true }];
  const fallback = typeof node.fallback === 'function' ? node.fallback(scope, ctx.root) : node.fallback;
  if (fallback === undefined) return [];
  return [{ tag: node.tag, attrs: renderAttrs(node.attrs, undefined, scope, ctx), text: fallback, children: [], content: false }];
}

function namespaceOf(doc: XmlDocument, tag: string): string {
  const colon = tag.indexOf(':');
  const prefix = colon < 0 ? '' : tag.slice(0, colon);
  const uri = doc.namespaces[prefix];
  if (uri === undefined) throw new Error(`No namespace declared for prefix '${prefix}' of ${tag}`);
  return uri;
}

/** XML 1.0 cannot carry C0 controls, lone surrogates or U+FFFE/U+FFFF: dropped, or no parser would accept the document. */
const NOT_XML = /[^\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]/gu;
const xmlText = (text: string) => text.replace(NOT_XML, '');

function emit(doc: XmlDocument, parent: XMLBuilder, element: Rendered): void {
  const node = parent.ele(namespaceOf(doc, element.tag), element.tag);
  for (const [name, value] of element.attrs) node.att(name, xmlText(value));
  if (element.text !== undefined) node.txt(xmlText(element.text));
  for (const child of element.children) emit(doc, node, child);
}

/** Serialises `model` as described by `doc`, leaving out every node above `maxProfile`. */
export function writeXml(doc: XmlDocument, model: ModelObject, maxProfile: Profile = 'EXTENDED'): string {
  const [root] = render({ ...doc.root, required: true }, model, { root: model, maxRank: rank(maxProfile), itemIndex: 0 }, 'MINIMUM');
  const xml = create({ version: '1.0', encoding: 'UTF-8' });
  const top = xml.ele(namespaceOf(doc, root!.tag), root!.tag);
  for (const [prefix, uri] of Object.entries(doc.namespaces)) top.att(XMLNS, prefix ? `xmlns:${prefix}` : 'xmlns', uri);
  for (const child of root!.children) emit(doc, top, child);
  return xml.end({ prettyPrint: true });
}

// ---------------------------------------------------------------------------------------
// Parsing

interface ParseContext {
  doc: XmlDocument;
  root: ScopeRef;
}

function localName(tag: string): string {
  return tag.slice(tag.indexOf(':') + 1);
}

function childElements(parent: Element, ctx: ParseContext, tag: string): Element[] {
  const uri = namespaceOf(ctx.doc, tag);
  const name = localName(tag);
  const out: Element[] = [];
  for (let n = parent.firstChild; n; n = n.nextSibling) {
    if (n.nodeType === 1 && (n as Element).localName === name && (n as Element).namespaceURI === uri) out.push(n as Element);
  }
  return out;
}

function textOf(element: Element): string | undefined {
  const text = (element.textContent ?? '').trim();
  return text === '' ? undefined : text;
}

function probe(element: Element, match: Match, ctx: ParseContext): string | undefined {
  let target: Element | undefined = element;
  for (const tag of match.child ? match.child.split('/') : []) target = target ? childElements(target, ctx, tag)[0] : undefined;
  if (!target) return undefined;
  return match.attr ? (target.getAttribute(match.attr) ?? undefined) : textOf(target);
}

function matchValues(values: readonly MatchValue[] | undefined, scope: ScopeRef, ctx: ParseContext): string[] {
  return (values ?? []).flatMap((v) => {
    const resolved = typeof v === 'string' ? v : resolve(v.path, scope.get(), ctx.root.get());
    return typeof resolved === 'string' ? [resolved] : [];
  });
}

function matches(element: Element, match: Match | undefined, scope: ScopeRef, ctx: ParseContext): boolean {
  if (!match) return true;
  const value = probe(element, match, ctx);
  if (match.in && (value === undefined || !matchValues(match.in, scope, ctx).includes(value))) return false;
  if (match.notIn && value !== undefined && matchValues(match.notIn, scope, ctx).includes(value)) return false;
  return true;
}

function leafValue(node: XmlNode, element: Element): unknown {
  const text = textOf(element);
  if (text === undefined || text === node.fallback) return undefined;
  return (node.codec ?? textCodec).parse(text, (name) => element.getAttribute(name) ?? undefined);
}

function readAttrs(node: XmlNode, element: Element, scope: ScopeRef, ctx: ParseContext): void {
  for (const [name, spec] of Object.entries(node.attrs ?? {})) {
    if (typeof spec === 'object' && 'path' in spec) setValue(scope, ctx.root, spec.path, element.getAttribute(name) || undefined);
  }
}

function parseChildren(node: XmlNode, element: Element, scope: ScopeRef, ctx: ParseContext): void {
  for (const child of node.children ?? []) {
    if (child.value !== undefined) continue;
    const found = childElements(element, ctx, child.tag).filter((e) => matches(e, child.match, scope, ctx));
    if (child.each !== undefined) {
      for (const e of found) {
        const item = parseItem(child, e, ctx);
        if (!isEmpty(item)) pushValue(scope, ctx.root, child.each, item);
      }
    } else if (found[0]) {
      parseElement(child, found[0], child.scope === undefined ? scope : childRef(scope, ctx.root, child.scope), ctx);
    }
  }
}

function parseItem(node: XmlNode, element: Element, ctx: ParseContext): unknown {
  let item: unknown;
  const ref: ScopeRef = {
    get: () => item as ModelObject | undefined,
    ensure: () => (item ??= {}) as ModelObject,
    replace: (value) => (item ??= value),
  };
  parseElement(node, element, ref, ctx);
  return item;
}

function parseElement(node: XmlNode, element: Element, scope: ScopeRef, ctx: ParseContext): void {
  readAttrs(node, element, scope, ctx);
  if (node.path !== undefined) setValue(scope, ctx.root, node.path, leafValue(node, element));
  else parseChildren(node, element, scope, ctx);
}

/** True when `element` is the root element `doc` describes. */
export function describesRoot(doc: XmlDocument, element: Element): boolean {
  return element.localName === localName(doc.root.tag) && element.namespaceURI === namespaceOf(doc, doc.root.tag);
}

/** Reads the model object out of a root element that `describesRoot(doc, ...)` accepted. */
export function parseXml(doc: XmlDocument, element: Element): ModelObject {
  const model: ModelObject = {};
  const root = fixedRef(model);
  parseElement(doc.root, element, root, { doc, root });
  return model;
}
