// The one DataLoader helper of the GraphQL resolvers: per request (kept on the GraphQL context) and per
// key, it loads the rows of many parents with one query and hands each parent its own rows.
import DataLoader from 'dataloader';

export type Loaders = Map<string, DataLoader<string, any[]>>;

export function groupedLoader<T>(
  ctx: { loaders?: Loaders },
  key: string,
  load: (ids: readonly string[]) => Promise<T[]>,
  parentOf: (row: T) => string,
): DataLoader<string, T[]> {
  ctx.loaders ??= new Map();
  let found = ctx.loaders.get(key);
  if (!found) {
    found = new DataLoader<string, T[]>(async (ids) => {
      const rows = await load(ids);
      const byParent = new Map<string, T[]>();
      for (const row of rows) {
        const parent = parentOf(row);
        const list = byParent.get(parent);
        if (list) list.push(row);
        else byParent.set(parent, [row]);
      }
      return ids.map((id) => byParent.get(id) ?? []);
    });
    ctx.loaders.set(key, found);
  }
  return found as DataLoader<string, T[]>;
}
