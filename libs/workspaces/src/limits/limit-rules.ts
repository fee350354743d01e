// Which limits the operator may move and to what (docs/operations.md#limits): the names of the spec's table, and a
// whole number of calls per ten minutes.
import { MAX_PER_TEN_MINUTES, Refusal, WORKSPACE_LIMIT_NAMES, type WorkspaceLimit } from '@app/platform/plain';

/** The limit named, or the refusal naming the ones there are. */
export function limitNamed(name: string): WorkspaceLimit | Refusal {
  if ((WORKSPACE_LIMIT_NAMES as readonly string[]).includes(name)) return name as WorkspaceLimit;
  return new Refusal('invalid_field', `No limit is named "${name}": name one of ${WORKSPACE_LIMIT_NAMES.join(', ')}.`);
}

/** Null when the figure may be set, else the refusal saying which figures may. */
export function figureRefusal(perTenMinutes: number): Refusal | null {
  if (Number.isInteger(perTenMinutes) && perTenMinutes >= 1 && perTenMinutes <= MAX_PER_TEN_MINUTES) return null;
  return new Refusal(
    'invalid_field',
    `perTenMinutes must be a whole number from 1 to ${MAX_PER_TEN_MINUTES.toLocaleString('en')}, not ` +
      `${perTenMinutes}: give the calls a ten-minute window allows.`,
  );
}
