// JSON Schemas of what the REST routes take and answer, read by the TypeScript compiler from the types
// the code itself uses (the wire module, libs/wire/src/index.ts, and the doors' answer types), so the
// OpenAPI document (apps/api/src/openapi.ts) never holds a second copy of a shape. `npm run schema`
// writes them to apps/api/src/openapi.schemas.json; test/openapi.e2e-spec.ts fails when they drift.
import { resolve } from 'node:path';
import ts from 'typescript';

export type JsonSchema = Record<string, unknown>;

export const SCHEMAS_FILE = resolve(__dirname, '../apps/api/src/openapi.schemas.json');

/** Every exported interface and type of the wire module, and these answer types of other libs. */
const WIRE = 'libs/wire/src/index.ts';
const MORE: Array<[file: string, type: string]> = [
  ['libs/integrations/src/door-intake.service.ts', 'DoorAnswer'],
  ['libs/automations/src/start.service.ts', 'StartAnswer'],
  ['libs/automations/src/domain/start-body.ts', 'WireAutomationStart'],
  ['libs/messaging/src/email-door.service.ts', 'EmailDoorAnswer'],
  ['libs/events/src/http/events-description.ts', 'EventsDescription'],
  ['libs/events/src/export/export-range.ts', 'WireEventsExportQuery'],
  ['libs/events/src/export/export-line.ts', 'ExportedEvent'],
];

export function wireSchemas(): Record<string, JsonSchema> {
  const root = resolve(__dirname, '..');
  const files = [WIRE, ...MORE.map(([file]) => file)].map((file) => resolve(root, file));
  const program = ts.createProgram(files, {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    types: [],
    noEmit: true,
    skipLibCheck: true,
  });
  const checker = program.getTypeChecker();
  const exportsOf = (file: string) =>
    checker.getExportsOfModule(checker.getSymbolAtLocation(program.getSourceFile(resolve(root, file))!)!);
  const named = new Map<ts.Symbol, string>();
  for (const symbol of exportsOf(WIRE))
    if (symbol.flags & (ts.SymbolFlags.Interface | ts.SymbolFlags.TypeAlias)) named.set(symbol, symbol.name);
  for (const [file, type] of MORE) {
    const symbol = exportsOf(file).find((s) => s.name === type);
    if (!symbol) throw new Error(`${file} exports no type ${type}.`);
    named.set(symbol, type);
  }
  const convert = converter(checker, named);
  const schemas: Record<string, JsonSchema> = {};
  for (const [symbol, name] of [...named].sort((a, b) => a[1].localeCompare(b[1]))) {
    const schema = convert(checker.getDeclaredTypeOfSymbol(symbol), true);
    const description = ts.displayPartsToString(symbol.getDocumentationComment(checker)).trim();
    schemas[name] = description ? { description, ...schema } : schema;
  }
  return schemas;
}

function converter(checker: ts.TypeChecker, named: Map<ts.Symbol, string>) {
  const ref = (name: string) => ({ $ref: `#/components/schemas/${name}` });
  const literal = (type: ts.Type) =>
    type.flags & (ts.TypeFlags.StringLiteral | ts.TypeFlags.NumberLiteral) ? (type as ts.LiteralType).value : undefined;

  /** A named type used with its declared (or default) arguments is a reference to its schema. */
  function reference(type: ts.Type): JsonSchema | null {
    if (type.aliasSymbol && named.has(type.aliasSymbol) && !type.aliasTypeArguments?.length)
      return ref(named.get(type.aliasSymbol)!);
    const symbol = type.getSymbol();
    if (!symbol || !named.has(symbol) || !(symbol.flags & ts.SymbolFlags.Interface)) return null;
    const args = checker.getTypeArguments(type as ts.TypeReference);
    const params = (checker.getDeclaredTypeOfSymbol(symbol) as ts.InterfaceType).typeParameters ?? [];
    const defaults = args.every((arg, i) => params[i] && checker.getDefaultFromTypeParameter(params[i]) === arg);
    if (!defaults)
      throw new Error(`${symbol.name} is used with type arguments of its own: give that use a name of its own.`);
    return ref(named.get(symbol)!);
  }

  function convert(type: ts.Type, top = false): JsonSchema {
    if (!top) {
      const found = reference(type);
      if (found) return found;
    }
    const f = type.flags;
    if (f & (ts.TypeFlags.Any | ts.TypeFlags.Unknown)) return {};
    if (f & ts.TypeFlags.TypeParameter)
      return convert(checker.getBaseConstraintOfType(type) ?? checker.getUnknownType());
    if (f & ts.TypeFlags.String) return { type: 'string' };
    if (f & ts.TypeFlags.Number) return { type: 'number' };
    if (f & ts.TypeFlags.Boolean) return { type: 'boolean' };
    if (f & ts.TypeFlags.Null) return { type: 'null' };
    if (f & ts.TypeFlags.StringLiteral) return { type: 'string', const: literal(type) };
    if (f & ts.TypeFlags.NumberLiteral) return { type: 'number', const: literal(type) };
    if (f & ts.TypeFlags.BooleanLiteral) return { type: 'boolean', const: checker.typeToString(type) === 'true' };
    if (type.isUnion()) return union(type.types.filter((t) => !(t.flags & ts.TypeFlags.Undefined)));
    if (type.isIntersection()) return { allOf: type.types.map((t) => convert(t)) };
    if (checker.isArrayType(type))
      return { type: 'array', items: convert(checker.getTypeArguments(type as ts.TypeReference)[0]) };
    if (f & ts.TypeFlags.Object) return object(type);
    throw new Error(`No JSON Schema for the type ${checker.typeToString(type)}.`);
  }

  function union(members: ts.Type[]): JsonSchema {
    if (members.length === 1) return convert(members[0]);
    if (members.every((t) => t.flags & ts.TypeFlags.StringLiteral))
      return { type: 'string', enum: members.map(literal) };
    const booleans = members.filter((t) => t.flags & ts.TypeFlags.BooleanLiteral);
    const rest = booleans.length === 2 ? members.filter((t) => !booleans.includes(t)) : members;
    const schemas = [...(booleans.length === 2 ? [{ type: 'boolean' }] : []), ...rest.map((t) => convert(t))];
    return schemas.length === 1 ? schemas[0] : { anyOf: schemas };
  }

  function object(type: ts.Type): JsonSchema {
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const property of checker.getPropertiesOfType(type)) {
      const schema = convert(checker.getTypeOfSymbol(property));
      const description = ts.displayPartsToString(property.getDocumentationComment(checker)).trim();
      properties[property.name] = description ? { description, ...schema } : schema;
      if (!(property.flags & ts.SymbolFlags.Optional)) required.push(property.name);
    }
    const index = checker.getIndexInfosOfType(type).find((info) => info.keyType.flags & ts.TypeFlags.String);
    return {
      type: 'object',
      ...(Object.keys(properties).length ? { properties } : {}),
      ...(required.length ? { required } : {}),
      ...(index ? { additionalProperties: convert(index.type) } : {}),
    };
  }

  return convert;
}

/** The file's content, as `npm run schema` writes it. */
export function wireSchemasText(): string {
  return `${JSON.stringify(wireSchemas(), null, 2)}\n`;
}
