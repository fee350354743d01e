// The part of platform that loads no Nest, TypeORM, GraphQL or Redis: what the operator CLI and the
// workspaces services it runs need (test/runtime.e2e-spec.ts checks what a CLI call loads).
export * from '../errors/refusal';
export * from '../errors/unavailable';
export * from '../runtime/outage';
export * from '../ids';
export * from '../async/within';
export * from '../memo/kept';
export * from '../config/config';
export * from '../config/email-settings';
export * from '../rate-limits/limit-settings';
export * from '../rate-limits/limit-store';
export * from '../config/config.token';
export * from '../database/sql';
export * from '../database/prepared';
export * from '../database/targeted-client';
export * from '../database/domain/host-list';
export * from '../database/jsonb-param';
export * from '../database/pipelined';
export * from '../database/migration-state';
export * from '../batching/group-commit';
export * from '../runtime/embedded';
export * from '../runtime/unreachable';
export * from '../text/escape-html';
