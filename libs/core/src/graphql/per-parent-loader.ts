// The one DataLoader helper of the GraphQL admin API: a field that loads per parent (a person's
// timeline, an endpoint's deliveries) asks for its parent's rows, and every parent of one request
// that asks in the same tick shares one statement.
import DataLoader from 'dataloader';

export type Loaders = Map<string, DataLoader<string, unknown[]>>;
export interface LoaderContext {
  loaders?: Loaders;
}

/**
 * The request's loader named `name` (include the workspace and any field arguments in it), made on
 * first use: `load` gets every parent id asked for and answers their rows in one go.
 */
export function perParent<R>(
  ctx: LoaderContext,
  name: string,
  load: (parentIds: readonly string[]) => Promise<R[]>,
  parentOf: (row: R) => string,
): DataLoader<string, R[]> {
  ctx.loaders ??= new Map();
  let found = ctx.loaders.get(name);
  if (!found) {
    found = new DataLoader<string, unknown[]>(async (ids) => {
      const byParent = new Map<string, R[]>(ids.map((id) => [id, []]));
      for (const row of await load(ids)) byParent.get(parentOf(row))?.push(row);
      return ids.map((id) => byParent.get(id)!);
    });
    ctx.loaders.set(name, found);
  }
  return found as DataLoader<string, R[]>;
}
