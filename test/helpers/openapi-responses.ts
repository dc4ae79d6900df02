/**
 * Checks every answer a test receives against the service's own OpenAPI document: its status must
 * be documented for the operation, its JSON body must match the documented schema for that status
 * and media type, and it must carry every header documented as required (X-Request-Id, ETag, …). `startTestApp` wires it into `inject`, so
 * the whole HTTP suite doubles as a contract test of the document (issue 13).
 * Answers to paths the document does not describe (unknown routes, pages, /docs assets) are skipped.
 */
import { Ajv2020, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FastifyInstance } from 'fastify';

type Doc = { paths: Record<string, Record<string, { responses?: Record<string, ResponseDoc> }>> };
type ResponseDoc = {
  content?: Record<string, { schema?: unknown }>;
  headers?: Record<string, { required?: boolean }>;
};

export interface ResponseCheck {
  method: string;
  url: string;
  status: number;
  contentType: string | undefined;
  headers: Record<string, unknown>;
  body: string;
}

const pointer = (s: string) => s.replaceAll('~', '~0').replaceAll('/', '~1');

interface CompiledDocument {
  doc: Doc;
  ajv: Ajv2020;
  templates: { template: string; pattern: RegExp }[];
  validators: Map<string, ValidateFunction>;
}

// The apps of one test file mostly describe themselves with the same document: its Ajv and the
// validators compiled from it are kept per document text, so each further app compiles nothing.
const compiledDocuments = new Map<string, CompiledDocument>();

function compiledDocument(app: FastifyInstance): CompiledDocument {
  const doc = app.swagger() as unknown as Doc;
  const key = JSON.stringify(doc);
  let compiled = compiledDocuments.get(key);
  if (!compiled) {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats.default(ajv);
    ajv.addSchema(doc as object, 'openapi');
    const templates = Object.keys(doc.paths).map((template) => ({
      template,
      pattern: new RegExp(`^${template.replace(/\{[^}]+\}/g, '[^/]+').replaceAll('.', '\\.')}$`),
    }));
    compiled = { doc, ajv, templates, validators: new Map() };
    compiledDocuments.set(key, compiled);
  }
  return compiled;
}

export function openApiResponseChecker(app: FastifyInstance): (res: ResponseCheck) => void {
  let compiled: CompiledDocument | undefined;

  return (res) => {
    compiled ??= compiledDocument(app);
    const { doc: document, ajv, templates, validators } = compiled;
    const path = res.url.split('?')[0] ?? '';
    const method = res.method.toLowerCase();
    const found = templates.find((t) => t.pattern.test(path) && document.paths[t.template]?.[method]);
    if (!found) return;
    const where = `${res.method} ${found.template} → ${res.status}`;
    if (res.headers['x-request-id'] === undefined) throw new Error(`${where}: no X-Request-Id`);
    // 405 and the HTTP parser's refusals are answered before any route, for any path.
    if ([405, 408, 431].includes(res.status) || res.status === 304) return;
    const responses = document.paths[found.template]?.[method]?.responses ?? {};
    const declared = responses[String(res.status)] ?? responses.default;
    if (!declared) {
      throw new Error(`${where}: status not documented (documented: ${Object.keys(responses).join(', ')})`);
    }
    for (const [name, spec] of Object.entries(declared.headers ?? {})) {
      if (spec.required && res.headers[name.toLowerCase()] === undefined)
        throw new Error(`${where}: documented header ${name} missing`);
    }
    if (res.body === '' || !res.contentType) return;
    const mediaType = res.contentType.split(';')[0]?.trim() ?? '';
    if (!/json$/.test(mediaType)) return;
    const media = declared.content?.[mediaType];
    if (!media?.schema) {
      throw new Error(`${where}: ${mediaType} not documented for this status`);
    }
    const ref = `openapi#/paths/${pointer(found.template)}/${method}/responses/${res.status in responses ? res.status : 'default'}/content/${pointer(mediaType)}/schema`;
    let validate = validators.get(ref);
    if (!validate) {
      validate = ajv.compile({ $ref: ref });
      validators.set(ref, validate);
    }
    if (!validate(JSON.parse(res.body))) {
      throw new Error(
        `${where}: body does not match the documented schema: ${ajv.errorsText(validate.errors)}\n${res.body.slice(0, 500)}`,
      );
    }
  };
}
