/**
 * The description language of the XML syntaxes: one ordered tree per document type that
 * says, element by element in XSD sequence order, which model path each leaf binds to and
 * how its text converts. The engine (engine.ts) walks the same tree to write and to parse,
 * so the two directions cannot drift apart.
 *
 * Paths are dotted model paths relative to the current scope (`seller.sellerPostalAddress.sellerCity`);
 * a leading `/` makes them absolute from the invoice root, numeric segments index arrays
 * (`lineVatInformation.0.invoicedItemVatRate`) and the empty path is the scope itself.
 */

/** Factur-X / ZUGFeRD profiles, lowest first; a node carries the lowest one whose XSD allows it. */
export const PROFILES = ['MINIMUM', 'BASICWL', 'BASIC', 'EN16931', 'EXTENDED'] as const;
export type Profile = (typeof PROFILES)[number];

export type ModelObject = Record<string, unknown>;

/** Converts between a model value and element text. */
export interface Codec {
  /** Model value to text; undefined when there is nothing to write. */
  write(value: unknown): string | undefined;
  /** Element text (trimmed, never empty) and its attributes to the model value. */
  parse(text: string, attr: (name: string) => string | undefined): unknown;
}

/**
 * An attribute: a constant, a model path (read and written), or a value derived on writing
 * from the element's value, its scope and the root (ignored when parsing: the model keeps
 * the information elsewhere or cannot hold it).
 */
export type AttrSpec =
  | string
  | { path: string; firstItemOnly?: boolean }
  | { derive: (value: unknown, scope: ModelObject, root: ModelObject) => string | undefined };

/** A literal, or the model value at a path (resolved like any path; absent values drop out). */
export type MatchValue = string | { path: string };

/**
 * Parsing selects, among same-named siblings, those whose probe value (the text or attribute
 * of a descendant, or of the element itself) is in `in` / not in `notIn`. Writing ignores
 * it: constants and attributes of the node produce what the probe later finds.
 */
export interface Match {
  /** Slash-separated descendant tags; the element itself when absent. */
  child?: string;
  attr?: string;
  in?: readonly MatchValue[];
  notIn?: readonly MatchValue[];
}

export interface XmlNode {
  /** Qualified name, `prefix:Local` (no prefix for the default namespace). */
  tag: string;
  /** Lowest profile allowing the node; children inherit it. */
  profile?: Profile;
  children?: readonly XmlNode[];
  /** Leaf: the model path of the element's text. */
  path?: string;
  /** Leaf: constant text; it never makes its parent worth writing and is not read back. */
  value?: string;
  codec?: Codec;
  attrs?: Readonly<Record<string, AttrSpec>>;
  /** Object path that becomes the scope of the children. */
  scope?: string;
  /** Repeat the element for every item of the array at this path; the item becomes the scope. */
  each?: string;
  /** With `each`: an empty or absent array still yields one element (its content then comes from outer paths). */
  eachOrOnce?: boolean;
  /** Inside a repeated element: written in the first repetition only (values that may occur once per document). */
  firstItemOnly?: boolean;
  match?: Match;
  /** Written even when nothing inside is bound to a value (XSD-mandatory containers). */
  required?: boolean;
  /** Written only when the model has a value at one of these paths (relative to the scope). */
  onlyWith?: readonly string[];
  /** Read but never written: an alternative form other producers use. */
  parseOnly?: boolean;
  /**
   * Text written when the leaf's path is empty but its parent is written anyway (mandatory
   * elements). A constant fallback is a placeholder and is dropped again when parsing.
   */
  fallback?: string | ((scope: ModelObject, root: ModelObject) => string | undefined);
}

export interface XmlDocument {
  /** Prefix to namespace URI; the empty prefix is the default namespace. */
  namespaces: Readonly<Record<string, string>>;
  root: XmlNode;
}

// Small constructors keep the descriptions readable as one tree.

type Options = Omit<XmlNode, 'tag' | 'children' | 'path' | 'value'>;

export const leaf = (tag: string, path: string, options: Options = {}): XmlNode => ({ tag, path, ...options });

export const constant = (tag: string, value: string, options: Options = {}): XmlNode => ({ tag, value, ...options });

export const group = (tag: string, children: readonly XmlNode[], options: Options = {}): XmlNode => ({
  tag,
  children,
  ...options,
});

export const textCodec: Codec = {
  write: (value) => (typeof value === 'string' ? value : undefined),
  parse: (text) => text,
};
