// The launcher alone (apps/launcher): it resolves the databases, migrates and runs the apps, and loads
// no Nest, GraphQL or queues for it.
export { launch, NODE_FLAGS } from '../runtime/launcher';
