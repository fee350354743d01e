import type { MigrationInterface } from 'typeorm';
import { mergeMigrations, type Migration, migrationStates, splitRecords } from './migration-state';

const migration = (name: string, splitFrom?: string): Migration => {
  const made = class implements MigrationInterface {
    name = name;
    async up(): Promise<void> {}
    async down(): Promise<void> {}
  };
  return Object.assign(made, splitFrom ? { splitFrom } : {});
};

describe('every lib keeps its migrations; the runner merges them by timestamp', () => {
  const a1 = migration('PeopleSchema1763856000004');
  const b1 = migration('WorkspacesSchema1763856000001');
  const b2 = migration('KeyRecheck1765200000000');

  it('orders the lists by the timestamp each name ends with', () => {
    expect(mergeMigrations([a1], [b2, b1]).map((m) => new m().name)).toEqual([
      'WorkspacesSchema1763856000001',
      'PeopleSchema1763856000004',
      'KeyRecheck1765200000000',
    ]);
  });

  it('refuses two migrations with one timestamp, and a name without one', () => {
    expect(() => mergeMigrations([a1], [migration('Other1763856000004')])).toThrow('share the timestamp 1763856000004');
    expect(() => mergeMigrations([migration('NoStamp')])).toThrow('13-digit timestamp');
  });

  it('states which have run', () => {
    expect(migrationStates([b1, a1], ['WorkspacesSchema1763856000001'])).toEqual([
      { name: 'WorkspacesSchema1763856000001', applied: true },
      { name: 'PeopleSchema1763856000004', applied: false },
    ]);
  });
});

describe('a migration split out of one a database ran counts as run there', () => {
  const pieces = [
    migration('WorkspacesSchema1763856000001', 'InitialSchema1763856000000'),
    migration('PeopleSchema1763856000004', 'InitialSchema1763856000000'),
  ];
  const events = migration('EventsTimelineKey1765300000000', 'EventsPersonKey1765300000000');
  const people = migration('PeopleFillfactor1765300000001', 'EventsPersonKey1765300000000');
  const all = [...pieces, events, people];

  it('records the pieces in place of the old names', () => {
    expect(splitRecords(all, ['InitialSchema1763856000000', 'EventsPersonKey1765300000000'])).toEqual({
      insert: [
        { name: 'WorkspacesSchema1763856000001', timestamp: 1763856000001 },
        { name: 'PeopleSchema1763856000004', timestamp: 1763856000004 },
        { name: 'EventsTimelineKey1765300000000', timestamp: 1765300000000 },
        { name: 'PeopleFillfactor1765300000001', timestamp: 1765300000001 },
      ],
      remove: ['InitialSchema1763856000000', 'EventsPersonKey1765300000000'],
    });
  });

  it('records nothing on a database that never ran the old ones, and nothing again once they are gone', () => {
    expect(splitRecords(all, [])).toEqual({ insert: [], remove: [] });
    // A piece reverted later is pending, not recorded as run again.
    expect(
      splitRecords(all, [
        'WorkspacesSchema1763856000001',
        'PeopleSchema1763856000004',
        'EventsTimelineKey1765300000000',
      ]),
    ).toEqual({ insert: [], remove: [] });
  });

  it('counts the pieces as run where the old one ran, before they are recorded (npm run migrate -- --show)', () => {
    expect(migrationStates([...pieces, people], ['InitialSchema1763856000000']).map((m) => m.applied)).toEqual([
      true,
      true,
      false,
    ]);
  });

  it('refuses a split that keeps the old name', () => {
    expect(() => mergeMigrations([migration('EventsPersonKey1765300000000'), people])).toThrow('still a migration');
  });
});
