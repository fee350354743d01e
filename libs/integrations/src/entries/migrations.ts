// The migrations of integrations's tables, for the runner (@app/schema merges every lib's by timestamp), loading
// nothing else.
export * from '../migrations';
