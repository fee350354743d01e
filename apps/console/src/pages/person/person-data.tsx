// A person's data on request (docs/rest.md#a-persons-data-on-request) from their page: any member downloads it as the
// JSON document personExport answers (too large for one answer, the service's sentence names the REST download); owners
// and admins erase the person, asked once more on the page, and see what went from where.
import { useState } from 'react';
import { useClient, useMutation } from 'urql';
import { refusalOf, Refused } from '../../client';
import { graphql } from '../../graphql';
import { ConfirmStep } from '../../ui/confirm-step';
import { Section } from '../../ui/page';
import { Alert } from '../../ui/state';
import { useChangeRight } from '../../viewer';

const EXPORT = graphql(`
  query PersonExport($person: String!) {
    personExport(person: $person)
  }
`);

const ERASE = graphql(`
  mutation ErasePerson($person: String!) {
    erasePerson(person: $person) {
      id
      suppressedKeys
      tables {
        table
        rows
      }
    }
  }
`);

export interface Erased {
  id: string;
  suppressedKeys: number;
  tables: Array<{ table: string; rows: number }>;
}

export function PersonData({ personId, onErased }: { personId: string; onErased(erased: Erased): void }) {
  const client = useClient();
  const [downloading, setDownloading] = useState(false);
  const [refused, setRefused] = useState<Refused | null>(null);
  const [erasing, erase] = useMutation(ERASE);
  const right = useChangeRight();

  const download = async () => {
    setDownloading(true);
    const result = await client.query(EXPORT, { person: personId }, { requestPolicy: 'network-only' }).toPromise();
    setDownloading(false);
    setRefused(refusalOf(result.error));
    if (!result.data) return;
    const file = new Blob([JSON.stringify(result.data.personExport, null, 2)], { type: 'application/json' });
    const link = document.createElement('a');
    link.href = URL.createObjectURL(file);
    link.download = `${personId}.json`;
    link.click();
    URL.revokeObjectURL(link.href);
  };
  const confirmErase = async () => {
    // The people lists cached before name this person: they are read again.
    const result = await erase({ person: personId }, { additionalTypenames: ['Person'] });
    if (result.data) onErased(result.data.erasePerson);
  };

  return (
    <Section title="Data on request">
      <p className="muted">
        Everything Lifeline holds on this person, as one JSON document; or erase it all, for good.
      </p>
      <Alert refused={refused ?? refusalOf(erasing.error)} />
      <div className="actions">
        <button type="button" className="secondary" onClick={() => void download()} disabled={downloading}>
          {downloading ? 'Preparing…' : 'Download data'}
        </button>
        <ConfirmStep
          action="Erase person"
          question={
            'Erase this person, their timeline, emails and consent? Their ids are kept only as hashes, so later ' +
            'posts naming them are not recorded. This cannot be undone.'
          }
          confirmLabel="Yes, erase"
          disabled={!right.allowed || erasing.fetching}
          describedBy={right.allowed ? undefined : 'erase-reason'}
          onConfirm={() => void confirmErase()}
        />
        {right.allowed ? null : (
          <span id="erase-reason" className="reason">
            Only owners and admins can erase a person.
          </span>
        )}
      </div>
    </Section>
  );
}

/** What an erasure took, in place of the person's page. */
export function ErasedSummary({ erased }: { erased: Erased }) {
  const rows = erased.tables.reduce((sum, t) => sum + t.rows, 0);
  return (
    <div role="status">
      <p>
        Erased: {rows} {rows === 1 ? 'row' : 'rows'} from {erased.tables.length}{' '}
        {erased.tables.length === 1 ? 'table' : 'tables'}; {erased.suppressedKeys}{' '}
        {erased.suppressedKeys === 1 ? 'id' : 'ids'} now suppressed. The erasure is logged as {erased.id}.
      </p>
      <ul>
        {erased.tables.map((t) => (
          <li key={t.table}>
            {t.table}: {t.rows}
          </li>
        ))}
      </ul>
    </div>
  );
}
