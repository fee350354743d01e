// How each process stops: SIGTERM or SIGINT, or its parent going away, closes the process
// gracefully (in-flight requests answered, in-flight jobs finished) and exits 0; whatever still hangs
// after STOP_WITHIN_MS is cut off with exit code 1, so a tree always stops within 10 seconds.

/** A stop that takes longer is forced: the whole tree stays under the 10 s an operator expects. */
export const STOP_WITHIN_MS = 8_000;

/** Exit code of a start that cannot succeed by retrying (a wrong setting): the launcher does not restart it. */
export const EXIT_CONFIG = 78;

type Stop = (reason: string) => Promise<void>;

/**
 * Calls `stop` once, on the first SIGTERM/SIGINT or when the launcher that spawned this process (over
 * an IPC channel) is gone; later signals are ignored while it runs. Exits 0 when it is done.
 */
export function stopOnSignals(name: string, stop: Stop, log: (line: string) => void = (l) => console.log(l)): void {
  let stopping = false;
  const begin = (reason: string) => {
    if (stopping) return;
    stopping = true;
    log(`${name} stopping (${reason})`);
    setTimeout(() => {
      log(`${name} did not stop within ${STOP_WITHIN_MS / 1000} s: exiting now`);
      process.exit(1);
    }, STOP_WITHIN_MS).unref();
    stop(reason).then(
      () => process.exit(0),
      (error: unknown) => {
        log(`${name} stopped with an error: ${(error as Error).message}`);
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', () => begin('SIGTERM'));
  process.on('SIGINT', () => begin('SIGINT'));
  if (process.connected) process.on('disconnect', () => begin('the launcher is gone'));
}

/**
 * Calls `gone` when the process that started this one has exited (a shell or npm that was killed
 * leaves its child behind with no signal of its own). Checked twice a second.
 */
export function watchParent(gone: () => void, parent = process.ppid): NodeJS.Timeout {
  const timer = setInterval(() => {
    try {
      process.kill(parent, 0);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ESRCH') {
        clearInterval(timer);
        gone();
      }
    }
  }, 500);
  return timer.unref();
}
