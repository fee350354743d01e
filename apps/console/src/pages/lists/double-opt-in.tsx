// A list's double opt-in (docs/graphql.md#lists), turned on and off in its row by updateList: while on, a
// new subscriber joins only once they confirm by email; those already on the list stay as they are.
import { useEffect, useId, useState } from 'react';
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { graphql } from '../../graphql';
import { Alert } from '../../ui/state';
import { useChangeRight } from '../../viewer';

export const DOUBLE_OPT_IN_LABEL = 'Ask new subscribers to confirm by email (double opt-in)';

const UPDATE = graphql(`
  mutation SetListDoubleOptIn($id: ID!, $doubleOptIn: Boolean!) {
    updateList(id: $id, doubleOptIn: $doubleOptIn) {
      id
      doubleOptIn
    }
  }
`);

export function DoubleOptInToggle({
  list,
  describedBy,
}: {
  list: { id: string; name: string; doubleOptIn: boolean };
  /** The reason a member cannot change it, when they cannot. */
  describedBy?: string;
}) {
  const id = useId();
  const right = useChangeRight();
  const [result, update] = useMutation(UPDATE);
  // The box shows the choice at once, and the list's own value again once the lists are read anew or it is refused.
  const [asked, setAsked] = useState<boolean | null>(null);
  useEffect(() => setAsked(null), [list.doubleOptIn]);
  const change = async (doubleOptIn: boolean) => {
    setAsked(doubleOptIn);
    const answer = await update({ id: list.id, doubleOptIn });
    if (answer.error) setAsked(null);
  };
  return (
    <>
      <div className="check">
        <input
          id={id}
          type="checkbox"
          checked={asked ?? list.doubleOptIn}
          disabled={!right.allowed || result.fetching}
          aria-describedby={right.allowed ? undefined : describedBy}
          onChange={(e) => void change(e.target.checked)}
        />
        <label htmlFor={id}>
          <span className="visually-hidden">{list.name}: </span>
          {DOUBLE_OPT_IN_LABEL}
        </label>
      </div>
      <Alert refused={refusalOf(result.error)} />
    </>
  );
}
