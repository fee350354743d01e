// The launcher's preparation (apps/launcher/src/prepare.ts): resolves the databases, checks the settings
// and migrates, in a child process of the launcher; no Nest, GraphQL or queues.
export { prepareForLaunch } from '../runtime/prepare';
