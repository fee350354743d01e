// What the OpenAPI document says before any route: what the service is, who may call it (the
// security schemes the routes' callers name: libs/edge/src/http/door/reference.ts) and its tags, one per
// context a client meets, in the order a newcomer reads them.
import type { SecuritySchemeObject } from '@nestjs/swagger';
import type { ReferenceTag } from '@app/edge';
import type { AppConfig } from '@app/platform';

export const DESCRIPTION = [
  'Customer events, messaging and webhooks. Your servers post what each person did with a secret key; your ' +
    'website posts through its public address; third parties post to their doors.',
  '',
  'Every refusal is `{"ok": false, "error": code, "message": sentence}`: each operation lists the codes it can ' +
    'give under the HTTP status each code always answers, and the sentence names the fix.',
  '',
  'The GraphQL admin API (people, timelines, lists, webhook addresses, automations, workspaces) is at ' +
    '`/graphql`, with its explorer in a browser; it is not part of this document.',
].join('\n');

export const TAGS: Record<ReferenceTag, string> = {
  events:
    'Events from your servers. `POST /api/v1/events` takes one event, identify, subscribe or support item, or ' +
    'a batch of up to 100; `GET /api/v1/events` tells what to post. A secret key (sk_live_…) authenticates; it ' +
    'never belongs in a browser.',
  people:
    "A person's data on request: export everything held about one person, or erase them (every row that names " +
    'them, their identities kept only as keyed hashes so later posts naming them write nothing). For requests ' +
    'under GDPR articles 15, 17 and 20 and the CCPA.',
  segment:
    "Segment's HTTP Tracking API at `/v1/{call}` (track, identify, page, screen, group, alias, batch, import), " +
    "so a team that sends Segment calls switches by changing its clients' host. Every call becomes " +
    'events-endpoint items under the same rules: a secret key as a server, a public key as the website.',
  website:
    "The public website endpoints under `/api/in/{publicKey}/`, posted straight from visitors' browsers, and " +
    "the website tag's script. The public key (wk_…) in the address names the workspace and only the sites the " +
    'workspace names may post. They add people and never read anything: a success carries ok and status only.',
  messages:
    "One-to-one emails: send one, page through the workspace's messages, read one person's thread. Email goes " +
    'only to people who bought, signed up, wrote in, replied or joined a list.',
  automations:
    "An automation's own address: posting a person to it starts that one automation for them. The signed " +
    'address is the credential.',
  doors:
    'Where third-party systems post. The payment, auth_a, auth_b and hosting doors have an address per ' +
    'connection (its token made when the door is connected, GraphQL `connectDoor`); the email door is one for ' +
    "the whole deployment. Each door checks its sender's signature over the exact body before it reads " +
    'anything.',
  'tool-door':
    'The Model Context Protocol over streamable HTTP, for AI clients: one JSON-RPC post in, one JSON answer ' +
    'out. A pasted secret key, or the access token of a connector that signed in, authenticates.',
  health: 'Liveness and readiness, for load balancers and supervisors.',
  metrics: 'Figures in Prometheus format, for operators.',
};

export function securitySchemes(config: Pick<AppConfig, 'baseUrl'>): Record<string, SecuritySchemeObject> {
  const token = `${config.baseUrl}/token`;
  return {
    secretKey: {
      type: 'http',
      scheme: 'bearer',
      bearerFormat: 'sk_live_…',
      description:
        "A workspace's secret key, from its developer settings: `Authorization: Bearer sk_live_…`. It acts as " +
        'the member it was made for; from servers only.',
    },
    connector: {
      type: 'oauth2',
      description:
        'The access token of a connector (an MCP client) that signed in: it registers itself (RFC 7591, ' +
        '`/register`), its person signs in and consents at `/authorize` (code with PKCE S256), and it sends ' +
        'the token it got from `/token` as a bearer token. The server metadata is at ' +
        '`/.well-known/oauth-authorization-server`; sign-in is offered when the base URL is https, or http on ' +
        'localhost.',
      flows: {
        authorizationCode: {
          authorizationUrl: `${config.baseUrl}/authorize`,
          tokenUrl: token,
          refreshUrl: token,
          scopes: {},
        },
      },
    },
    writeKey: {
      type: 'http',
      scheme: 'basic',
      description:
        "Segment's write key: a workspace's secret key (sk_live_…, from servers) or public key (wk_…, from " +
        "browsers) as the HTTP Basic user name with an empty password, as Segment's clients send it; writeKey " +
        'in the body does too.',
    },
    adminToken: {
      type: 'http',
      scheme: 'bearer',
      description:
        "The operator's ADMIN_TOKEN. Without ADMIN_TOKEN set, a caller on the service's own machine needs no header.",
    },
  };
}
