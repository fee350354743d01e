// Controls that change things: for a member they are shown disabled with the reason, never hidden
// silently, so a member knows the control exists and who can use it.
import {
  ButtonHTMLAttributes,
  forwardRef,
  InputHTMLAttributes,
  ReactNode,
  SelectHTMLAttributes,
  TextareaHTMLAttributes,
  useId,
  useState,
} from 'react';
import { useChangeRight } from '../viewer';

export const ChangeButton = forwardRef<HTMLButtonElement, ButtonHTMLAttributes<HTMLButtonElement>>(
  function ChangeButton({ children, disabled, ...rest }, ref) {
    const right = useChangeRight();
    const id = useId();
    return (
      <>
        <button
          {...rest}
          ref={ref}
          disabled={disabled || !right.allowed}
          aria-describedby={right.allowed ? rest['aria-describedby'] : id}
        >
          {children}
        </button>
        {right.allowed ? null : (
          <span id={id} className="reason">
            {right.reason}
          </span>
        )}
      </>
    );
  },
);

/** A label, the control it names and an optional hint, tied together by ids. */
function Labelled({
  label,
  hint,
  children,
}: {
  label: string;
  hint?: string;
  children: (id: string, hintId: string | undefined) => ReactNode;
}) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {children(id, hintId)}
      {hint ? (
        <small id={hintId} className="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

/** A labelled input; the label is what people, screen readers and scripts find it by. */
export function Field({
  label,
  hint,
  ...rest
}: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <Labelled label={label} hint={hint}>
      {(id, hintId) => <input id={id} {...rest} aria-describedby={hintId} />}
    </Labelled>
  );
}

export function TextArea({
  label,
  hint,
  ...rest
}: { label: string; hint?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <Labelled label={label} hint={hint}>
      {(id, hintId) => <textarea id={id} {...rest} aria-describedby={hintId} />}
    </Labelled>
  );
}

export function Select({
  label,
  children,
  ...rest
}: { label: string; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  return (
    <Labelled label={label}>
      {(id) => (
        <select id={id} {...rest}>
          {children}
        </select>
      )}
    </Labelled>
  );
}

/** A value to copy (an address to paste into a provider), with a Copy button; `note` says what it is for. */
export function CopyValue({ label, value, note }: { label: string; value: string; note: ReactNode }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  return (
    <div className="shown-once" role="status">
      <p id={id}>
        <strong>{label}</strong>: {note}
      </p>
      <code aria-labelledby={id} className="secret">
        {value}
      </code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(
            () => setCopied(true),
            () => setCopied(false),
          );
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}

/** A secret shown once (a key, a signing secret), with a copy button. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  return <CopyValue label={label} value={value} note="shown once. Copy it now; it is never shown again." />;
}
