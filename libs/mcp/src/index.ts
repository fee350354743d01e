// The tool door (docs/mcp.md): POST /api/mcp.
export * from './mcp-api.module';
export { SUPPORTED_PROTOCOL_VERSIONS, DEFAULT_PROTOCOL_VERSION, LATEST_PROTOCOL_VERSION } from './domain/protocol';
