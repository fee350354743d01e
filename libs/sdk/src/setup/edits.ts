// The text edits of the setup command (libs/sdk/README.md#setup-for-a-nextjs-project), each a pure
// function from a file's text to its new text (or a refusal sentence), so each is tested alone.
import { VERSION } from '../version.js';

export const PACKAGE_NAME = '@lifeline/sdk';
const TAG_IMPORT = `import { LifelineTag } from '${PACKAGE_NAME}/react';`;
/** The settings the setup command writes: secret key, public key, url, public url. */
export const ENV_NAMES = [
  'LIFELINE_SECRET_KEY',
  'NEXT_PUBLIC_LIFELINE_KEY',
  'LIFELINE_URL',
  'NEXT_PUBLIC_LIFELINE_URL',
] as const;

export type Edit = { text: string } | { refusal: string };

/** Whether a layout or _app already renders the tag (a second run changes nothing). */
export function hasTag(source: string): boolean {
  return /<LifelineTag\b/.test(source);
}

/** The import after the last import statement (after a directive such as 'use client' when there is none). */
function addImport(source: string): string {
  if (source.includes(TAG_IMPORT)) return source;
  const imports = [...source.matchAll(/^import\s(?:[^;'"]*?\sfrom\s*)?['"][^'"\n]+['"];?[ \t]*$/gm)];
  const last = imports[imports.length - 1];
  if (last?.index !== undefined) {
    const end = last.index + last[0].length;
    return `${source.slice(0, end)}\n${TAG_IMPORT}${source.slice(end)}`;
  }
  const directive = /^\s*(['"])use (client|server)\1;?[ \t]*\n/.exec(source);
  const at = directive ? directive[0].length : 0;
  return `${source.slice(0, at)}${TAG_IMPORT}\n${at === 0 ? '\n' : ''}${source.slice(at)}`;
}

/** App router: <LifelineTag /> as the body's last child, and its import. */
export function addToLayout(source: string, file: string): Edit {
  const at = source.lastIndexOf('</body>');
  if (at < 0)
    return {
      refusal:
        `${file} has no </body>: put <LifelineTag /> inside your root layout's body yourself (see the package ` +
        `README), then run setup again.`,
    };
  const lineStart = source.lastIndexOf('\n', at - 1) + 1;
  const before = source.slice(lineStart, at);
  const withTag = /^[ \t]*$/.test(before)
    ? `${source.slice(0, lineStart)}${before}  <LifelineTag />\n${source.slice(lineStart)}`
    : `${source.slice(0, at)}<LifelineTag />${source.slice(at)}`;
  return { text: addImport(withTag) };
}

/** Pages router: the page and the tag side by side in a fragment, and the import. */
export function addToApp(source: string, file: string): Edit {
  const page = /<Component\s+\{\s*\.\.\.pageProps\s*\}\s*\/>/.exec(source);
  if (!page)
    return {
      refusal:
        `${file} does not render <Component {...pageProps} />: put <LifelineTag /> beside your page yourself ` +
        `(see the package README), then run setup again.`,
    };
  const withTag = `${source.slice(0, page.index)}<>${page[0]}<LifelineTag /></>${source.slice(page.index + page[0].length)}`;
  return { text: addImport(withTag) };
}

/** A pages/_app for a pages router project that has none. */
export function newApp(typescript: boolean): string {
  const signature = typescript ? '{ Component, pageProps }: AppProps' : '{ Component, pageProps }';
  return [
    ...(typescript ? ["import type { AppProps } from 'next/app';"] : []),
    TAG_IMPORT,
    '',
    `export default function App(${signature}) {`,
    '  return (',
    '    <>',
    '      <Component {...pageProps} />',
    '      <LifelineTag />',
    '    </>',
    '  );',
    '}',
    '',
  ].join('\n');
}

export interface PackageJson {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
  [key: string]: unknown;
}

/** The package in dependencies, keeping the file's indentation; null when it is already there. */
export function addDependency(text: string, pkg: PackageJson): string | null {
  if (pkg.dependencies?.[PACKAGE_NAME]) return null;
  const indent = /^[ \t]+(?=")/m.exec(text)?.[0] ?? '  ';
  const dependencies = { ...(pkg.dependencies ?? {}), [PACKAGE_NAME]: `^${VERSION}` };
  const sorted = Object.fromEntries(Object.entries(dependencies).sort(([a], [b]) => a.localeCompare(b)));
  return `${JSON.stringify({ ...pkg, dependencies: sorted }, null, indent)}${text.endsWith('\n') ? '\n' : ''}`;
}

/** Which of the four names a .env file already has, with or without a value. */
export function envNamesPresent(text: string): Set<string> {
  const present = new Set<string>();
  for (const name of ENV_NAMES) {
    if (new RegExp(`^[ \\t]*(?:export[ \\t]+)?${name}[ \\t]*=`, 'm').test(text)) present.add(name);
  }
  return present;
}

/** The missing names appended with empty values; a name already there keeps its line and value. */
export function appendEnvNames(text: string, missing: readonly string[]): string {
  if (missing.length === 0) return text;
  const lead = text === '' ? '' : text.endsWith('\n') ? '\n' : '\n\n';
  const lines = [
    '# Lifeline: the secret key (sk_live_) stays on the server; the public key (wk_) and the public url go to ' +
      'the browser tag.',
    ...missing.map((name) => `${name}=`),
  ];
  return `${text}${lead}${lines.join('\n')}\n`;
}
