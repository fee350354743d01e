// An automation's status (draft, paused or running; only running automations start runs) and the
// buttons that change it (setAutomationStatus).
import { useId } from 'react';
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { graphql } from '../../graphql';
import { Alert } from '../../ui/state';
import { useChangeRight } from '../../viewer';

const SET_STATUS = graphql(`
  mutation SetAutomationStatus($id: ID!, $status: String!) {
    setAutomationStatus(id: $id, status: $status) {
      id
      status
    }
  }
`);

const BADGE: Record<string, string> = { running: 'badge good', paused: 'badge bad', draft: 'badge' };

export function StatusBadge({ status }: { status: string }) {
  return <span className={BADGE[status] ?? 'badge'}>{status}</span>;
}

/** The changes open from each status, as buttons: [label, status it sets]. */
const CHANGES: Record<string, [string, string][]> = {
  draft: [['Start', 'running']],
  running: [
    ['Pause', 'paused'],
    ['Back to draft', 'draft'],
  ],
  paused: [
    ['Resume', 'running'],
    ['Back to draft', 'draft'],
  ],
};

export function StatusButtons({ id, status }: { id: string; status: string }) {
  const [result, setStatus] = useMutation(SET_STATUS);
  const right = useChangeRight();
  const reasonId = useId();
  return (
    <div>
      <div className="actions">
        {(CHANGES[status] ?? []).map(([label, next]) => (
          <button
            key={next}
            type="button"
            className={next === 'running' ? undefined : 'secondary'}
            disabled={result.fetching || !right.allowed}
            aria-describedby={right.allowed ? undefined : reasonId}
            onClick={() => void setStatus({ id, status: next })}
          >
            {label}
          </button>
        ))}
        {right.allowed ? null : (
          <span id={reasonId} className="reason">
            {right.reason}
          </span>
        )}
      </div>
      <Alert refused={refusalOf(result.error)} />
    </div>
  );
}
