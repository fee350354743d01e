// Controls that change things: for a member they are shown disabled with the reason, never hidden
// silently, so a member knows the control exists and who can use it.
import { ButtonHTMLAttributes, InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes, useId, useState } from 'react';
import { useChangeRight } from '../viewer';

export function ChangeButton({ children, disabled, ...rest }: ButtonHTMLAttributes<HTMLButtonElement>) {
  const right = useChangeRight();
  const id = useId();
  return (
    <>
      <button {...rest} disabled={disabled || !right.allowed} aria-describedby={right.allowed ? rest['aria-describedby'] : id}>
        {children}
      </button>
      {right.allowed ? null : (
        <span id={id} className="reason">
          {right.reason}
        </span>
      )}
    </>
  );
}

/** A labelled input; the label is what people, screen readers and scripts find it by. */
export function Field({ label, hint, ...rest }: { label: string; hint?: string } & InputHTMLAttributes<HTMLInputElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} {...rest} aria-describedby={hint ? `${id}-hint` : undefined} />
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

export function TextArea({ label, hint, ...rest }: { label: string; hint?: string } & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} {...rest} aria-describedby={hint ? `${id}-hint` : undefined} />
      {hint ? (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      ) : null}
    </div>
  );
}

export function Select({ label, children, ...rest }: { label: string; children: ReactNode } & SelectHTMLAttributes<HTMLSelectElement>) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...rest}>
        {children}
      </select>
    </div>
  );
}

/** A secret shown once (a key, a signing secret, a door's address), with a copy button. */
export function ShownOnce({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  return (
    <div className="shown-once" role="status">
      <p id={id}>
        <strong>{label}</strong>: shown once. Copy it now; it is never shown again.
      </p>
      <code aria-labelledby={id} className="secret">
        {value}
      </code>
      <button
        type="button"
        onClick={() => {
          void navigator.clipboard?.writeText(value).then(() => setCopied(true), () => setCopied(false));
        }}
      >
        {copied ? 'Copied' : 'Copy'}
      </button>
    </div>
  );
}
