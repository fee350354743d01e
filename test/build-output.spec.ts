// scripts/build.js: a name re-exported by `export * from` settles into a plain property of the barrel
// once its source module has run (what dist/ runs in production and in the benches), and nothing in
// apps/ or libs/ exports a binding that could change after that.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { transformSync } from '@swc/core';
import ts from 'typescript';
import { ROOT, sourceFiles } from './support/tables';

const { settledReexports } = require('../scripts/build.js') as {
  settledReexports: (code: string, source: string) => string;
};

/** A CommonJS module as scripts/build.js compiles it. */
function compile(source: string): string {
  const code = transformSync(source, {
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
    filename: 'x.ts',
  }).code;
  return settledReexports(code, 'x.ts');
}

/** The exported `let` and `var` statements of a file's text. */
function mutableExports(path: string, text: string): string[] {
  const file = ts.createSourceFile(path, text, ts.ScriptTarget.ES2022);
  return file.statements
    .filter((s): s is ts.VariableStatement => ts.isVariableStatement(s))
    .filter(
      (s) =>
        s.modifiers?.some((m) => m.kind === ts.SyntaxKind.ExportKeyword) &&
        !(s.declarationList.flags & ts.NodeFlags.Const),
    )
    .map((s) => s.declarationList.getText(file).slice(0, 40));
}

/** Runs compiled modules by name: `require('./a')` answers module a's exports. */
function load(modules: Record<string, string>): (name: string) => Record<string, unknown> {
  const cache = new Map<string, Record<string, unknown>>();
  const req = (name: string): Record<string, unknown> => {
    const key = name.replace('./', '');
    const cached = cache.get(key);
    if (cached) return cached;
    const exports: Record<string, unknown> = {};
    cache.set(key, exports);
    new Function('exports', 'require', compile(modules[key]))(exports, req);
    return exports;
  };
  return req;
}

describe('re-exports in dist/', () => {
  it('a name re-exported through two barrels reads as its value, then is a plain property holding it', () => {
    const req = load({
      a: 'export function f() { return 1; }\nexport const n = 2;',
      b: "export * from './a';",
      c: "export * from './b';",
    });
    const c = req('c');
    expect(Object.getOwnPropertyDescriptor(c, 'f')?.get).toBeInstanceOf(Function);
    expect((c.f as () => number)()).toBe(1);
    expect(Object.getOwnPropertyDescriptor(c, 'f')).toEqual({
      value: req('a').f,
      enumerable: true,
      writable: false,
      configurable: true,
    });
    expect(c.n).toBe(2);
    expect(Object.keys(c).sort()).toEqual(['f', 'n']);
  });

  it('a read before the source has its value (an import cycle) keeps the getter; the first read that finds it settles', () => {
    // The source's export as a cycle shows it: first in its temporal dead zone (the read throws), then
    // undefined, then its value.
    let state: 'loading' | 'undefined' | 'ready' = 'loading';
    const source = {};
    Object.defineProperty(source, 'late', {
      enumerable: true,
      get: () => {
        if (state === 'loading') throw new ReferenceError("Cannot access 'late' before initialization");
        return state === 'ready' ? 4 : undefined;
      },
    });
    const barrel: Record<string, unknown> = {};
    new Function('exports', 'require', compile("export * from './a';"))(barrel, () => source);
    const getter = () => Object.getOwnPropertyDescriptor(barrel, 'late')?.get;
    expect(() => barrel.late).toThrow(ReferenceError);
    expect(getter()).toBeInstanceOf(Function);
    state = 'undefined';
    expect(barrel.late).toBeUndefined();
    expect(getter()).toBeInstanceOf(Function);
    state = 'ready';
    expect(barrel.late).toBe(4);
    expect(Object.getOwnPropertyDescriptor(barrel, 'late')).toEqual({
      value: 4,
      enumerable: true,
      writable: false,
      configurable: true,
    });
  });

  it('refuses output whose helper it does not know, rather than leaving it slow unnoticed', () => {
    const changed =
      'function _export_star(from, to) { Object.keys(from).forEach((k) => Object.defineProperty(to, k, { get: () => from[k] })); }';
    expect(() => settledReexports(changed, 'x.ts')).toThrow(/update STAR_GETTER/);
  });

  it('no source exports a binding that can be reassigned (export let or var)', () => {
    const sources = ['apps', 'libs'].flatMap((top) => sourceFiles(join(ROOT, top), true));
    expect(
      sources.flatMap((path) =>
        mutableExports(path, readFileSync(path, 'utf8')).map((found) => `${relative(ROOT, path)}: ${found}`),
      ),
    ).toEqual([]);
  });

  it('finds an exported let, and not an exported const', () => {
    expect(mutableExports('x.ts', 'export let x = 1;')).toEqual(['let x = 1']);
    expect(mutableExports('x.ts', 'export var y = 1;')).toEqual(['var y = 1']);
    expect(mutableExports('x.ts', 'export const z = 1;\nlet w = 2;')).toEqual([]);
  });
});
