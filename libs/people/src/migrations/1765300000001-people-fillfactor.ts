import { MigrationInterface, QueryRunner } from 'typeorm';

// People gets room on each page (fillfactor 85), so updating a person's counts or times,
// which changes no indexed column, can stay on the page (a HOT update) instead of adding to its three
// indexes. Split out of EventsPersonKey1765300000000 (a database that ran it counts this as run).
export class PeopleFillfactor1765300000001 implements MigrationInterface {
  name = 'PeopleFillfactor1765300000001';
  static readonly splitFrom = 'EventsPersonKey1765300000000';

  async up(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE people SET (fillfactor = 85)`);
  }

  async down(queryRunner: QueryRunner): Promise<void> {
    await queryRunner.query(`ALTER TABLE people RESET (fillfactor)`);
  }
}
