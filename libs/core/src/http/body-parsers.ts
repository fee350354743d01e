// Body limits of interface.md "Limits": 64 KB from servers and at the tool door, 8 KB from browsers
// and at automation addresses. Third-party doors keep the raw bytes: their signatures cover them.
import express, { NextFunction, Request, Response } from 'express';
import { Refusal } from '../errors/refusal';
import { sendRefusal } from './exceptions.filter';

const anyType = () => true;

export function installBodyParsers(app: { use: (...args: any[]) => unknown }): void {
  app.use('/api/webhooks', express.raw({ type: anyType, limit: '256kb' }));
  app.use('/api/in', express.json({ type: anyType, limit: '8kb', strict: false }));
  // A message body may hold 20,000 characters, which JSON escapes can make six times as many bytes.
  app.use('/api/v1/messages', express.json({ type: anyType, limit: '256kb', strict: false }));
  app.use('/api/v1', express.json({ type: anyType, limit: '64kb', strict: false }));
  app.use('/api/mcp', express.json({ type: anyType, limit: '64kb', strict: false }));
  app.use('/graphql', express.json({ limit: '1mb' }));
  app.use((error: { type?: string; limit?: number }, _req: Request, res: Response, next: NextFunction) => {
    if (error?.type === 'entity.too.large') {
      const kb = Math.round((error.limit ?? 0) / 1024);
      return sendRefusal(res, new Refusal('too_large', `The body is over ${kb} KB: send less, or split a batch.`));
    }
    if (error?.type === 'entity.parse.failed' || error?.type === 'encoding.unsupported' || error?.type === 'charset.unsupported') {
      return sendRefusal(res, new Refusal('invalid_json', 'The body is not valid JSON: send one JSON object.'));
    }
    next(error);
  });
}
