// The migrations of events's tables, oldest first (platform's migrate merges every lib's by timestamp).
import { EventsSchema1763856000005 } from './1763856000005-events-schema';
import { ChartIndex1764300100000 } from './1764300100000-chart-index';
import { ChartBucketStatistics1765000000000 } from './1765000000000-chart-bucket-statistics';
import { EventsTimelineKey1765300000000 } from './1765300000000-events-timeline-key';
import { EventsReceivedBrin1766100000000 } from './1766100000000-events-received-brin';
import { EventsByMonth1766300000000 } from './1766300000000-events-by-month';
import { EventsTouch1767200000000 } from './1767200000000-events-touch';
import { ChartRollups1767200000001 } from './1767200000001-chart-rollups';
import { ChartPeopleRollups1767200000002 } from './1767200000002-chart-people-rollups';
import { RollupMovedSkipsEmpty1767200000003 } from './1767200000003-rollup-moved-skips-empty';
import { ValueFromProperties1767340000000 } from './1767340000000-value-from-properties';
import { LiveSegments1767600000000 } from './1767600000000-live-segments';
import { EventsExportOrder1768047291513 } from './1768047291513-events-export-order';

export const EVENTS_MIGRATIONS = [
  EventsSchema1763856000005,
  ChartIndex1764300100000,
  ChartBucketStatistics1765000000000,
  EventsTimelineKey1765300000000,
  EventsReceivedBrin1766100000000,
  EventsByMonth1766300000000,
  EventsTouch1767200000000,
  ChartRollups1767200000001,
  ChartPeopleRollups1767200000002,
  RollupMovedSkipsEmpty1767200000003,
  ValueFromProperties1767340000000,
  LiveSegments1767600000000,
  EventsExportOrder1768047291513,
];
