// Relay-style cursor connections for every list of the admin API: at most 100 per page.
import { Field, ObjectType } from '@nestjs/graphql';
import { Refusal } from '@app/platform';

@ObjectType('PageInfo')
export class PageInfoType {
  @Field() hasNextPage: boolean;
  @Field({ nullable: true, description: 'Pass as after to read the next page.' }) endCursor?: string;
}

/** A position in a list ordered by (time, id), newest first: opaque to clients. */
export interface Position {
  /** Microseconds since the epoch, exact (JavaScript dates keep only milliseconds). */
  atMicros: string;
  id: string;
}

export function encodeCursor(position: Position): string {
  return Buffer.from(`${position.atMicros}:${position.id}`).toString('base64url');
}

export function decodeCursor(cursor: string | null | undefined): Position | undefined {
  if (!cursor) return undefined;
  const match = /^(\d{1,20}):([A-Za-z0-9_]{1,80})$/.exec(Buffer.from(cursor, 'base64url').toString());
  if (!match)
    throw new Refusal(
      'invalid_field',
      'after is not a cursor this API gave: pass an endCursor or edge cursor back unchanged.',
    );
  return { atMicros: match[1], id: match[2] };
}

/** One page out of rows fetched with limit first + 1. */
export function pageOf<T>(rows: T[], first: number, position: (row: T) => Position) {
  const nodes = rows.slice(0, first);
  const edges = nodes.map((node) => ({ cursor: encodeCursor(position(node)), node }));
  return { edges, pageInfo: { hasNextPage: rows.length > first, endCursor: edges.at(-1)?.cursor } };
}
