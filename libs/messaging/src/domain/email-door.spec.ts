import { MESSAGE_STATUSES, MessageStatus } from '@app/wire';
import { emailDoorCommand, htmlToText, mergeStatus, senderAddress } from './email-door';

const event = (type: string, data: Record<string, unknown>) => ({
  type,
  created_at: '2025-03-01T10:00:00.000Z',
  data: { email_id: 'e-1', from: 'Acme <hi@acme.test>', to: ['ada@example.com'], subject: 'Welcome', ...data },
});

describe("emailDoorCommand: delivery events set a message's status", () => {
  it.each([
    ['email.delivered', 'delivered'],
    ['email.opened', 'opened'],
    ['email.clicked', 'clicked'],
    ['email.complained', 'complained'],
  ])('%s -> status %s for the email_id', (type, status) => {
    expect(emailDoorCommand(event(type, {}))).toEqual({ kind: 'status', providerId: 'e-1', status });
  });
  it('email.bounced -> status bounced, permanent unless its bounce.type says Transient or Undetermined', () => {
    const bounced = (bounce?: unknown) => emailDoorCommand(event('email.bounced', bounce ? { bounce } : {}));
    expect(bounced()).toEqual({ kind: 'status', providerId: 'e-1', status: 'bounced', permanent: true });
    expect(bounced({ type: 'Permanent', subType: 'General' })).toMatchObject({ permanent: true });
    expect(bounced({ type: 'Transient', subType: 'MailboxFull' })).toMatchObject({
      status: 'bounced',
      permanent: false,
    });
  });
  it.each(['email.sent', 'email.delivery_delayed', 'email.failed', 'contact.created', 'domain.updated'])(
    'ignores %s',
    (type) => {
      expect(emailDoorCommand(event(type, {}))).toEqual({ kind: 'ignored' });
    },
  );
  it.each([null, [], 'x', { type: 'email.delivered' }, { type: 'email.delivered', data: {} }])(
    'ignores a malformed payload %p',
    (payload) => {
      expect(emailDoorCommand(payload)).toEqual({ kind: 'ignored' });
    },
  );
});

describe('emailDoorCommand: email.received records a reply', () => {
  it('takes the sender address, subject and text, and the In-Reply-To id without brackets', () => {
    const cmd = emailDoorCommand(
      event('email.received', {
        from: 'Ada Lovelace <Ada@Example.com>',
        subject: 'Re: Welcome',
        text: 'Thanks!',
        headers: { 'In-Reply-To': '<abc123@acme.test>' },
      }),
    );
    expect(cmd).toEqual({
      kind: 'reply',
      providerId: 'e-1',
      from: 'ada@example.com',
      subject: 'Re: Welcome',
      text: 'Thanks!',
      bodyMissing: false,
      inReplyToProviderId: 'abc123@acme.test',
    });
  });
  it("says the body is missing when the webhook carries none, as Resend's does", () => {
    expect(emailDoorCommand(event('email.received', { message_id: '<m@x>' }))).toMatchObject({
      kind: 'reply',
      text: '',
      bodyMissing: true,
    });
  });
  it('reads text out of an HTML-only reply', () => {
    expect(emailDoorCommand(event('email.received', { html: '<p>Thanks &amp; bye</p><p>Ada</p>' }))).toMatchObject({
      text: 'Thanks & bye\nAda',
      bodyMissing: false,
    });
  });
  it('ignores a reply whose sender is no email address', () => {
    expect(emailDoorCommand(event('email.received', { from: 'Mailer Daemon' }))).toEqual({ kind: 'ignored' });
  });
  it('keeps the subject on one line', () => {
    expect(emailDoorCommand(event('email.received', { subject: 'Re:\r\n Welcome', text: 'ok' }))).toMatchObject({
      subject: 'Re: Welcome',
    });
  });
});

describe('mergeStatus: delivered < opened < clicked; bounced and complained always win', () => {
  const cases: [MessageStatus | null, MessageStatus, MessageStatus][] = [
    [null, 'delivered', 'delivered'],
    ['delivered', 'opened', 'opened'],
    ['opened', 'delivered', 'opened'],
    ['clicked', 'opened', 'clicked'],
    ['clicked', 'delivered', 'clicked'],
    ['opened', 'clicked', 'clicked'],
    ['clicked', 'bounced', 'bounced'],
    ['opened', 'complained', 'complained'],
    ['bounced', 'delivered', 'bounced'],
    ['complained', 'clicked', 'complained'],
    ['bounced', 'complained', 'complained'],
  ];
  it.each(cases)('current %s + incoming %s -> %s', (current, incoming, expected) => {
    expect(mergeStatus(current, incoming)).toBe(expected);
  });
  it('always yields one of the statuses of the spec', () => {
    for (const a of MESSAGE_STATUSES)
      for (const b of MESSAGE_STATUSES) expect(MESSAGE_STATUSES).toContain(mergeStatus(a, b));
  });
});

describe('helpers', () => {
  it('senderAddress reads a bare or named address', () => {
    expect(senderAddress(' ADA@example.com ')).toBe('ada@example.com');
    expect(senderAddress('"Ada, L." <ada@example.com>')).toBe('ada@example.com');
    expect(senderAddress('nobody')).toBeNull();
  });
  it('htmlToText drops scripts and tags', () => {
    expect(htmlToText('<style>p{}</style><div>Hi<br>there</div>')).toBe('Hi\nthere');
  });
});
