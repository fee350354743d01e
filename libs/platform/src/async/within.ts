/** The promise's value, or a rejection naming `what` when it has not settled within `ms`. */
export function within<T>(promise: Promise<T>, ms: number, what = 'no answer'): Promise<T> {
  return Promise.race([
    promise,
    new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} within ${ms} ms`)), ms).unref()),
  ]);
}
