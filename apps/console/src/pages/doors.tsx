// Doors (docs/rest.md#third-party-doors): the workspace's third-party doors with
// the posts each answered, in one query; connecting one (its address shown once) and disconnecting.
import { useCallback } from 'react';
import { useQuery } from 'urql';
import { graphql } from '../graphql';
import { Page, Section } from '../ui/page';
import { Empty, Loaded } from '../ui/state';
import './doors/doors.css';
import { ConnectDoor } from './doors/connect-door';
import { DOOR_ENTRY, DoorEntry } from './doors/door-entry';

const DOORS = graphql(
  `
    query Doors {
      doors {
        id
        ...DoorEntry
      }
    }
  `,
  [DOOR_ENTRY],
);

export function DoorsPage() {
  const [result, reexecute] = useQuery({ query: DOORS, requestPolicy: 'cache-and-network' });
  const refresh = useCallback(() => reexecute({ requestPolicy: 'network-only' }), [reexecute]);
  return (
    <Page title="Doors">
      <p className="muted">
        Third-party systems post to a door's address; each post is verified with the door's own signature scheme.
      </p>
      <Section title="Connected doors">
        <Loaded result={result} what="Loading the doors">
          {(data) =>
            data.doors.length === 0 ? (
              <Empty>No doors connected yet: connect one below.</Empty>
            ) : (
              <ul className="doors" aria-label="Doors">
                {data.doors.map((door) => (
                  <DoorEntry key={door.id} entry={door} onChanged={refresh} />
                ))}
              </ul>
            )
          }
        </Loaded>
      </Section>
      <Section title="Connect a door">
        <ConnectDoor onConnected={refresh} />
      </Section>
    </Page>
  );
}
