/** Rejects when `promise` has not settled within `ms` (queueing must never hang on a Redis that is down). */
export function within<T>(promise: Promise<T>, ms: number, what = 'Redis'): Promise<T> {
  return Promise.race([promise, new Promise<T>((_, reject) => setTimeout(() => reject(new Error(`${what} did not answer within ${ms} ms`)), ms).unref())]);
}
