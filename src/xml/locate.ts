import type { Element, Node } from '@xmldom/xmldom';
import { parseUntrustedXml } from './dom.js';

/**
 * The line of the element a finding's XPath names, for reports that give line numbers. The
 * validators name places by path: the schematrons as `/*:Name[namespace-uri()='…'][n]/…`,
 * libxml2 as `/prefix:Name[n]/…`. Both are steps of local names with an optional position, so
 * one walk over the parsed document answers both; anything else (functions, axes) has no line.
 */

const STEP = /\/(@?)(?:(?:\*|[\w.-]+):)?([\w.-]+)((?:\[(?:'[^']*'|"[^"]*"|[^\]'"])*\])*)/y;

/** A reusable lookup over one document; undefined when the XML cannot be parsed. */
export function lineLocator(xml: string): ((xpath: string) => number | undefined) | undefined {
  let root: Element;
  try {
    root = parseUntrustedXml(xml);
  } catch {
    return undefined;
  }
  return (xpath) => lineOf(root, xpath);
}

function lineOf(root: Element, xpath: string): number | undefined {
  STEP.lastIndex = 0;
  let current: Element | undefined;
  let at = 0;
  while (at < xpath.length) {
    STEP.lastIndex = at;
    const m = STEP.exec(xpath);
    if (!m) return undefined;
    at = STEP.lastIndex;
    // An attribute is on the line of its element.
    if (m[1]) break;
    const name = m[2]!;
    const position = Number(/\[(\d+)\]$/.exec(m[3] ?? '')?.[1] ?? 1);
    if (!current) {
      if (root.localName !== name || position !== 1) return undefined;
      current = root;
      continue;
    }
    current = Array.from(current.childNodes as ArrayLike<Node>).filter(
      (n): n is Element => n.nodeType === 1 && (n as Element).localName === name,
    )[position - 1];
    if (!current) return undefined;
  }
  return current?.lineNumber ?? undefined;
}
