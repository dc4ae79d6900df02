import { XmlRefused } from '../../infra/xml/safe-xml.ts';
import { type ActionDefinition, ALPINEBITS_VERSION } from './action.ts';
import { type ActionResult, ERROR_CODES, errorOutcome } from './responses.ts';
import { buildXml, children, parseXml, text } from './xml.ts';

/** `{ versions: [{ version, actions?: [{ action, supports? }] }] }`, the handshake's JSON (3.1). */
interface HandshakeData {
  versions: Array<{ version: string; actions?: Array<{ action: string; supports?: string[] }> }>;
}

function readHandshake(echo: string): HandshakeData | null {
  try {
    const data = JSON.parse(echo) as HandshakeData;
    if (!Array.isArray(data?.versions)) return null;
    return data;
  } catch {
    return null;
  }
}

/**
 * What both sides support: of the client's versions, ours; of its actions in that version, those
 * registered here, each with the capabilities both name (AlpineBits 3.2).
 */
export function intersect(client: HandshakeData, ours: readonly ActionDefinition[]): HandshakeData {
  const offered = new Map<string, readonly string[]>();
  for (const a of ours) if (a.handshakeName) offered.set(a.handshakeName, a.capabilities);
  const versions: HandshakeData['versions'] = [];
  for (const v of client.versions) {
    if (v?.version !== ALPINEBITS_VERSION) continue;
    const actions = (Array.isArray(v.actions) ? v.actions : [])
      .filter((a) => typeof a?.action === 'string' && offered.has(a.action))
      .map((a) => {
        const mine = offered.get(a.action) ?? [];
        const supports = (Array.isArray(a.supports) ? a.supports : []).filter((c) => mine.includes(c));
        return supports.length > 0 ? { action: a.action, supports } : { action: a.action };
      });
    versions.push({ version: ALPINEBITS_VERSION, actions });
  }
  return { versions };
}

/** Every action registered and its capabilities, as the handshake would list them all. */
export function advertised(ours: readonly ActionDefinition[]): HandshakeData {
  return {
    versions: [
      {
        version: ALPINEBITS_VERSION,
        actions: ours
          .filter((a) => a.handshakeName)
          .map((a) =>
            a.capabilities.length > 0
              ? { action: a.handshakeName as string, supports: [...a.capabilities] }
              : { action: a.handshakeName as string },
          ),
      },
    ],
  };
}

/**
 * `OTA_Ping:Handshaking` (AlpineBits 3): answers `OTA_PingRS` with the client's `EchoData`
 * unchanged and, in a `Warning` of type 11 with status `ALPINEBITS_HANDSHAKE`, the intersection of
 * what the client announced with what this server supports. The version is taken from the
 * handshake itself, not the header, so a client announcing several versions finds the common one.
 */
export function handshakeAction(registry: () => readonly ActionDefinition[]): ActionDefinition {
  return {
    action: 'OTA_Ping:Handshaking',
    handshakeName: 'action_OTA_Ping',
    capabilities: [],
    scope: 'any',
    async handle(_ctx, input): Promise<ActionResult> {
      let echo: string;
      try {
        const { root, node } = parseXml(input.xml);
        if (root !== 'OTA_PingRQ') {
          return {
            status: 400,
            xml: `ERROR:the request of OTA_Ping:Handshaking must be an OTA_PingRQ, not ${root}`,
          };
        }
        echo = text(children(node, 'EchoData')[0]);
      } catch (error) {
        if (error instanceof XmlRefused) return { status: 400, xml: `ERROR:${error.message}` };
        throw error;
      }
      const client = readHandshake(echo);
      if (!client) {
        return errorOutcome('OTA_PingRS', [
          {
            code: ERROR_CODES.unableToProcess,
            text: 'EchoData must hold the handshake JSON: {"versions": [...]}',
          },
        ]);
      }
      const common = intersect(client, registry());
      if (common.versions.length === 0) {
        return errorOutcome('OTA_PingRS', [
          {
            code: ERROR_CODES.unableToProcess,
            text: `no common AlpineBits version: this server speaks ${ALPINEBITS_VERSION} only`,
          },
        ]);
      }
      return {
        status: 200,
        xml: buildXml('OTA_PingRS', {
          Success: '',
          Warnings: {
            Warning: [
              { '@_Type': '11', '@_Status': 'ALPINEBITS_HANDSHAKE', '#text': JSON.stringify(common) },
            ],
          },
          EchoData: echo,
        }),
      };
    },
  };
}
