import { XMLBuilder } from 'fast-xml-parser';
import { safeXmlReader, XmlRefused } from '../../infra/xml/safe-xml.ts';

/**
 * AlpineBits messages in and out (OTA 2015A XML): read by infra/xml's reader (no DTD, so no XXE
 * and no entity expansion), written with fast-xml-parser's builder.
 */

/** Elements that may repeat: always read as arrays, so one and many look alike. */
const REPEATED = new Set(['Inventory', 'InvCount', 'HotelReservation', 'Error', 'Warning', 'ReadRequests']);

const read = safeXmlReader({ repeated: REPEATED, attributePrefix: '@_' });

// biome-ignore lint/suspicious/noExplicitAny: parsed XML is walked field by field, each checked where used
export type XmlNode = any;

/** The document's root element name and content; throws XmlRefused for a DTD or malformed XML. */
export function parseXml(text: string): { root: string; node: XmlNode } {
  const parsed = read(text) as Record<string, XmlNode>;
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
