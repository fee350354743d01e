// A person: name or email as the heading; the summary (stage, value, last seen, first touch) beside the timeline
// on a wide screen, above it on a narrow one (docs/console.md#a-persons-page); identities, fields, segments,
// subscriptions with their consent, email standing, emails and the person's data on request, all in one query.
// The timeline's kinds are in the URL (?types=purchase,note); sending an email and adding a note re-read it.
import { useState } from 'react';
import { useSearchParams } from 'wouter';
import { useQuery } from 'urql';
import { graphql } from '../graphql';
import { Page } from '../ui/page';
import { Empty, Loaded } from '../ui/state';
import { Facts, PERSON_FACTS } from './person/identity-facts';
import { PERSON_SUMMARY, Summary } from './person/summary';
import { PERSON_SEGMENTS, SegmentChips } from './person/segment-chips';
import { PERSON_SUBSCRIPTIONS, Subscriptions } from './person/subscriptions';
import { Timeline, TIMELINE_PAGE, TIMELINE_PAGE_SIZE, typesOf } from './person/timeline';
import { Emails, PERSON_EMAILS } from './person/emails';
import { EmailStanding, PERSON_EMAIL_STANDING } from './person/email-standing';
import { NoteForm } from './person/note-form';
import { Erased, ErasedSummary, PersonData } from './person/person-data';
import './person/person.css';

const PERSON = graphql(
  `
    query Person($id: String!, $first: Int, $types: [String!]) {
      person(id: $id) {
        id
        email
        name
        ...PersonSummary
        ...PersonFacts
        ...PersonSegments
        ...PersonSubscriptions
        ...PersonEmails
        ...PersonEmailStanding
        timelineKinds {
          type
          count
        }
        timeline(first: $first, types: $types) {
          ...TimelinePage
        }
      }
    }
  `,
  [
    PERSON_SUMMARY,
    PERSON_FACTS,
    PERSON_SEGMENTS,
    PERSON_SUBSCRIPTIONS,
    PERSON_EMAILS,
    PERSON_EMAIL_STANDING,
    TIMELINE_PAGE,
  ],
);

export function PersonPage({ id }: { id: string }) {
  const [params, setParams] = useSearchParams();
  const setTypes = (next: string[]) =>
    setParams((now) => {
      const changed = new URLSearchParams(now);
      if (next.length) changed.set('types', next.join(','));
      else changed.delete('types');
      return changed;
    });
  return <PersonAnswer id={id} types={typesOf(params.get('types'))} setTypes={setTypes} />;
}

// The query sits below the URL's reader (see people.tsx: urql's state update while rendering would
// leave useSearchParams of the same component blind to a return to an earlier URL).
function PersonAnswer({ id, types, setTypes }: { id: string; types: string[]; setTypes(types: string[]): void }) {
  const [result, reexecute] = useQuery({
    query: PERSON,
    variables: { id, first: TIMELINE_PAGE_SIZE, types: types.length ? types : undefined },
  });
  const reread = () => reexecute({ requestPolicy: 'network-only' });
  const [erased, setErased] = useState<Erased | null>(null);
  if (erased)
    return (
      <Page title="Person erased">
        <ErasedSummary erased={erased} />
      </Page>
    );
  return (
    <Loaded result={result} what="Loading the person">
      {({ person }) =>
        person ? (
          <Page title={person.name ?? person.email ?? person.id}>
            <div className="person-layout">
              <div className="person-side">
                <Summary person={person} />
              </div>
              <div className="person-main">
                <Timeline
                  personId={person.id}
                  types={types}
                  kinds={person.timelineKinds}
                  firstPage={person.timeline}
                  onTypes={setTypes}
                >
                  <NoteForm personId={person.id} onAdded={reread} />
                </Timeline>
                <Emails personId={person.id} person={person} onSent={reread} />
              </div>
              <div className="person-more">
                <SegmentChips person={person} />
                <Facts person={person} />
                <Subscriptions person={person} />
                <EmailStanding person={person} onLifted={reread} />
                <PersonData personId={person.id} onErased={setErased} />
              </div>
            </div>
          </Page>
        ) : (
          <Page title="No such person">
            <Empty>
              No one in this workspace has the id {id}; they may have been merged into another person or erased.
            </Empty>
          </Page>
        )
      }
    </Loaded>
  );
}
