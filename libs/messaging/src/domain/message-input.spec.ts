import { Refusal } from '@app/platform';
import { characterCount, parseSendMessage, SendMessageInput } from './message-input';

const ok = (raw: unknown): SendMessageInput => {
  const result = parseSendMessage(raw);
  if (result instanceof Refusal) throw new Error(`expected input, got ${result.code}: ${result.message}`);
  return result;
};
const refusal = (raw: unknown): Refusal => {
  const result = parseSendMessage(raw);
  if (!(result instanceof Refusal)) throw new Error(`expected a refusal, got ${JSON.stringify(result)}`);
  return result;
};
const plain = { subject: 'Hello', body: 'Welcome aboard' };

describe('parseSendMessage: the payload must be a JSON object', () => {
  it.each([null, [], 'text', 42, true])('refuses %p with invalid_json', (raw) => {
    expect(refusal(raw).code).toBe('invalid_json');
  });
});

describe('parseSendMessage: to is an email address or a record id', () => {
  it('normalizes an email address by trimming and lower-casing it', () => {
    expect(ok({ to: '  Ada@Example.COM ', ...plain }).to).toEqual({ kind: 'email', email: 'ada@example.com' });
  });
  it('takes a record id as an id', () => {
    expect(ok({ to: 'per_01J0000000000000000000000A', ...plain }).to).toEqual({
      kind: 'id',
      id: 'per_01J0000000000000000000000A',
    });
  });
  it('passes anything else that is not an email as an id, for the service to answer no_such_person', () => {
    expect(ok({ to: ' ada@nowhere ', ...plain }).to).toEqual({ kind: 'id', id: 'ada@nowhere' });
  });
  it.each([undefined, null, '', '   ', 7, {}])('refuses to=%p with invalid_field naming to', (to) => {
    const r = refusal({ to, ...plain });
    expect(r.code).toBe('invalid_field');
    expect(r.message).toMatch(/\bto\b/);
    expect(r.status).toBe(400);
  });
  it('refuses a to longer than 320 characters with invalid_field', () => {
    expect(refusal({ to: 'x'.repeat(321), ...plain }).code).toBe('invalid_field');
  });
});

describe('parseSendMessage: subject must be 2 to 200 characters when no template is named', () => {
  it.each([
    ['missing', undefined],
    ['not a string', 12],
    ['1 character', 'H'],
    ['only spaces', '     '],
    ['201 characters', 's'.repeat(201)],
  ])('refuses a subject that is %s with invalid_subject', (_label, subject) => {
    const r = refusal({ to: 'ada@example.com', subject, body: 'Welcome aboard' });
    expect(r.code).toBe('invalid_subject');
    expect(r.status).toBe(400);
  });
  it('accepts exactly 2 and exactly 200 characters', () => {
    expect(ok({ to: 'ada@example.com', subject: 'Hi', body: 'ok' }).subject).toBe('Hi');
    expect(ok({ to: 'ada@example.com', subject: 's'.repeat(200), body: 'ok' }).subject).toHaveLength(200);
  });
  it('counts characters, not UTF-16 units: 200 emoji are 200 characters', () => {
    expect(characterCount('😀😀')).toBe(2);
    expect(ok({ to: 'ada@example.com', subject: '😀'.repeat(200), body: 'ok' }).subject).toBe('😀'.repeat(200));
  });
  it('folds line breaks in a subject into one line', () => {
    expect(ok({ to: 'ada@example.com', subject: 'Hello\r\nBcc: eve@example.com', body: 'ok' }).subject).toBe(
      'Hello Bcc: eve@example.com',
    );
  });
});

describe('parseSendMessage: body must be 2 to 20,000 characters when no template is named', () => {
  it.each([
    ['missing', undefined],
    ['not a string', ['a']],
    ['1 character', 'x'],
    ['20,001 characters', 'b'.repeat(20_001)],
  ])('refuses a body that is %s with missing_body', (_label, body) => {
    const r = refusal({ to: 'ada@example.com', subject: 'Hello', body });
    expect(r.code).toBe('missing_body');
    expect(r.status).toBe(400);
  });
  it('accepts exactly 20,000 characters', () => {
    expect(ok({ to: 'ada@example.com', subject: 'Hello', body: 'b'.repeat(20_000) }).body).toHaveLength(20_000);
  });
  it('checks the subject before the body', () => {
    expect(refusal({ to: 'ada@example.com' }).code).toBe('invalid_subject');
  });
});

describe('parseSendMessage: a template replaces subject and body', () => {
  it('needs neither subject nor body when a template is named', () => {
    expect(ok({ to: 'ada@example.com', template: ' welcome ' })).toEqual({
      to: { kind: 'email', email: 'ada@example.com' },
      template: 'welcome',
    });
  });
  it("keeps a subject or body sent with a template as an override of the template's own", () => {
    expect(ok({ to: 'ada@example.com', template: 'welcome', subject: 'Hi there' })).toMatchObject({
      template: 'welcome',
      subject: 'Hi there',
    });
    expect(ok({ to: 'ada@example.com', template: 'welcome', subject: null, body: undefined })).not.toHaveProperty(
      'subject',
    );
  });
  it('checks an override by the same length rules', () => {
    expect(refusal({ to: 'ada@example.com', template: 'welcome', subject: 'H' }).code).toBe('invalid_subject');
    expect(refusal({ to: 'ada@example.com', template: 'welcome', body: 'b' }).code).toBe('missing_body');
  });
  it.each(['', '  ', 5, 't'.repeat(201)])('refuses template=%p with invalid_field naming template', (template) => {
    const r = refusal({ to: 'ada@example.com', template });
    expect(r.code).toBe('invalid_field');
    expect(r.message).toMatch(/template/);
  });
});
