import { Refusal } from '@app/platform';
import {
  DEFAULT_PROTOCOL_VERSION,
  LATEST_PROTOCOL_VERSION,
  negotiatedProtocolVersion,
  protectedResourceMetadata,
  protocolVersionOf,
  SUPPORTED_PROTOCOL_VERSIONS,
} from './protocol';

describe('MCP-Protocol-Version (docs/mcp.md)', () => {
  it.each(SUPPORTED_PROTOCOL_VERSIONS)('serves %s', (version) => {
    expect(protocolVersionOf(version)).toBe(version);
  });

  it('takes a request without the header as 2025-03-26', () => {
    expect(protocolVersionOf(undefined)).toBe(DEFAULT_PROTOCOL_VERSION);
    expect(DEFAULT_PROTOCOL_VERSION).toBe('2025-03-26');
  });

  it.each(['1999-01-01', '2024-11-05', 'latest'])('refuses %s naming the supported versions', (version) => {
    const answer = protocolVersionOf(version);
    expect(answer).toBeInstanceOf(Refusal);
    const refusal = answer as Refusal;
    expect(refusal.code).toBe('unsupported_protocol_version');
    expect(refusal.status).toBe(400);
    for (const v of SUPPORTED_PROTOCOL_VERSIONS) expect(refusal.message).toContain(v);
  });
});

describe('initialize agrees only to a version the header check serves', () => {
  it.each(SUPPORTED_PROTOCOL_VERSIONS)('agrees to %s when asked', (version) => {
    expect(negotiatedProtocolVersion(version)).toBe(version);
  });

  it.each(['2024-11-05', '2024-10-07', '2099-01-01', undefined, 42])(
    'answers %s with the latest it serves',
    (asked) => {
      const answer = negotiatedProtocolVersion(asked);
      expect(answer).toBe(LATEST_PROTOCOL_VERSION);
      expect(protocolVersionOf(answer)).toBe(answer);
    },
  );
});

describe('protected-resource metadata (RFC 9728)', () => {
  it('names the tool door as the resource', () => {
    expect(protectedResourceMetadata('https://lifeline.test').resource).toBe('https://lifeline.test/api/mcp');
  });
});
