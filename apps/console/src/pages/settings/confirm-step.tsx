// A change that cannot be undone (remove, revoke) asks once more on the page itself, never through
// window.confirm: the question and its two buttons take the action button's place, focus moving along.
import { useEffect, useRef, useState } from 'react';

export function ConfirmStep({ action, question, onConfirm, disabled, describedBy }: { action: string; question: string; onConfirm: () => void; disabled?: boolean; describedBy?: string }) {
  const [asking, setAsking] = useState(false);
  const asked = useRef(false);
  const start = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (asked.current) start.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button type="button" ref={start} className="secondary" disabled={disabled} aria-describedby={describedBy} onClick={() => setAsking(true)}>
        {action}
      </button>
    );
  }
  return (
    <span className="confirm-step" role="group" aria-label={question}>
      <span>{question}</span>
      <button
        type="button"
        ref={confirm}
        className="danger"
        onClick={() => {
          setAsking(false);
          onConfirm();
        }}
      >
        Yes, {action.toLowerCase()}
      </button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          asked.current = true;
          setAsking(false);
        }}
      >
        Cancel
      </button>
    </span>
  );
}
