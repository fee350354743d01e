// libs/sdk/README.md#versions: the package's own version, kept equal to package.json (version.spec.ts).
// 0.2.0 added only the setup command; methods, answers and options are those of 0.1.0.
export const VERSION = '0.2.0';
