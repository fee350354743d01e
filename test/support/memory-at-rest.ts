// Run as a child process by test/memory-at-rest.e2e-spec.ts, with the apps' NODE_FLAGS: loads platform and
// allocates as a start-up does (objects that survive a few scavenges grow the young generation to its
// maximum), then watches as the apps do (giveBackMemoryAtRest, checks every 250 ms) while `quiet` or
// `busy` (the loop held 90% of the time), and prints what it sees every 250 ms as a JSON line.
import { giveBackMemoryAtRest, youngGenerationBytes } from '@app/platform';

const mode = process.argv[2];
const forMs = Number(process.argv[3]);
let kept: object[] = [];
for (let round = 0; round < 30; round++)
  kept = Array.from({ length: 100_000 }, (_, i) => ({ i, name: `item ${round} ${i}`, list: [i] }));
kept = [];

const began = Date.now();
const watch = giveBackMemoryAtRest(250);
if (mode === 'busy') {
  setInterval(() => {
    const until = Date.now() + 45;
    while (Date.now() < until);
  }, 50);
}
setInterval(() => {
  const ms = Date.now() - began;
  console.log(
    JSON.stringify({
      ms,
      young: youngGenerationBytes(),
      asks: watch.asks,
      finished: watch.finished,
      kept: kept.length,
    }),
  );
  if (watch.finished || ms > forMs) process.exit(0);
}, 250);
