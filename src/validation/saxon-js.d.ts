// saxon-js ships no type declarations; this covers the part of its API that
// the schematron step uses (SaxonJS 2.x, Node build).
declare module 'saxon-js' {
  interface TransformOptions {
    stylesheetInternal: unknown;
    sourceText: string;
    destination: 'document' | 'serialized' | 'raw';
  }
  interface TransformResult {
    principalResult: unknown;
  }
  interface XPathOptions {
    namespaceContext?: Record<string, string>;
    resultForm?: 'default' | 'array' | 'iterator' | 'xdm';
  }
  const SaxonJS: {
    transform(options: TransformOptions, mode: 'sync'): TransformResult;
    XPath: { evaluate(xpath: string, context: unknown, options?: XPathOptions): unknown };
  };
  export default SaxonJS;
}
