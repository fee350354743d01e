// Whether email may go to the person: an opt-out (the unsubscribe link, a spam complaint) or an address a permanent
// bounce marked undeliverable, each with when and how, and an owner's or admin's button that lifts it.
import { useMutation } from 'urql';
import { refusalOf } from '../../client';
import { FragmentOf, graphql, readFragment } from '../../graphql';
import { ChangeButton } from '../../ui/controls';
import { Section } from '../../ui/page';
import { Alert, Empty } from '../../ui/state';
import { Time } from '../../ui/time';

export const PERSON_EMAIL_STANDING = graphql(`
  fragment PersonEmailStanding on Person {
    id
    emailStanding {
      optOut {
        at
        via
      }
      undeliverable {
        address
        at
      }
    }
  }
`);

const LIFT_OPT_OUT = graphql(`
  mutation LiftEmailOptOut($person: String!) {
    liftEmailOptOut(person: $person) {
      optOut {
        at
      }
    }
  }
`);

const LIFT_UNDELIVERABLE = graphql(`
  mutation LiftUndeliverable($person: String!) {
    liftUndeliverable(person: $person) {
      undeliverable {
        at
      }
    }
  }
`);

const VIA: Record<string, string> = {
  one_click: 'with the unsubscribe link of an email',
  complaint: 'by reporting an email as spam',
};

export function EmailStanding({
  person: data,
  onLifted,
}: {
  person: FragmentOf<typeof PERSON_EMAIL_STANDING>;
  onLifted(): void;
}) {
  const person = readFragment(PERSON_EMAIL_STANDING, data);
  const { optOut, undeliverable } = person.emailStanding;
  const [liftingOptOut, liftOptOut] = useMutation(LIFT_OPT_OUT);
  const [liftingMark, liftMark] = useMutation(LIFT_UNDELIVERABLE);
  const lift = async (run: (vars: { person: string }) => Promise<{ data?: unknown }>) => {
    if ((await run({ person: person.id })).data) onLifted();
  };
  return (
    <Section title="Email">
      {!optOut && !undeliverable ? <Empty>Email may be sent to this person.</Empty> : null}
      {optOut ? (
        <div className="standing">
          <p>
            Opted out of email on <Time value={optOut.at} /> {VIA[optOut.via] ?? `(${optOut.via})`}: sends are refused
            until they subscribe to a list again.
          </p>
          <Alert refused={refusalOf(liftingOptOut.error)} />
          <ChangeButton type="button" disabled={liftingOptOut.fetching} onClick={() => void lift(liftOptOut)}>
            Lift the opt-out
          </ChangeButton>
        </div>
      ) : null}
      {undeliverable ? (
        <div className="standing">
          <p>
            <code>{undeliverable.address}</code> is undeliverable: it bounced permanently on{' '}
            <Time value={undeliverable.at} />. Sends are refused until the person has another address.
          </p>
          <Alert refused={refusalOf(liftingMark.error)} />
          <ChangeButton type="button" disabled={liftingMark.fetching} onClick={() => void lift(liftMark)}>
            Lift the undeliverable mark
          </ChangeButton>
        </div>
      ) : null}
    </Section>
  );
}
