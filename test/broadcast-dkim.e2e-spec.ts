// DKIM signing (docs/email.md#what-lifeline-signs): with DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY set, a
// broadcast's email carries a DKIM-Signature that verifies against the public key and covers the list headers; the
// key is in no GraphQL answer.
import { generateKeyPairSync } from 'node:crypto';
import { eventually, useApp, useWorkspace } from './harness';
import { broadcastCalls, header } from './support/broadcasts';
import { verifyDkim } from './support/dkim';
import { useSmtp } from './support/smtp';

const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
const pem = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString();
const smtp = useSmtp();
const t = useApp({
  worker: true,
  env: () => ({
    SMTP_URL: smtp.url,
    EMAIL_FROM: 'Acme <news@mail.acme.test>',
    BROADCAST_MESSAGES_PER_SECOND: '0',
    DKIM_DOMAIN: 'mail.acme.test',
    DKIM_SELECTOR: 'lifeline1',
    DKIM_PRIVATE_KEY: pem.replace(/\n/g, '\\n'),
  }),
});
const ws = useWorkspace(t);
const b = broadcastCalls(t, () => ws.secretKey);

it('a broadcast email is signed with d= and s=, the signature verifies and covers List-Unsubscribe and List-Id', async () => {
  await b.gql('mutation { createList(input: { address: "news", name: "News" }) { id } }');
  await t.request('POST', '/api/v1/events', {
    key: ws.secretKey,
    body: { type: 'subscribe', email: 'ada@example.com', list: 'news', consent: { text: 'Yes.', ip: '198.51.100.7' } },
  });
  await b.setPostalAddress('Acme Ltd, 1 Main Street');
  const id = (await b.create({ name: 'Signed', list: 'news', subject: 'Hi', body: 'Hello **you**.' })).data
    .createBroadcast.id;
  await b.send(id);
  const mail = await eventually(async () => smtp.received.find((m) => m.to.includes('ada@example.com')));
  expect(header(mail, 'DKIM-Signature')).toBeDefined();
  const check = verifyDkim(mail.raw, publicKey);
  expect(check.tags).toMatchObject({ a: 'rsa-sha256', d: 'mail.acme.test', s: 'lifeline1' });
  expect(check.bodyHashMatches).toBe(true);
  expect(check.signatureVerifies).toBe(true);
  const signed = check.tags.h.toLowerCase().split(':');
  expect(signed).toEqual(expect.arrayContaining(['from', 'subject', 'message-id', 'list-unsubscribe', 'list-id']));
  // A changed header breaks it.
  const tampered = mail.raw.replace(/^Subject: Hi/m, 'Subject: Ho');
  expect(verifyDkim(tampered, publicKey).signatureVerifies).toBe(false);
  // The key is in no answer: the workspace and the broadcast say nothing of it.
  const answer = await b.gql(
    '{ workspace { id name postalAddress } broadcasts { edges { node { id subject body } } } }',
  );
  expect(JSON.stringify(answer)).not.toContain(pem.split('\n')[1]);
});
