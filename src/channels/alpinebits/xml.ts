import { XMLBuilder, XMLParser, XMLValidator } from 'fast-xml-parser';

/**
 * AlpineBits messages in and out (OTA 2015A XML), read and written with fast-xml-parser. A
 * document type declaration is refused before anything is parsed: no DTD, so no entity can be
 * declared, and neither external entities (XXE) nor entity expansion (billion laughs) can reach the
 * parser. What remains are XML's five predefined entities and character references, decoded as
 * XML requires (fast-xml-parser never fetches anything).
 */

export class XmlRefused extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'XmlRefused';
  }
}

/** Elements that may repeat: always read as arrays, so one and many look alike. */
const REPEATED = new Set(['Inventory', 'InvCount', 'HotelReservation', 'Error', 'Warning', 'ReadRequests']);

const parser = new XMLParser({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  removeNSPrefix: true,
  parseTagValue: false,
  parseAttributeValue: false,
  processEntities: true,
  htmlEntities: false,
  trimValues: true,
  isArray: (name) => REPEATED.has(name),
});

// biome-ignore lint/suspicious/noExplicitAny: parsed XML is walked field by field, each checked where used
export type XmlNode = any;

/** The document's root element name and content; throws XmlRefused for a DTD or malformed XML. */
export function parseXml(text: string): { root: string; node: XmlNode } {
  if (/<!DOCTYPE|<!ENTITY/i.test(text)) {
    throw new XmlRefused('document type declarations and entities are not accepted');
  }
  const valid = XMLValidator.validate(text);
  if (valid !== true) {
    throw new XmlRefused(`the XML is not well-formed: ${valid.err.msg} (line ${valid.err.line})`);
  }
  const parsed = parser.parse(text) as Record<string, XmlNode>;
  const root = Object.keys(parsed).find((k) => !k.startsWith('?'));
  if (!root) throw new XmlRefused('the XML has no root element');
  return { root, node: parsed[root] ?? {} };
}

const builder = new XMLBuilder({
  ignoreAttributes: false,
  attributeNamePrefix: '@_',
  textNodeName: '#text',
  suppressEmptyNode: true,
  processEntities: true,
  format: false,
});

export const OTA_NAMESPACE = 'http://www.opentravel.org/OTA/2003/05';

/** A response document: `root` in the OTA namespace with `Version`, then `content` in order. */
export function buildXml(root: string, content: Record<string, unknown>, version = '1.000'): string {
  const body = builder.build({ [root]: { '@_xmlns': OTA_NAMESPACE, '@_Version': version, ...content } });
  return `<?xml version="1.0" encoding="UTF-8"?>\n${body}`;
}

/** Attribute `name` of a parsed node, as text (undefined when absent). */
export function attr(node: XmlNode, name: string): string | undefined {
  const value = node?.[`@_${name}`];
  return value === undefined ? undefined : String(value);
}

/** Children `name` of a parsed node as an array (none: empty). */
export function children(node: XmlNode, name: string): XmlNode[] {
  const value = node?.[name];
  if (value === undefined || value === '') return [];
  return Array.isArray(value) ? value : [value];
}

/** The text of a node that may carry attributes. */
export function text(node: XmlNode): string {
  if (node === undefined || node === null) return '';
  if (typeof node === 'object') return String(node['#text'] ?? '');
  return String(node);
}
