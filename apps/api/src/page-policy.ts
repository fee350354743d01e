// The Content-Security-Policy of the api's own browser apps (the admin console, the REST reference):
// scripts, styles, fonts and requests from this service only, nothing inline, no frames around them.
export const SAME_ORIGIN_PAGE_POLICY = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "font-src 'self'",
  "object-src 'none'",
  "base-uri 'none'",
  "form-action 'self'",
  "frame-ancestors 'none'",
].join('; ');

// The GraphQL explorer's: the same, and the fonts GraphiQL's stylesheet carries inside it as data: URLs.
export const EXPLORER_PAGE_POLICY = SAME_ORIGIN_PAGE_POLICY.replace("font-src 'self'", "font-src 'self' data:");
