// The launcher alone (apps/launcher/src/main.ts): a supervisor of the apps that loads Node's built-ins
// only; its preparation (databases, settings, migrations) runs in a child process of its own
// (`@app/platform/prepare`).
export { launch, NODE_FLAGS } from '../runtime/launcher';
