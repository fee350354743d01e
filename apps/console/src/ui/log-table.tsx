// The delivery log and the run log as dense tables (docs/console.md#logs): one row per delivery or run,
// a disclosure button that opens the row's details below it, a filter by state, and a wrapper that
// scrolls sideways on a narrow screen so the page itself never does.
import { ReactNode, useId, useState } from 'react';
import './log-table.css';

const SHORT = new Intl.DateTimeFormat(undefined, {
  month: 'short',
  day: 'numeric',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
});

/** A moment in few characters (the exact ISO time on hover and for machines). */
export function ShortTime({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">never</span>;
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {SHORT.format(date)}
    </time>
  );
}

/** The table, scrolling inside its own frame (a named, focusable region, so the keyboard can scroll it too). */
export function LogTable({ label, head, children }: { label: string; head: string[]; children: ReactNode }) {
  return (
    <div className="log-frame" role="region" aria-label={label} tabIndex={0}>
      <table className="log">
        <caption className="visually-hidden">{label}, newest first</caption>
        <thead>
          <tr>
            <th scope="col">
              <span className="visually-hidden">Details</span>
            </th>
            {head.map((name) => (
              <th key={name} scope="col" className={name === 'Attempts' || name === 'Steps' ? 'number' : undefined}>
                {name}
              </th>
            ))}
          </tr>
        </thead>
        {children}
      </table>
    </div>
  );
}

/**
 * One row and its details: the first cell's button (named by what it opens) shows or hides the details,
 * written in a second row across every column.
 */
export function LogRow({
  what,
  cells,
  columns,
  children,
}: {
  what: string;
  cells: ReactNode;
  columns: number;
  children: () => ReactNode;
}) {
  const [open, setOpen] = useState(false);
  const id = useId();
  return (
    <tbody className={open ? 'open' : undefined}>
      <tr>
        <td className="disclose">
          <button
            type="button"
            className="disclose"
            aria-expanded={open}
            aria-controls={id}
            aria-label={`Details of ${what}`}
            onClick={() => setOpen(!open)}
          >
            <span aria-hidden="true">{open ? '▾' : '▸'}</span>
          </button>
        </td>
        {cells}
      </tr>
      <tr id={id} className="details" hidden={!open}>
        <td colSpan={columns + 1}>{open ? children() : null}</td>
      </tr>
    </tbody>
  );
}

/** Show every state or one: the log is read again for that state. */
export function StateFilter({
  label,
  states,
  value,
  shown,
  onChange,
}: {
  label: string;
  states: readonly string[];
  value: string;
  shown: string;
  onChange: (state: string) => void;
}) {
  const id = useId();
  return (
    <div className="log-filter">
      <label htmlFor={id}>{label}</label>
      <select id={id} value={value} onChange={(e) => onChange(e.target.value)}>
        <option value="">All</option>
        {states.map((state) => (
          <option key={state} value={state}>
            {state}
          </option>
        ))}
      </select>
      <span className="muted" role="status">
        {shown}
      </span>
    </div>
  );
}

/** A state as a badge: good, bad, or neutral (still going). */
export function StateBadge({ state }: { state: string }) {
  const tone = state === 'succeeded' || state === 'finished' ? 'good' : state === 'failed' ? 'bad' : '';
  return <span className={`badge ${tone}`}>{state}</span>;
}
