import type { RequestContext } from '../../context.ts';
import { ALPINEBITS_VERSION, type AlpineBitsAuthority } from './action.ts';
import { actionNamed } from './actions.ts';

/** One AlpineBits request as the HTTP layer read it (docs/api.md §9.2). */
export interface AlpineBitsRequest {
  /** `X-AlpineBits-ClientProtocolVersion`. */
  version: string | undefined;
  /** `X-AlpineBits-ClientID`. */
  clientId: string | undefined;
  action: string | undefined;
  request: string | undefined;
  auth: AlpineBitsAuthority;
}

/** The HTTP answer: status, media type and body (an XML document, or `ERROR:…` text). */
export interface AlpineBitsAnswer {
  status: number;
  contentType: string;
  body: string;
}

const XML = 'application/xml; charset=utf-8';
const TEXT = 'text/plain; charset=utf-8';

export const errorText = (status: number, message: string): AlpineBitsAnswer => ({
  status,
  contentType: TEXT,
  body: `ERROR:${message}`,
});

/**
 * Dispatches one request to its action in the registry (actions.ts). As AlpineBits 2 and 3.4 say:
 * an unknown or missing action, a version other than 2022-10 (the handshake excepted, which finds
 * the common version in its own data) or a missing `request` answer HTTP 400 with a body starting
 * `ERROR:`; an action the key's scopes do not allow answers 403 the same way.
 */
export async function answerAlpineBits(
  ctx: RequestContext,
  req: AlpineBitsRequest,
): Promise<AlpineBitsAnswer> {
  const definition = req.action ? actionNamed(req.action) : undefined;
  if (!definition) return errorText(400, 'unknown or missing action');
  const handshake = definition.action === 'OTA_Ping:Handshaking';
  if (!handshake && req.version !== ALPINEBITS_VERSION) {
    return errorText(
      400,
      `unsupported AlpineBits version "${req.version ?? ''}" (X-AlpineBits-ClientProtocolVersion): this server speaks ${ALPINEBITS_VERSION}`,
    );
  }
  if (definition.scope !== 'any' && !req.auth.scopes.includes(definition.scope)) {
    return errorText(
      403,
      `this operator key lacks the scope ${definition.scope} that ${definition.action} needs`,
    );
  }
  if (!req.request?.trim())
    return errorText(400, `the action ${definition.action} needs the parameter request`);
  const result = await definition.handle(ctx, {
    xml: req.request,
    clientId: req.clientId?.trim() || `key:${req.auth.keyId}`,
    auth: req.auth,
  });
  return result.status === 200
    ? { status: 200, contentType: XML, body: result.xml }
    : { status: result.status, contentType: TEXT, body: result.xml };
}
