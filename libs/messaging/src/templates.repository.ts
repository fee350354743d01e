// The only code here that queries templates.
import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource } from 'typeorm';

export interface TemplateRow {
  id: string;
  name: string;
  subject: string;
  body: string;
  created_at: Date;
}

@Injectable()
export class TemplatesRepository {
  constructor(@InjectDataSource() private readonly dataSource: DataSource) {}

  /** null when the workspace already has a template of that name. */
  async create(workspaceId: string, row: Omit<TemplateRow, 'created_at'>): Promise<TemplateRow | null> {
    const rows: TemplateRow[] = await this.dataSource.query(
      `INSERT INTO templates (workspace_id, id, name, subject, body) VALUES ($1, $2, $3, $4, $5)
       ON CONFLICT (workspace_id, name) DO NOTHING RETURNING id, name, subject, body, created_at`,
      [workspaceId, row.id, row.name, row.subject, row.body],
    );
    return rows[0] ?? null;
  }

  /** A template by id, else by name. */
  async byIdOrName(workspaceId: string, idOrName: string): Promise<TemplateRow | null> {
    const [row] = await this.dataSource.query(
      `SELECT id, name, subject, body, created_at FROM templates WHERE workspace_id = $1 AND (id = $2 OR name = $2)
        ORDER BY (id = $2) DESC LIMIT 1`,
      [workspaceId, idOrName],
    );
    return row ?? null;
  }

  list(workspaceId: string): Promise<TemplateRow[]> {
    return this.dataSource.query(
      `SELECT id, name, subject, body, created_at FROM templates WHERE workspace_id = $1 ORDER BY name`,
      [workspaceId],
    );
  }

  /** The template as changed; null when there is none of that id; 'taken' when another has the name. */
  async update(
    workspaceId: string,
    id: string,
    changes: { name?: string; subject?: string; body?: string },
  ): Promise<TemplateRow | null | 'taken'> {
    try {
      const [rows]: [TemplateRow[], number] = await this.dataSource.query(
        `UPDATE templates SET name = coalesce($3, name), subject = coalesce($4, subject), body = coalesce($5, body)
          WHERE workspace_id = $1 AND id = $2 RETURNING id, name, subject, body, created_at`,
        [workspaceId, id, changes.name ?? null, changes.subject ?? null, changes.body ?? null],
      );
      return rows[0] ?? null;
    } catch (error) {
      if ((error as { code?: string }).code === '23505') return 'taken';
      throw error;
    }
  }
}
