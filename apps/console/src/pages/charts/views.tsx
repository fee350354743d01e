// The Charts page's three views, each its own URL: events over time, a funnel and retention; and the
// segment a funnel or retention is asked of (chart itself takes none).
import { Link, useRoute } from 'wouter';
import { useQuery } from 'urql';
import { graphql } from '../../graphql';
import { Select } from '../../ui/controls';

const VIEWS: [string, string][] = [
  ['/charts', 'Events over time'],
  ['/charts/funnel', 'Funnel'],
  ['/charts/retention', 'Retention'],
];

function View({ href, children }: { href: string; children: string }) {
  const [here] = useRoute(href);
  return (
    <Link href={href} aria-current={here ? 'page' : undefined}>
      {children}
    </Link>
  );
}

export function ChartViews() {
  return (
    <nav className="views" aria-label="Chart views">
      <ul>
        {VIEWS.map(([href, name]) => (
          <li key={href}>
            <View href={href}>{name}</View>
          </li>
        ))}
      </ul>
    </nav>
  );
}

const SEGMENTS = graphql(`
  query ChartSegments {
    segments {
      id
      name
    }
  }
`);

export function SegmentSelect({ value, onChange }: { value: string; onChange: (segment: string | null) => void }) {
  const [result] = useQuery({ query: SEGMENTS });
  const segments = result.data?.segments ?? [];
  return (
    <Select label="Segment" value={value} onChange={(e) => onChange(e.target.value || null)}>
      <option value="">Everyone</option>
      {value && !segments.some((s) => s.id === value) ? <option value={value}>{value}</option> : null}
      {segments.map((segment) => (
        <option key={segment.id} value={segment.id}>
          {segment.name}
        </option>
      ))}
    </Select>
  );
}
