// Lists (docs/graphql.md#lists): each with its subscribers now, those waiting for a confirmation and
// those who left, by how and the latest of them, linking to the people subscribed (PeopleFilter.list
// takes the address); created with an address, a name and whether new subscribers confirm by email
// (double opt-in, turned on and off in each list's row), and renamed in place (the address forms post to stays).
import { FormEvent, useMemo, useState } from 'react';
import { Link } from 'wouter';
import { useMutation, useQuery } from 'urql';
import { refusalOf } from '../client';
import { graphql, ResultOf } from '../graphql';
import { Checkbox } from '../ui/checkbox';
import { ChangeButton, Field } from '../ui/controls';
import { Page, Section } from '../ui/page';
import { Alert, Empty, Loaded } from '../ui/state';
import { Time } from '../ui/time';
import { useChangeRight } from '../viewer';
import { DOUBLE_OPT_IN_LABEL, DoubleOptInToggle } from './lists/double-opt-in';
import './lists.css';

const LISTS = graphql(`
  query Lists {
    lists {
      id
      address
      name
      doubleOptIn
      subscriberCount
      pendingCount
      unsubscribedCount
      withdrawnBy {
        via
        count
      }
      withdrawals(first: 5) {
        person
        email
        withdrawnAt
        withdrawnVia
      }
    }
  }
`);

const CREATE = graphql(`
  mutation CreateList($input: CreateListInput!) {
    createList(input: $input) {
      id
      address
      name
      doubleOptIn
      subscriberCount
    }
  }
`);

const RENAME = graphql(`
  mutation RenameList($id: ID!, $name: String!) {
    renameList(id: $id, name: $name) {
      id
      name
    }
  }
`);

type List = ResultOf<typeof LISTS>['lists'][number];

function Rename({ list, onDone }: { list: List; onDone: () => void }) {
  const [name, setName] = useState(list.name);
  const [result, rename] = useMutation(RENAME);
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await rename({ id: list.id, name: name.trim() });
    if (!answer.error) onDone();
  };
  return (
    <form onSubmit={(e) => void submit(e)} className="inline-edit">
      <Field
        label={`New name for ${list.address}`}
        required
        maxLength={200}
        value={name}
        autoFocus
        onChange={(e) => setName(e.target.value)}
      />
      <div className="actions">
        <ChangeButton type="submit" disabled={result.fetching}>
          Save
        </ChangeButton>
        <button type="button" className="secondary" onClick={onDone}>
          Cancel
        </button>
      </div>
      <Alert refused={refusalOf(result.error)} />
    </form>
  );
}

/** Those who left the list, counted by how, and the latest of them. */
function Leavers({ list }: { list: List }) {
  const by = list.withdrawnBy.filter((w) => w.count > 0);
  if (by.length === 0) return <span className="muted">nobody</span>;
  return (
    <details>
      <summary>{by.map((w) => `${w.via.replace('_', '-')} ${w.count}`).join(', ')}</summary>
      <ul aria-label={`Latest to leave ${list.name}`}>
        {list.withdrawals.map((w) => (
          <li key={w.person}>
            <Link href={`/people/${encodeURIComponent(w.person)}`}>{w.email ?? w.person}</Link>{' '}
            <span className="muted">
              {w.withdrawnVia?.replace('_', '-')}, <Time value={w.withdrawnAt} />
            </span>
          </li>
        ))}
      </ul>
    </details>
  );
}

const READ_ONLY = 'lists-read-only';

function ListRow({ list }: { list: List }) {
  const [renaming, setRenaming] = useState(false);
  const right = useChangeRight();
  return (
    <tr>
      <td>
        {renaming ? (
          <Rename list={list} onDone={() => setRenaming(false)} />
        ) : (
          <Link href={`/people?list=${encodeURIComponent(list.address)}`} title={`People subscribed to ${list.name}`}>
            {list.name}
          </Link>
        )}
      </td>
      <td>
        <code>{list.address}</code>
      </td>
      <td className="number">{list.subscriberCount}</td>
      <td className="number">{list.pendingCount}</td>
      <td className="number">{list.unsubscribedCount}</td>
      <td>
        <Leavers list={list} />
      </td>
      <td>
        <DoubleOptInToggle list={list} describedBy={READ_ONLY} />
      </td>
      <td>
        {renaming ? null : (
          <button
            type="button"
            className="secondary"
            aria-label={`Rename ${list.name}`}
            disabled={!right.allowed}
            aria-describedby={right.allowed ? undefined : READ_ONLY}
            onClick={() => setRenaming(true)}
          >
            Rename
          </button>
        )}
      </td>
    </tr>
  );
}

function ListTable({ lists }: { lists: readonly List[] }) {
  const right = useChangeRight();
  if (lists.length === 0)
    return <Empty>No lists yet: create the first one below; forms then post to its address.</Empty>;
  return (
    <>
      {right.allowed ? null : (
        <p id={READ_ONLY} className="reason">
          {right.reason}
        </p>
      )}
      <table>
        <thead>
          <tr>
            <th scope="col">Name</th>
            <th scope="col">Address</th>
            <th scope="col" className="number">
              Subscribers
            </th>
            <th scope="col" className="number">
              Pending
            </th>
            <th scope="col" className="number">
              Unsubscribed
            </th>
            <th scope="col">Who left how</th>
            <th scope="col">Confirmation</th>
            <th scope="col">Actions</th>
          </tr>
        </thead>
        <tbody>
          {lists.map((list) => (
            <ListRow key={list.id} list={list} />
          ))}
        </tbody>
      </table>
    </>
  );
}

function NewList() {
  const [address, setAddress] = useState('');
  const [name, setName] = useState('');
  const [doubleOptIn, setDoubleOptIn] = useState(false);
  const [result, create] = useMutation(CREATE);
  const right = useChangeRight();
  const submit = async (e: FormEvent) => {
    e.preventDefault();
    const answer = await create({ input: { address: address.trim(), name: name.trim(), doubleOptIn } });
    if (answer.error) return;
    [setAddress, setName].forEach((clear) => clear(''));
    setDoubleOptIn(false);
  };
  return (
    <Section title="New list">
      <form onSubmit={(e) => void submit(e)}>
        <fieldset disabled={!right.allowed} className="plain">
          <Field
            label="Address"
            required
            maxLength={63}
            value={address}
            hint="1 to 63 of a-z, 0-9, _ . - (for example newsletter): forms post to it, and it never changes."
            onChange={(e) => setAddress(e.target.value)}
          />
          <Field label="Name" required maxLength={200} value={name} onChange={(e) => setName(e.target.value)} />
          <Checkbox
            label={DOUBLE_OPT_IN_LABEL}
            hint="Each new subscriber gets an email with a link and joins the list only once they confirm; until then they count as pending."
            checked={doubleOptIn}
            onChange={(e) => setDoubleOptIn(e.target.checked)}
          />
        </fieldset>
        <Alert refused={refusalOf(result.error)} />
        <ChangeButton type="submit" disabled={result.fetching}>
          Create list
        </ChangeButton>
      </form>
    </Section>
  );
}

export function ListsPage() {
  const [result] = useQuery({ query: LISTS, context: useMemo(() => ({ additionalTypenames: ['List'] }), []) });
  return (
    <Page title="Lists">
      <Loaded result={result} what="Loading lists">
        {(data) => <ListTable lists={data.lists} />}
      </Loaded>
      <NewList />
    </Page>
  );
}
