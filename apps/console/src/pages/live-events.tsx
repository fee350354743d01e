// Live events: the workspace's events as they are recorded, by a cursor poll of liveEvents
// every 2 seconds (one poll at a time: the next starts 2 s after the last answer). The answer may repeat
// events already shown (its overlap window), so rows are kept by id; at most 200 are shown. Pause
// stops polling; Resume goes on from the same cursor, so what was recorded meanwhile arrives then.
import { useEffect, useRef, useState } from 'react';
import { Link } from 'wouter';
import { useClient } from 'urql';
import { Refused, refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { Page } from '../ui/page';
import { Alert, Empty, Loading } from '../ui/state';
import { Time } from '../ui/time';

const POLL_MS = 2_000;
const MOST_SHOWN = 200;

const LIVE_EVENTS = graphql(`
  query LiveEvents($after: String, $first: Int) {
    liveEvents(after: $after, first: $first) {
      cursor
      events {
        id
        type
        occurredAt
        receivedAt
        value
        person {
          id
          email
          name
        }
      }
    }
  }
`);

type LiveEvent = ResultOf<typeof LIVE_EVENTS>['liveEvents']['events'][number];

/** The rows shown after an answer: new ones added, repeats kept once, newest recorded first. */
function merged(shown: LiveEvent[], answered: LiveEvent[]): LiveEvent[] {
  const byId = new Map(shown.map((e) => [e.id, e]));
  for (const event of answered) byId.set(event.id, event);
  return [...byId.values()]
    .sort((a, b) => Date.parse(b.receivedAt) - Date.parse(a.receivedAt) || b.id.localeCompare(a.id))
    .slice(0, MOST_SHOWN);
}

interface Feed {
  events: LiveEvent[] | null;
  checkedAt: Date | null;
  refused: Refused | null;
}

/** Polls while not paused; a poll in flight when paused (or the page closed) is dropped. */
function useLiveEvents(paused: boolean): Feed {
  const client = useClient();
  const cursor = useRef<string | undefined>(undefined);
  const [feed, setFeed] = useState<Feed>({ events: null, checkedAt: null, refused: null });
  useEffect(() => {
    if (paused) return;
    let stopped = false;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const result = await client
        .query(LIVE_EVENTS, { after: cursor.current, first: 100 }, { requestPolicy: 'network-only' })
        .toPromise();
      if (stopped) return;
      const page = result.data?.liveEvents;
      if (page) cursor.current = page.cursor;
      setFeed((before) => ({
        events: page ? merged(before.events ?? [], page.events) : before.events,
        checkedAt: new Date(),
        refused: page ? null : refusalOf(result.error),
      }));
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [paused, client]);
  return feed;
}

export function LiveEventsPage() {
  const [paused, setPaused] = useState(false);
  const feed = useLiveEvents(paused);
  const pause = (
    <button type="button" className="secondary" aria-pressed={paused} onClick={() => setPaused(!paused)}>
      {paused ? 'Resume' : 'Pause'}
    </button>
  );
  return (
    <Page title="Live events" actions={pause}>
      {/* Only the live or paused state is announced; the time of the last check changes every 2 s and is not. */}
      <p className="muted">
        <span role="status">
          {paused
            ? 'Paused: no new events are read until you resume.'
            : 'Live: new events appear as they are recorded, checked every 2 seconds.'}
        </span>
        {feed.checkedAt ? <> Last checked at {feed.checkedAt.toLocaleTimeString()}.</> : null}
      </p>
      <Alert refused={feed.refused} />
      {feed.events === null ? (
        feed.refused ? null : (
          <Loading what="Reading the latest events" />
        )
      ) : feed.events.length === 0 ? (
        <Empty>No events in the last 15 minutes yet; post one and it shows here.</Empty>
      ) : (
        <EventTable events={feed.events} />
      )}
    </Page>
  );
}

function EventTable({ events }: { events: LiveEvent[] }) {
  return (
    <table aria-label="Events, newest first">
      <thead>
        <tr>
          <th scope="col">Recorded</th>
          <th scope="col">Type</th>
          <th scope="col">Person</th>
          <th scope="col" className="number">
            Value
          </th>
          <th scope="col">Occurred</th>
        </tr>
      </thead>
      <tbody>
        {events.map((event) => (
          <tr key={event.id}>
            <td>
              <Time value={event.receivedAt} />
            </td>
            <td>
              <span className="type">{event.type}</span>
            </td>
            <td>
              <Link href={`/people/${encodeURIComponent(event.person.id)}`}>
                {event.person.email ?? event.person.name ?? event.person.id}
              </Link>
            </td>
            <td className="number">{event.value ?? ''}</td>
            <td>
              <Time value={event.occurredAt} />
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}
