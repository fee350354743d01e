// docs/website-tag.md and libs/sdk/README.md#the-website-tag-lifelinetag: LifelineTag, rendered to HTML.
import { createElement, FunctionComponent, ReactElement } from 'react';
import { LifelineTag, LifelineTagProps } from './react';

// react-dom ships without types here (no @types/react-dom); this is the one function the spec needs.
const { renderToStaticMarkup } = require('react-dom/server') as { renderToStaticMarkup(element: ReactElement): string };

const PUBLIC_KEY = 'wk_0123456789abcdefghijklmn';
const render = (props: LifelineTagProps = {}) =>
  renderToStaticMarkup(createElement(LifelineTag as FunctionComponent<LifelineTagProps>, props));

let errors: jest.SpyInstance;
beforeEach(() => {
  errors = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  delete process.env.NEXT_PUBLIC_LIFELINE_KEY;
  delete process.env.NEXT_PUBLIC_LIFELINE_URL;
});
afterEach(() => errors.mockRestore());

it('renders the tag script {url}/api/in/{publicKey}/track.js from its props', () => {
  expect(render({ publicKey: PUBLIC_KEY, url: 'https://lifeline.acme.test/' })).toBe(
    `<script src="https://lifeline.acme.test/api/in/${PUBLIC_KEY}/track.js" async=""></script>`,
  );
  expect(errors).not.toHaveBeenCalled();
});

it('reads NEXT_PUBLIC_LIFELINE_KEY and NEXT_PUBLIC_LIFELINE_URL when no props are given', () => {
  process.env.NEXT_PUBLIC_LIFELINE_KEY = PUBLIC_KEY;
  process.env.NEXT_PUBLIC_LIFELINE_URL = 'https://events.acme.test';
  expect(render()).toBe(`<script src="https://events.acme.test/api/in/${PUBLIC_KEY}/track.js" async=""></script>`);
});

it("props win over the environment; without any url the service's default address is used", () => {
  process.env.NEXT_PUBLIC_LIFELINE_KEY = 'wk_fromtheenvironment000000';
  expect(render({ publicKey: PUBLIC_KEY })).toContain(`src="http://localhost:3000/api/in/${PUBLIC_KEY}/track.js"`);
});

it.each([
  ['as a prop', { publicKey: 'sk_live_0123456789abcdefghijklmnopqrstuv' }, undefined],
  ['in NEXT_PUBLIC_LIFELINE_KEY', {}, 'sk_live_0123456789abcdefghijklmnopqrstuv'],
])('given a secret key %s, renders nothing and says why in the console', (_, props, env) => {
  if (env) process.env.NEXT_PUBLIC_LIFELINE_KEY = env;
  expect(render(props)).toBe('');
  expect(errors).toHaveBeenCalledTimes(1);
  expect(errors.mock.calls[0][0]).toMatch(
    /secret key \(sk_live_…\), which must never reach a browser.*public key \(wk_…\)/,
  );
  expect(errors.mock.calls[0][0]).not.toContain('0123456789');
});

it('with no key at all, renders nothing and names the setting', () => {
  expect(render()).toBe('');
  expect(errors.mock.calls[0][0]).toMatch(/NEXT_PUBLIC_LIFELINE_KEY/);
});

it("a url that is already the workspace's public address ({url}/api/in/wk_…) is used as it is", () => {
  expect(render({ url: `https://lifeline.acme.test/api/in/${PUBLIC_KEY}/` })).toBe(
    `<script src="https://lifeline.acme.test/api/in/${PUBLIC_KEY}/track.js" async=""></script>`,
  );
  process.env.NEXT_PUBLIC_LIFELINE_URL = `https://lifeline.acme.test/api/in/${PUBLIC_KEY}`;
  expect(render()).toContain(`src="https://lifeline.acme.test/api/in/${PUBLIC_KEY}/track.js"`);
  expect(errors).not.toHaveBeenCalled();
});

it('a public address holding a secret key renders nothing either', () => {
  expect(render({ url: 'https://lifeline.acme.test/api/in/sk_live_0123456789abcdefghijklmnopqrstuv' })).toBe('');
  expect(errors.mock.calls[0][0]).toMatch(/secret key/);
});
