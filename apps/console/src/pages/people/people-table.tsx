// The people table: a person by email or name, an anonymous visitor by where they came from (their first touch),
// and the columns the list sorts by, each header a button that sorts by it (docs/console.md#people).
import { Link } from 'wouter';
import { stageName } from '../../ui/stage';
import { When } from '../../ui/time';
import './people.css';

export type SortKey = 'created' | 'last_seen' | 'revenue' | 'stage' | 'engaged';
export type Direction = 'asc' | 'desc';

export interface PersonLine {
  id: string;
  email?: string | null;
  name?: string | null;
  stage?: string | null;
  engaged: boolean;
  revenue: number;
  lastSeenAt: unknown;
  createdAt: unknown;
  firstTouch?: unknown;
}

type Touch = { source?: unknown; referrer?: unknown; path?: unknown; medium?: unknown };
const textOf = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

/** How an anonymous person reads: where they came from, else that they came straight in. */
function visitorName(firstTouch: unknown): { name: string; landing?: string } {
  const touch = (typeof firstTouch === 'object' && firstTouch !== null ? firstTouch : {}) as Touch;
  const from = textOf(touch.source) ?? textOf(touch.referrer);
  const landing = textOf(touch.path);
  if (from && from !== 'direct') return { name: `Visitor from ${from}`, landing };
  if (from === 'direct' || landing) return { name: 'Direct visitor', landing };
  return { name: 'Anonymous visitor' };
}

const MONEY = new Intl.NumberFormat('en', { maximumFractionDigits: 2 });

const COLUMNS: Array<{ key: SortKey; label: string; className?: string }> = [
  { key: 'stage', label: 'Stage' },
  { key: 'engaged', label: 'Engaged' },
  { key: 'revenue', label: 'Revenue', className: 'number' },
  { key: 'last_seen', label: 'Last seen' },
  { key: 'created', label: 'First seen', className: 'first-seen' },
];

function SortHeader(props: {
  column: (typeof COLUMNS)[number];
  sort: SortKey;
  direction: Direction;
  onSort: (key: SortKey, direction: Direction) => void;
}) {
  const { column, sort, direction, onSort } = props;
  const active = column.key === sort;
  const next: Direction = active && direction === 'desc' ? 'asc' : 'desc';
  return (
    <th
      scope="col"
      className={column.className}
      aria-sort={active ? (direction === 'desc' ? 'descending' : 'ascending') : undefined}
    >
      <button type="button" className="sort" onClick={() => onSort(column.key, next)}>
        {column.label}
        <span aria-hidden="true" className="sort-mark">
          {active ? (direction === 'desc' ? '▼' : '▲') : ''}
        </span>
      </button>
    </th>
  );
}

function Who({ person }: { person: PersonLine }) {
  const href = `/people/${encodeURIComponent(person.id)}`;
  if (person.email || person.name)
    return (
      <>
        <Link href={href}>{person.email ?? person.name}</Link>
        {person.email && person.name ? <span className="muted"> {person.name}</span> : null}
      </>
    );
  const visitor = visitorName(person.firstTouch);
  return (
    <>
      <Link href={href}>{visitor.name}</Link>
      {visitor.landing ? <span className="muted landing"> landed on {visitor.landing}</span> : null}
    </>
  );
}

export function PeopleTable(props: {
  people: readonly PersonLine[];
  sort: SortKey;
  direction: Direction;
  onSort: (key: SortKey, direction: Direction) => void;
}) {
  return (
    <div className="people-table" role="region" aria-label="People found" tabIndex={0}>
      <table>
        <thead>
          <tr>
            <th scope="col">Person</th>
            {COLUMNS.map((column) => (
              <SortHeader key={column.key} column={column} {...props} />
            ))}
          </tr>
        </thead>
        <tbody>
          {props.people.map((person) => (
            <tr key={person.id}>
              <td className="who">
                <Who person={person} />
              </td>
              <td>{stageName(person.stage)}</td>
              <td>{person.engaged ? 'Yes' : 'No'}</td>
              <td className="number">{MONEY.format(person.revenue)}</td>
              <td>
                <When value={person.lastSeenAt} />
              </td>
              <td className="first-seen">
                <When value={person.createdAt} />
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
