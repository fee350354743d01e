// People's SQL for the database functions of a lib above (the chart rollups of events, issue 32), loading
// nothing else: migrations may import it. People own the table; these name it for them.

/** `LEFT JOIN people <alias>` by the full key; `workspace` and `personId` are SQL of the caller's statement. */
export function peopleLeftJoin(alias: string, workspace: string, personId: string): string {
  return `LEFT JOIN people ${alias} ON ${alias}.workspace_id = ${workspace} AND ${alias}.id = ${personId}`;
}

/**
 * Row triggers on people calling `fn` (a trigger function) when a person's first touch changes (the WHEN
 * leaves every other update, and one that keeps the first touch, firing nothing) and when a person is
 * deleted; `name` prefixes the triggers' names.
 */
export function firstTouchTriggers(name: string, fn: string): { up: string; down: string } {
  return {
    up: `
CREATE TRIGGER ${name}_touch AFTER UPDATE OF first_touch ON people FOR EACH ROW
  WHEN (OLD.first_touch IS DISTINCT FROM NEW.first_touch) EXECUTE FUNCTION ${fn}();
CREATE TRIGGER ${name}_gone AFTER DELETE ON people FOR EACH ROW EXECUTE FUNCTION ${fn}();`,
    down: `DROP TRIGGER IF EXISTS ${name}_touch ON people; DROP TRIGGER IF EXISTS ${name}_gone ON people;`,
  };
}
