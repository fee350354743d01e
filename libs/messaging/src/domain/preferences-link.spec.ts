import {
  isOneClick,
  listUnsubscribeHeaders,
  openPreferencesLink,
  preferencesUrl,
  signPreferencesLink,
} from './preferences-link';

const SECRET = 'a-deployment-secret-of-at-least-32-characters';

describe('the preferences link: signed, per person, per workspace, and per list for mail sent to a list', () => {
  it('opens to the ids it was signed with', () => {
    const person = { workspaceId: 'ws_1', personId: 'per_01ABC' };
    expect(openPreferencesLink(signPreferencesLink(person, SECRET), SECRET)).toEqual(person);
    const listed = { ...person, listId: 'list_01XYZ' };
    expect(openPreferencesLink(signPreferencesLink(listed, SECRET), SECRET)).toEqual(listed);
  });

  it('refuses a token changed anywhere, signed under another secret, or not a token at all', () => {
    const token = signPreferencesLink({ workspaceId: 'ws_1', personId: 'per_1' }, SECRET);
    const [body, mac] = token.split('.');
    const other = Buffer.from('ws_1.per_2').toString('base64url');
    expect(openPreferencesLink(`${other}.${mac}`, SECRET)).toBeNull();
    expect(openPreferencesLink(`${body}.${mac.slice(0, -1)}A`, SECRET)).toBeNull();
    expect(openPreferencesLink(`${body}.${mac}.x`, SECRET)).toBeNull();
    expect(openPreferencesLink(token, `${SECRET}-rotated`)).toBeNull();
    for (const junk of ['', '.', 'abc', `${body}.`, 'x'.repeat(500)])
      expect(openPreferencesLink(junk, SECRET)).toBeNull();
  });

  it('a link to a list cannot be widened to every list by dropping the list', () => {
    const token = signPreferencesLink({ workspaceId: 'ws_1', personId: 'per_1', listId: 'list_1' }, SECRET);
    const [, mac] = token.split('.');
    expect(openPreferencesLink(`${Buffer.from('ws_1.per_1').toString('base64url')}.${mac}`, SECRET)).toBeNull();
  });

  it('is an address under BASE_URL, and the headers of RFC 2369 and RFC 8058 name it', () => {
    const url = preferencesUrl('https://lifeline.test/', { workspaceId: 'ws_1', personId: 'per_1' }, SECRET);
    expect(url).toMatch(/^https:\/\/lifeline\.test\/preferences\/[A-Za-z0-9_-]+\.[A-Za-z0-9_-]+$/);
    expect(listUnsubscribeHeaders(url)).toEqual({
      'List-Unsubscribe': `<${url}>`,
      'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
    });
  });

  it("reads RFC 8058's body, and only that, as one-click", () => {
    expect(isOneClick({ 'List-Unsubscribe': 'One-Click' })).toBe(true);
    expect(isOneClick({ 'List-Unsubscribe': 'one-click' })).toBe(false);
    expect(isOneClick({ form: 'preferences' })).toBe(false);
    expect(isOneClick(undefined)).toBe(false);
  });
});
