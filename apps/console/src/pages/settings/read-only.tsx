// A member sees every changing control of a section disabled, each pointing (aria-describedby) to one
// visible sentence saying why, shown once per section rather than beside every row's buttons.
import { ReactNode, useId } from 'react';
import { useChangeRight } from '../../viewer';

export interface ReadOnly {
  allowed: boolean;
  /** The id of the reason's sentence, for aria-describedby; undefined when the viewer may change. */
  reasonId: string | undefined;
  note: ReactNode;
}

export function useReadOnly(): ReadOnly {
  const right = useChangeRight();
  const id = useId();
  if (right.allowed) return { allowed: true, reasonId: undefined, note: null };
  return {
    allowed: false,
    reasonId: id,
    note: (
      <p id={id} className="reason read-only">
        {right.reason}
      </p>
    ),
  };
}
