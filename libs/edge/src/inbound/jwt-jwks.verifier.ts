// A body that is itself an RS256 JWT (Kinde), checked with `jose` against the key set the caller
// supplies (fetched and cached by the door that knows the domain). jose checks exp and nbf when
// present; an iat more than five minutes away from now is refused as stale, like the other schemes.
import { JWTVerifyGetKey, jwtVerify } from 'jose';
import { InboundPost, Verified } from './inbound-post';

export const JWT_TOLERANCE_SECONDS = 300;

export async function verifyJwtBody(
  post: InboundPost,
  keys: JWTVerifyGetKey,
  now = new Date(),
): Promise<Verified | null> {
  const token = post.raw.toString('utf8').trim();
  if (!/^[\w-]+\.[\w-]+\.[\w-]+$/.test(token)) return null;
  try {
    const { payload } = await jwtVerify(token, keys, {
      algorithms: ['RS256'],
      currentDate: now,
      clockTolerance: JWT_TOLERANCE_SECONDS,
    });
    if (typeof payload.iat === 'number' && Math.abs(now.getTime() / 1000 - payload.iat) > JWT_TOLERANCE_SECONDS)
      return null;
    const id = typeof payload.event_id === 'string' ? payload.event_id : payload.jti;
    return { payload, ...(id ? { deliveryId: id } : {}) };
  } catch {
    return null;
  }
}
