// Posted input's rules and field readers, without the rest of edge (Nest, Express, GraphQL): what the
// other libs' pure domain rules read posted values with.
export * from '../http/posted-input';
