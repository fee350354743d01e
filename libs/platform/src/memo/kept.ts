// A value worked out once per key and kept, in a map that is emptied when it reaches `most` entries:
// for answers that are pure functions of their key (a secret's HMAC key, an address's check), where
// working them out again is the only cost of forgetting.

export const KEPT_MOST = 10_000;

/** The value kept for `key` in `kept`, made by `make` the first time (the map is emptied at `most` entries). */
export function keptIn<K, V>(kept: Map<K, V>, key: K, make: (key: K) => V, most = KEPT_MOST): V {
  const found = kept.get(key);
  if (found !== undefined) return found;
  const made = make(key);
  if (kept.size >= most) kept.clear();
  kept.set(key, made);
  return made;
}
