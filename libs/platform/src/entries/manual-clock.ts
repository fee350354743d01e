// The clock tests move by hand (libs/platform/src/time/manual-clock.ts): kept out of the index, which
// production code loads, as only tests use it.
export * from '../time/manual-clock';
