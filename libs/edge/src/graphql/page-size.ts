// docs/graphql.md#pages-limits-and-refusals: every list read over GraphQL asks for at most MAX_PAGE_SIZE
// items, as the REST messages page does (limit 1 to 100, docs/rest.md#messages). Connections take `first`
// through pageSize(); the query cost plugin refuses a larger `first` before any resolver runs.
import { Refusal } from '@app/platform';

export const MAX_PAGE_SIZE = 100;

/** The page size a resolver should read: `first` when given (1 to MAX_PAGE_SIZE), else `fallback`. */
export function pageSize(first: number | null | undefined, fallback = 50, argument = 'first'): number {
  const refusal = pageSizeRefusal(first, argument);
  if (refusal) throw refusal;
  return first ?? Math.min(fallback, MAX_PAGE_SIZE);
}

export function pageSizeRefusal(first: unknown, argument = 'first'): Refusal | null {
  if (first === null || first === undefined) return null;
  if (typeof first === 'number' && Number.isInteger(first) && first >= 1 && first <= MAX_PAGE_SIZE) return null;
  return new Refusal(
    'invalid_field',
    `${argument} must be a whole number from 1 to ${MAX_PAGE_SIZE}: read more with the next page.`,
    { field: argument },
  );
}
