// Real traffic against the OpenAPI document, as Prism's proxy checks it (docs/decisions.md#the-openapi-document-is-true-to-the-service):
// a recording proxy in front of the app (trafficProxy) keeps each request and answer as they went over the
// wire, and OpenApiCheck finds where the document and the service disagree. Each request is checked as the
// document describes it (the route, its path and query parameters, a credential it names, the media type
// and the body's schema) and each answer too (a documented status, its required headers and their values,
// the media type and the body's schema), with ajv's JSON Schema 2020-12, the dialect of OpenAPI 3.1. They
// disagree when the service took (2xx) a request the document refuses, when an answer is not as documented,
// and on a 500 (a 503 is a documented answer: unavailable, or health that is not ready).
import { createServer, request as httpRequest, type IncomingHttpHeaders, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import type { CreatedWorkspace } from '@app/workspaces';
import type { TestApp } from '../harness';

type Schema = Record<string, any>;

export interface Exchange {
  method: string;
  /** The path and query string, as sent. */
  url: string;
  requestHeaders: IncomingHttpHeaders;
  requestBody: Buffer;
  status: number;
  responseHeaders: IncomingHttpHeaders;
  responseBody: Buffer;
}

export interface Verdict {
  /** "METHOD /template" of the operation the request names, or null for none. */
  operation: string | null;
  request: string[];
  response: string[];
  /** Why the document and the service disagree here; empty when they agree. */
  disagreements: string[];
}

interface Route {
  method: string;
  template: string;
  pattern: RegExp;
  names: string[];
  operation: Schema;
}

const BASE = 'https://openapi.check/document.json';

const mediaOf = (type: string | string[] | undefined) =>
  String(type ?? '')
    .split(';')[0]
    .trim()
    .toLowerCase();
const isJson = (media: string) => media === 'application/json' || media.endsWith('+json');

export class OpenApiCheck {
  private readonly ajv: Ajv2020;
  private readonly routes: Route[] = [];
  private readonly compiled = new Map<string, ValidateFunction>();
  private readonly doc: Schema;

  constructor(document: Schema) {
    // Every reference absolute, so a schema written inside an operation resolves as one in components does.
    this.doc = JSON.parse(JSON.stringify(document).replaceAll('"#/components/', `"${BASE}#/components/`));
    this.ajv = new Ajv2020({ strict: false, allErrors: true, logger: false });
    addFormats(this.ajv);
    this.ajv.addSchema({ $id: BASE, components: this.doc.components });
    for (const [template, operations] of Object.entries(this.doc.paths as Record<string, Record<string, Schema>>)) {
      const names: string[] = [];
      const source = template
        .split(/(\{\w+\})/)
        .map((part) => {
          const name = /^\{(\w+)\}$/.exec(part)?.[1];
          if (!name) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
          names.push(name);
          return '([^/]+)';
        })
        .join('');
      for (const [method, operation] of Object.entries(operations))
        this.routes.push({
          method: method.toUpperCase(),
          template,
          pattern: new RegExp(`^${source}$`),
          names,
          operation,
        });
    }
    // The most literal template first: /api/in/{publicKey}/track.js before /api/in/{publicKey}/{action}.
    this.routes.sort((a, b) => a.names.length - b.names.length);
  }

  /** Every operation of the document, as "METHOD /template". */
  get operations(): string[] {
    return this.routes.map((route) => `${route.method} ${route.template}`);
  }

  check(exchange: Exchange): Verdict {
    const url = new URL(exchange.url, 'http://service');
    const path = url.pathname;
    let params: string[] | null = null;
    const route = this.routes.find((r) => r.method === exchange.method && (params = r.pattern.exec(path)) !== null);
    if (!route || !params)
      return {
        operation: null,
        request: [],
        response: [],
        disagreements: [`${exchange.method} ${path}: the document has no such operation`],
      };
    const matched = (params as string[]).slice(1).map(decodeURIComponent);
    const request = this.checkRequest(route, matched, url.searchParams, exchange);
    const response = this.checkResponse(route.operation, exchange);
    const disagreements = [...response];
    if (request.length && exchange.status < 300)
      disagreements.push(`the service took (${exchange.status}) what the document refuses: ${request.join('; ')}`);
    if (exchange.status === 500) disagreements.push('the service failed: 500 server_error, never a right answer');
    return { operation: `${route.method} ${route.template}`, request, response, disagreements };
  }

  private checkRequest(route: Route, values: string[], query: URLSearchParams, exchange: Exchange): string[] {
    const problems: string[] = [];
    const parameters = (route.operation.parameters ?? []) as Schema[];
    route.names.forEach((name, i) => {
      const parameter = parameters.find((p) => p.in === 'path' && p.name === name);
      if (!parameter) problems.push(`path parameter ${name} is not described`);
      else problems.push(...this.validate(parameter.schema ?? {}, values[i], `path parameter ${name}`, true));
    });
    for (const parameter of parameters.filter((p) => p.in === 'query')) {
      const value = query.get(parameter.name);
      if (value === null) {
        if (parameter.required) problems.push(`query parameter ${parameter.name} is required`);
        continue;
      }
      problems.push(...this.validate(parameter.schema ?? {}, value, `query parameter ${parameter.name}`, true));
    }
    problems.push(...this.checkCredentials(route.operation, exchange.requestHeaders));
    const body = route.operation.requestBody as Schema | undefined;
    if (!body) {
      if (exchange.requestBody.length && exchange.method !== 'GET') problems.push('the operation takes no body');
      return problems;
    }
    if (exchange.requestBody.length === 0) {
      if (body.required) problems.push('the body is required');
      return problems;
    }
    const media = mediaOf(exchange.requestHeaders['content-type']);
    const content = body.content?.[media];
    if (!content) {
      problems.push(`the body's media type "${media || 'none'}" is not one the operation takes`);
      return problems;
    }
    problems.push(...this.checkContent(content.schema ?? {}, media, exchange.requestBody, 'request body'));
    return problems;
  }

  private checkCredentials(operation: Schema, headers: IncomingHttpHeaders): string[] {
    const requirements = (operation.security ?? this.doc.security ?? []) as Array<Record<string, string[]>>;
    if (requirements.length === 0) return [];
    const authorization = String(headers.authorization ?? '');
    const met = (name: string) => {
      const scheme = this.doc.components?.securitySchemes?.[name] as Schema | undefined;
      if (!scheme) return false;
      if (scheme.type === 'http') return authorization.toLowerCase().startsWith(`${String(scheme.scheme)} `);
      if (scheme.type === 'oauth2' || scheme.type === 'openIdConnect')
        return authorization.toLowerCase().startsWith('bearer ');
      if (scheme.type === 'apiKey' && scheme.in === 'header') return headers[String(scheme.name).toLowerCase()] != null;
      return false;
    };
    const satisfied = requirements.some((requirement) => Object.keys(requirement).every(met));
    return satisfied
      ? []
      : [`no credential the operation names (${requirements.map((r) => Object.keys(r)).join(' or ')})`];
  }

  private checkResponse(operation: Schema, exchange: Exchange): string[] {
    const responses = (operation.responses ?? {}) as Record<string, Schema>;
    const key = [String(exchange.status), `${Math.floor(exchange.status / 100)}XX`, 'default'].find(
      (k) => k in responses,
    );
    if (!key) return [`the answer's status ${exchange.status} is not documented`];
    let answer = responses[key];
    if (answer.$ref) answer = this.resolve(answer.$ref);
    const problems: string[] = [];
    for (const [name, header] of Object.entries((answer.headers ?? {}) as Record<string, Schema>)) {
      const value = exchange.responseHeaders[name.toLowerCase()];
      if (value === undefined) {
        if (header.required) problems.push(`${exchange.status}: the header ${name} is missing`);
        continue;
      }
      problems.push(...this.validate(header.schema ?? {}, String(value), `${exchange.status} header ${name}`, true));
    }
    const contents = answer.content as Record<string, Schema> | undefined;
    if (!contents) {
      if (exchange.responseBody.length) problems.push(`${exchange.status}: a body where the document has none`);
      return problems;
    }
    const media = mediaOf(exchange.responseHeaders['content-type']);
    const content = contents[media];
    if (!content) return [...problems, `${exchange.status}: the media type "${media}" is not documented`];
    return [
      ...problems,
      ...this.checkContent(content.schema ?? {}, media, exchange.responseBody, `${exchange.status} body`),
    ];
  }

  /** A body by its media type: JSON parsed, JSON text (contentSchema) parsed, anything else as a string. */
  private checkContent(schema: Schema, media: string, bytes: Buffer, what: string): string[] {
    const text = bytes.toString('utf8');
    const resolved = schema.$ref ? this.resolve(schema.$ref) : schema;
    if (isJson(media) || resolved.contentMediaType === 'application/json') {
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return [`${what} is not JSON`];
      }
      return this.validate(resolved.contentSchema ?? schema, value, what);
    }
    return this.validate(schema, text, what);
  }

  /** The schema's errors for a value; a parameter's or header's text is read as its schema's type first. */
  private validate(schema: Schema, value: unknown, what: string, coerce = false): string[] {
    const read = coerce ? coerced(schema, value as string) : value;
    const key = JSON.stringify(schema);
    let validator = this.compiled.get(key);
    if (!validator) this.compiled.set(key, (validator = this.ajv.compile(schema)));
    if (validator(read)) return [];
    return (validator.errors ?? []).map(
      (e) =>
        `${what}${e.instancePath ? ` at ${e.instancePath}` : ''} ${e.message}${e.params ? ` ${JSON.stringify(e.params)}` : ''}`,
    );
  }

  private resolve(ref: string): Schema {
    const pointer = ref.slice(ref.indexOf('#') + 1);
    return pointer
      .split('/')
      .slice(1)
      .reduce((node: Schema, part) => node?.[part.replace(/~1/g, '/').replace(/~0/g, '~')], this.doc);
  }
}

