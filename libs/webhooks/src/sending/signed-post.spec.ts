// The headers of every signed post: the spec's X-Service-* and the Standard Webhooks ones.
import { Webhook } from 'standardwebhooks';
import { signBody } from '../domain/signature';
import { signedHeaders } from './signed-post';

const secret = 'whsec_' + Buffer.alloc(24, 3).toString('base64');
const previous = 'whsec_' + Buffer.alloc(24, 4).toString('base64');
const post = { id: 'dlv_01', type: 'event', body: '{"id":"dlv_01","type":"event"}' };

describe('signed post headers', () => {
  it('carry the spec headers and the Standard Webhooks headers, verifiable with the standardwebhooks package', () => {
    const headers = signedHeaders(post, { secret }, 1_700_000_000_500);
    expect(headers).toMatchObject({
      'X-Service-Delivery': 'dlv_01',
      'X-Service-Event': 'event',
      'X-Service-Signature': signBody(secret, post.body),
      'webhook-id': 'dlv_01',
      'webhook-timestamp': '1700000000',
    });
    jest.spyOn(Date, 'now').mockReturnValueOnce(1_700_000_010_000);
    expect(new Webhook(secret).verify(post.body, headers)).toEqual(JSON.parse(post.body));
  });

  it('during a rotation both secrets verify, and X-Service-Signature stays under the previous one', () => {
    const headers = signedHeaders(post, { secret, previous }, Date.now());
    expect(headers['webhook-signature'].split(' ')).toHaveLength(2);
    expect(() => new Webhook(secret).verify(post.body, headers)).not.toThrow();
    expect(() => new Webhook(previous).verify(post.body, headers)).not.toThrow();
    expect(headers['X-Service-Signature']).toBe(signBody(previous, post.body));
  });
});
