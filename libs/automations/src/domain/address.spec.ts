import { createHmac } from 'node:crypto';
import { deriveWorkspaceStepSecret as stepSecret, signAutomationAddress as addressSignature } from '@app/webhooks';
import { automationAddress, verifiedAutomationId } from './address';

const SECRET = 'app-secret-0123456789-0123456789-0123';

describe('the automation address signature (docs/graphql.md#automations)', () => {
  it('is the base64url HMAC-SHA256 under APP_SECRET of automation:{id}', () => {
    const expected = createHmac('sha256', SECRET).update('automation:aut_1').digest('base64url');
    expect(addressSignature(SECRET, 'aut_1')).toBe(expected);
    expect(automationAddress('https://x.test', SECRET, 'aut_1')).toBe(
      `https://x.test/api/webhooks/automation/aut_1.${expected}`,
    );
  });

  it('a correct address names its automation', () => {
    expect(verifiedAutomationId(SECRET, `aut_1.${addressSignature(SECRET, 'aut_1')}`)).toBe('aut_1');
  });

  it.each([
    ["another automation's signature", `aut_2.${addressSignature(SECRET, 'aut_1')}`],
    ['a signature under another secret', `aut_1.${addressSignature('other-secret-0123456789-0123456789', 'aut_1')}`],
    ['a shortened signature', `aut_1.${addressSignature(SECRET, 'aut_1').slice(0, -2)}`],
    [
      'a signature with a character changed',
      `aut_1.${addressSignature(SECRET, 'aut_1').replace(/^./, (c) => (c === 'A' ? 'B' : 'A'))}`,
    ],
    ['a signature padded with =', `aut_1.${addressSignature(SECRET, 'aut_1')}=`],
    ['no signature', 'aut_1.'],
    ['no dot', 'aut_1'],
    ['no id', `.${addressSignature(SECRET, '')}`],
  ])('is refused: %s', (_name, part) => {
    expect(verifiedAutomationId(SECRET, part)).toBeNull();
  });
});

describe('the workspace step secret (docs/webhooks.md#automation-posts)', () => {
  it('is whsec_ and the base64url HMAC-SHA256 under APP_SECRET of step:{workspace_id}', () => {
    const expected = 'whsec_' + createHmac('sha256', SECRET).update('step:ws_1').digest('base64url');
    expect(stepSecret(SECRET, 'ws_1')).toBe(expected);
    expect(stepSecret(SECRET, 'ws_2')).not.toBe(expected);
  });
});