/** A parameter's or header's text as the schema's type reads it: "5" is 5 for an integer. */
function coerced(schema: Schema, text: string): unknown {
  const types = [schema.type].flat();
  if ((types.includes('integer') || types.includes('number')) && text.trim() !== '' && !Number.isNaN(Number(text)))
    return Number(text);
  if (types.includes('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  return text;
}

/**
 * A proxy in front of `target` that passes every request on as it came and keeps each exchange: point any
 * client (the client package, Segment's libraries, fetch) at its url.
 */
export async function trafficProxy(
  target: string,
): Promise<{ url: string; exchanges: Exchange[]; close(): Promise<void> }> {
  const exchanges: Exchange[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const requestBody = Buffer.concat(chunks);
      const forwarded = httpRequest(
        {
          host: upstream.hostname,
          port: upstream.port,
          method: req.method,
          path: req.url,
          headers: { ...req.headers, host: upstream.host },
        },
        (answer) => {
          const parts: Buffer[] = [];
          answer.on('data', (chunk: Buffer) => parts.push(chunk));
          answer.on('end', () => {
            const responseBody = Buffer.concat(parts);
            exchanges.push({
              method: req.method ?? 'GET',
              url: req.url ?? '/',
              requestHeaders: req.headers,
              requestBody,
              status: answer.statusCode ?? 0,
              responseHeaders: answer.headers,
              responseBody,
            });
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(responseBody);
          });
        },
      );
      forwarded.on('error', () => res.writeHead(502).end());
      forwarded.end(requestBody);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * What calling every operation of the document needs: a workspace taking the site's Origin, a list named news
 * and an automation started by its address (the address's last segment).
 */
export async function documentFacts(t: TestApp, site: string): Promise<{ ws: CreatedWorkspace; automation: string }> {
  const ws = await t.workspace({ origins: [site] });
  await t.gql('mutation { createList(input: {address: "news", name: "News"}) { id } }', {}, ws.secretKey);
  const created = await t.gql(
    'mutation($input: CreateAutomationInput!) { createAutomation(input: $input) { address } }',
    { input: { name: 'Hook', trigger: { kind: 'webhook' }, steps: [] } },
    ws.secretKey,
  );
  return { ws, automation: new URL(created.data.createAutomation.address).pathname.split('/').pop()! };
}
