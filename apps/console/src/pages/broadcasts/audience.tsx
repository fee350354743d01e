// Who a broadcast goes to: a list's subscribers or a live segment's members, chosen by name with how many
// there are now (the audience itself is fixed when sending starts: docs/graphql.md#broadcasts).
import { useMemo } from 'react';
import { Link } from 'wouter';
import { useQuery } from 'urql';
import { graphql, ResultOf } from '../../graphql';
import { Checkbox } from '../../ui/checkbox';
import { Select } from '../../ui/controls';
import { Failed } from '../../ui/state';
import { countOf } from '../segments/fill';

const AUDIENCES = graphql(`
  query BroadcastAudiences {
    lists {
      id
      address
      name
      subscriberCount
    }
    segments {
      id
      name
      count
      filling
    }
  }
`);

type Audiences = ResultOf<typeof AUDIENCES>;

export interface Audience {
  kind: 'list' | 'segment';
  /** A list's address or a segment's id; '' until one is chosen. */
  value: string;
}

/** The audience's name and its count now, from the lists and segments; null while unknown. */
export function audienceNow(audiences: Audiences | undefined, audience: Audience) {
  if (audience.kind === 'list') {
    const list = audiences?.lists.find((l) => l.address === audience.value);
    return list
      ? { name: list.name, count: list.subscriberCount, words: `${countOf(list.subscriberCount)} subscribed now` }
      : null;
  }
  const segment = audiences?.segments.find((s) => s.id === audience.value);
  if (!segment) return null;
  const filling = segment.filling ? ' (still filling)' : '';
  return { name: segment.name, count: segment.count, words: `${countOf(segment.count)} in it now${filling}` };
}

export function useAudiences() {
  const [result] = useQuery({
    query: AUDIENCES,
    requestPolicy: 'cache-and-network',
    context: useMemo(() => ({ additionalTypenames: ['List', 'Segment'] }), []),
  });
  return result;
}

export function AudienceChoice({ audience, onChange }: { audience: Audience; onChange: (audience: Audience) => void }) {
  const result = useAudiences();
  const data = result.data;
  const now = audienceNow(data, audience);
  const options =
    audience.kind === 'list'
      ? (data?.lists ?? []).map((l) => [l.address, `${l.name} (${l.address})`])
      : (data?.segments ?? []).map((s) => [s.id, s.name]);
  const none = data && options.length === 0;
  return (
    <fieldset className="choices audience">
      <legend>Audience</legend>
      {result.error && !data ? <Failed error={result.error} /> : null}
      <div className="kinds">
        {(['list', 'segment'] as const).map((kind) => (
          <Checkbox
            key={kind}
            type="radio"
            name="broadcast-audience"
            label={kind === 'list' ? 'A list' : 'A segment'}
            checked={audience.kind === kind}
            onChange={() => onChange({ kind, value: '' })}
          />
        ))}
      </div>
      <Select
        label={audience.kind === 'list' ? 'List' : 'Segment'}
        required
        value={audience.value}
        onChange={(e) => onChange({ ...audience, value: e.target.value })}
      >
        <option value="">Choose…</option>
        {options.map(([value, label]) => (
          <option key={value} value={value}>
            {label}
          </option>
        ))}
      </Select>
      {none ? (
        <p className="hint">
          {audience.kind === 'list' ? (
            <>
              No lists yet: <Link href="/lists">create one in Lists</Link>.
            </>
          ) : (
            <>
              No segments yet: <Link href="/segments">define one in Segments</Link>.
            </>
          )}
        </p>
      ) : null}
      {now ? (
        <p className="audience-count" role="status" aria-label="Audience now">
          {now.words}
        </p>
      ) : null}
    </fieldset>
  );
}
