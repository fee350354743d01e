const FORMAT = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'medium' });

/** A moment in the reader's own time zone, the exact ISO time kept for machines and on hover. */
export function Time({ value }: { value: string | null | undefined }) {
  if (!value) return <span className="muted">never</span>;
  const date = new Date(value);
  return (
    <time dateTime={date.toISOString()} title={date.toISOString()}>
      {FORMAT.format(date)}
    </time>
  );
}
