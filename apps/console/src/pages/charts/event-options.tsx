// The events a question can name, as the chart page offers them: those this workspace has seen, then the
// built-in ones; a name asked for but not (yet) among them still shows, so the URL's question reads back.
import { graphql } from '../../graphql';

export const EVENT_NAMES = graphql(`
  query ChartEventNames {
    eventNames {
      name
      builtIn
    }
  }
`);

export type EventName = { name: string; builtIn: boolean };

export function EventOptions({ value, names }: { value: string; names: readonly EventName[] }) {
  const listed = names.some((n) => n.name === value);
  return (
    <>
      {value && !listed ? <option>{value}</option> : null}
      <optgroup label="Seen in this workspace">
        {names
          .filter((n) => !n.builtIn)
          .map((n) => (
            <option key={n.name}>{n.name}</option>
          ))}
      </optgroup>
      <optgroup label="Built-in">
        {names
          .filter((n) => n.builtIn)
          .map((n) => (
            <option key={n.name}>{n.name}</option>
          ))}
      </optgroup>
    </>
  );
}
