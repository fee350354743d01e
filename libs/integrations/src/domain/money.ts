// docs/rest.md#third-party-doors: provider amounts in minor units become value in whole units. Stripe's
// currency list (docs "Zero-decimal currencies"): these are already whole; these have three decimals.
const ZERO_DECIMAL = new Set([
  'bif',
  'clp',
  'djf',
  'gnf',
  'jpy',
  'kmf',
  'krw',
  'mga',
  'pyg',
  'rwf',
  'ugx',
  'vnd',
  'vuv',
  'xaf',
  'xof',
  'xpf',
]);
const THREE_DECIMAL = new Set(['bhd', 'jod', 'kwd', 'omr', 'tnd']);

/** 1999 usd -> 19.99; 500 jpy -> 500; 1500 kwd -> 1.5. Undefined when the amount is not a number. */
export function wholeUnits(minor: unknown, currency: unknown = 'usd'): number | undefined {
  if (typeof minor !== 'number' || !Number.isFinite(minor)) return undefined;
  const code = typeof currency === 'string' ? currency.toLowerCase() : 'usd';
  if (ZERO_DECIMAL.has(code)) return minor;
  const places = THREE_DECIMAL.has(code) ? 3 : 2;
  return Number((minor / 10 ** places).toFixed(places));
}
