import { type X2jOptions, XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * XML from outside (AlpineBits messages), read with fast-xml-parser. A document type declaration
 * is refused before anything is parsed: no DTD, so no entity can be declared, and neither external
 * entities (XXE) nor entity expansion (billion laughs) can reach the parser. What remains are XML's
 * five predefined entities and character references, decoded as XML requires (fast-xml-parser
 * never fetches anything). Tag and attribute values stay text: each reader checks its own.
 */
export class XmlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlRefused';
  }
}

export interface SafeXmlOptions {
  /** Elements that may repeat: always read as arrays, so one and many look alike. */
  repeated: ReadonlySet<string>;
  /** What attribute names are prefixed with in the result (`@_`, or nothing). */
  attributePrefix: string;
  trimValues?: boolean;
}

/**
 * Whatever the validator or the parser throws while reading a document comes from the document
 * (a reserved name such as `__proto__` or `constructor`, nesting deeper than the parser allows, a
 * stack exhausted by it): the sender's fault, refused as XmlRefused, never an internal error.
 */
function unreadable(error: unknown): XmlRefused {
  const reason = error instanceof Error ? error.message : String(error);
  return new XmlRefused(`the XML cannot be read: ${reason.replace(/^\[SECURITY\]\s*/, '').slice(0, 200)}`);
}

/** A reader of untrusted XML: `read` answers the parsed document or throws XmlRefused. */
export function safeXmlReader(options: SafeXmlOptions): (text: string) => Record<string, unknown> {
  const settings: Partial<X2jOptions> = {
    ignoreAttributes: false,
    attributeNamePrefix: options.attributePrefix,
    removeNSPrefix: true,
    parseTagValue: false,
    parseAttributeValue: false,
    processEntities: true,
    htmlEntities: false,
    trimValues: options.trimValues ?? true,
    isArray: (name) => options.repeated.has(name),
  };
  const parser = new XMLParser(settings);
  return (text) => {
    if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
      throw new XmlRefused('document type declarations and entities are not accepted');
    }
    let valid: ReturnType<typeof XMLValidator.validate>;
    try {
      valid = XMLValidator.validate(text);
    } catch (error) {
      throw unreadable(error);
    }
    if (valid !== true) {
      throw new XmlRefused(`the XML is not well-formed: ${valid.err.msg} (line ${valid.err.line})`);
    }
    try {
      return parser.parse(text) as Record<string, unknown>;
    } catch (error) {
      throw unreadable(error);
    }
  };
}
