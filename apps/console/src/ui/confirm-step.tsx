// A change that cannot be undone (remove, revoke, delete, disconnect) asks once more on the page itself,
// never through window.confirm: the question and its two buttons take the action button's place, focus
// moving along. A member sees the action disabled with the reason: beside it, or (describedBy) where
// the section already says it once.
import { useEffect, useRef, useState } from 'react';
import { ChangeButton } from './controls';

interface ConfirmStepProps {
  action: string;
  question: string;
  onConfirm: () => void;
  /** The confirming button's name; "Yes, <action>" unless told. */
  confirmLabel?: string;
  keepLabel?: string;
  disabled?: boolean;
  /** The id of the reason a member cannot act, when the section shows it once; else it shows beside the button. */
  describedBy?: string;
  className?: string;
}

export function ConfirmStep({
  action,
  question,
  onConfirm,
  confirmLabel,
  keepLabel = 'Cancel',
  disabled,
  describedBy,
  className = 'secondary',
}: ConfirmStepProps) {
  const [asking, setAsking] = useState(false);
  const asked = useRef(false);
  const start = useRef<HTMLButtonElement>(null);
  const confirm = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirm.current?.focus();
    else if (asked.current) start.current?.focus();
  }, [asking]);
  if (!asking) {
    const open = () => setAsking(true);
    return describedBy ? (
      <button
        type="button"
        ref={start}
        className={className}
        disabled={disabled}
        aria-describedby={describedBy}
        onClick={open}
      >
        {action}
      </button>
    ) : (
      <ChangeButton type="button" ref={start} className={className} disabled={disabled} onClick={open}>
        {action}
      </ChangeButton>
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
        {confirmLabel ?? `Yes, ${action.toLowerCase()}`}
      </button>
      <button
        type="button"
        className="secondary"
        onClick={() => {
          asked.current = true;
          setAsking(false);
        }}
      >
        {keepLabel}
      </button>
    </span>
  );
}
