import { MULTILINE_KEYWORD, readDecimal, textProblem, textProblemMessage } from '@flatship/proto';
import type { FastifySchemaCompiler } from 'fastify';
import type { TSchema } from 'typebox';
import { Compile } from 'typebox/compile';
import { Value } from 'typebox/value';

interface SchemaError {
  keyword: string;
  instancePath: string;
  message: string;
  params: Record<string, unknown>;
}

/** A JSON pointer as the field path people read: /rows/3/address1 → rows[3].address1. */
const fieldName = (pointer: string) =>
  pointer
    .split('/')
    .slice(1)
    .reduce(
      (path, segment) => (/^\d+$/.test(segment) ? `${path}[${segment}]` : path ? `${path}.${segment}` : segment),
      '',
    ) || 'body';

const tooManyItems = (where: string, limit: number) => `${where} must have at most ${limit} items`;

/** Turns a schema error into a sentence naming the field, e.g. "email is required". */
export function describeSchemaError(e: SchemaError, part: string): string {
  const where = e.instancePath ? fieldName(e.instancePath) : part;
  switch (e.keyword) {
    case 'required': {
      const missing = (e.params.requiredProperties as string[] | undefined) ?? [];
      const prefix = e.instancePath ? `${fieldName(e.instancePath)}.` : '';
      return missing.map((m) => `${prefix}${m} is required`).join(', ');
    }
    case 'type':
      return `${where} must be ${String(e.params.type ?? 'of another type')}`;
    case 'maxLength':
      return `${where} must be at most ${String(e.params.limit)} characters`;
    case 'minLength':
      return `${where} must be at least ${String(e.params.limit)} characters`;
    case 'maxItems':
      return tooManyItems(where, Number(e.params.limit));
    case 'minItems':
      return `${where} must have at least ${String(e.params.limit)} items`;
    case 'additionalProperties':
      return `${where} has unknown field ${((e.params.additionalProperties as string[]) ?? []).join(', ')}`;
    case 'format':
      return e.params.format === 'uuid'
        ? `${where} is not a valid id`
        : `${where} must be a valid ${String(e.params.format)}`;
    case 'anyOf':
    case 'oneOf':
    case 'const':
    case 'enum':
      return `${where} has an invalid value`;
    default:
      return `${where} ${e.message}`;
  }
}

type Json = Record<string, unknown>;
/** Parsed JSON, or a parsed query string (whose prototype is an empty null-prototype object); not a Buffer or stream. */
const isPlainObject = (v: unknown): v is Json => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return proto === Object.prototype || proto === null || Object.getPrototypeOf(proto) === null;
};
const asSchema = (v: unknown): Json | null => (typeof v === 'object' && v !== null ? (v as Json) : null);
const schemaList = (v: unknown): Json[] => {
  const s = asSchema(v);
  return s ? [s] : [];
};

/** The schemas a value may be checked against: unions and intersections opened up. */
function alternatives(schemas: readonly Json[]): Json[] {
  const out: Json[] = [];
  const open = [...schemas];
  for (let s = open.pop(); s; s = open.pop()) {
    const members = [s.anyOf, s.oneOf, s.allOf].flatMap((m) => (Array.isArray(m) ? m : []));
    if (members.length > 0) open.push(...members.flatMap(schemaList));
    else out.push(s);
  }
  return out;
}

const typesOf = (s: Json): unknown[] => (Array.isArray(s.type) ? s.type : [s.type]);

/**
 * Query strings and path parameters arrive as text. TypeBox's conversion reads them with
 * Number(), which takes '0x10', '1e3' or '' as numbers (and truncates '12.5' for an integer);
 * a property that can only be a number is converted here in plain decimal notation, and
 * anything else is left as text for the check to refuse.
 */
function convertText(schema: TSchema, value: unknown): unknown {
  const properties = asSchema((schema as Json).properties);
  if (!isPlainObject(value) || !properties) return Value.Convert(schema, value);
  const rest: Json = { ...value };
  const kept: Json = {};
  for (const [key, raw] of Object.entries(value)) {
    const prop = asSchema(properties[key]);
    if (typeof raw !== 'string' || !prop) continue;
    const types = alternatives([prop]).flatMap(typesOf);
    if (!types.every((t) => t === 'number' || t === 'integer')) continue;
    // Kept out of TypeBox's conversion, which would also truncate 12.5 to the integer 12.
    const read = readDecimal(raw);
    kept[key] = typeof read === 'object' ? read.value : raw;
    delete rest[key];
  }
  return { ...(Value.Convert(schema, rest) as Json), ...kept };
}

const compiledChecks = new WeakMap<Json, (value: unknown) => boolean>();
/** The compiled check of a part of a route's schema, compiled once. */
function checkOf(schema: Json): (value: unknown) => boolean {
  let check = compiledChecks.get(schema);
  if (!check) {
    const validator = Compile(schema as TSchema);
    check = (value) => validator.Check(value);
    compiledChecks.set(schema, check);
  }
  return check;
}

const isCombined = (s: Json) => ['anyOf', 'oneOf', 'allOf', 'not', 'if', '$ref', '$dynamicRef'].some((k) => k in s);
/** An array schema whose elements are all described by one schema, and nothing else is said of them. */
const isListSchema = (s: Json) =>
  s.type === 'array' && !isCombined(s) && !('unevaluatedItems' in s) && !('prefixItems' in s) && !('contains' in s);
/** An object schema whose properties can be looked at one by one. */
const isRecordSchema = (s: Json) =>
  s.type === 'object' && !isCombined(s) && !('unevaluatedProperties' in s) && asSchema(s.properties) !== null;

/**
 * Of a union, the one alternative a list or an object can be (the only list schema for a list, the only object
 * schema for an object), so its problem is found without TypeBox walking the value once per alternative.
 */
function containerAlternative(schema: Json, value: unknown): Json | null {
  const members = Array.isArray(schema.anyOf) ? schema.anyOf : Array.isArray(schema.oneOf) ? schema.oneOf : null;
  if (!members || Object.keys(schema).some((k) => k !== 'anyOf' && k !== 'oneOf' && !k.startsWith('~'))) return null;
  const type = Array.isArray(value) ? 'array' : isPlainObject(value) ? 'object' : null;
  if (!type) return null;
  // An alternative of no declared type might take the value too: then it is not known which one was meant.
  const fitting = members.flatMap(schemaList).filter((m) => m.type === type || m.type === undefined);
  return fitting.length === 1 && fitting[0]?.type === type ? fitting[0] : null;
}

/** The first of TypeBox's errors for `value`, its path placed under `at`. */
function firstOfAll(schema: Json, value: unknown, at: string): SchemaError | null {
  if (checkOf(schema)(value)) return null;
  const first = (Value.Errors(schema as TSchema, value) as unknown as SchemaError[])[0];
  return first ? { ...first, instancePath: `${at}${first.instancePath}` } : null;
}

/**
 * The first thing wrong with `value` (at the JSON pointer `at`), or null when it is right.
 * TypeBox lists every error of a value, walking all of it, so a body of a million bad rows
 * would hold the service for seconds: here an array longer than its maximum is refused by its
 * length, the first bad element is found with the compiled check and only it is described,
 * and an object's own problems (a missing or unknown field) come before those of its fields.
 */
function firstSchemaError(schema: Json, value: unknown, at: string): SchemaError | null {
  const alternative = containerAlternative(schema, value);
  if (alternative) return firstSchemaError(alternative, value, at);
  if (Array.isArray(value) && isListSchema(schema)) {
    const { maxItems, minItems } = schema;
    if (typeof maxItems === 'number' && value.length > maxItems) {
      return { keyword: 'maxItems', instancePath: at, message: '', params: { limit: maxItems } };
    }
    if (typeof minItems === 'number' && value.length < minItems) {
      return { keyword: 'minItems', instancePath: at, message: '', params: { limit: minItems } };
    }
    const items = asSchema(schema.items);
    if (items && !Array.isArray(schema.items)) {
      const check = checkOf(items);
      const bad = value.findIndex((item) => !check(item));
      if (bad !== -1) return firstSchemaError(items, value[bad], `${at}/${bad}`);
    }
  } else if (isPlainObject(value) && isRecordSchema(schema)) {
    const properties = schema.properties as Record<string, Json>;
    const anything = Object.fromEntries(Object.keys(properties).map((key) => [key, {}]));
    const own = firstOfAll({ ...schema, properties: anything }, value, at);
    if (own) return own;
    for (const [key, property] of Object.entries(properties)) {
      if (!Object.hasOwn(value, key)) continue;
      const problem = firstSchemaError(property, value[key], `${at}/${key}`);
      if (problem) return problem;
    }
  }
  return firstOfAll(schema, value, at);
}

/** The first problem of a value the route's check refused; TypeBox's own first error should the search fail. */
function firstProblem(schema: TSchema, value: unknown): SchemaError | null {
  try {
    return firstSchemaError(schema as unknown as Json, value, '');
  } catch {
    // A part of the schema that cannot be compiled alone (a reference to a definition elsewhere in it).
    return (Value.Errors(schema, value) as unknown as SchemaError[])[0] ?? null;
  }
}

/**
 * Validator compiler for TypeBox route schemas. Query strings, params and
 * headers are converted (strings → numbers) before checking; bodies never
 * are, so a string sent where a number belongs is refused rather than guessed.
 * A refused value is answered with its first problem, found without walking the rest.
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const part = httpPart ?? 'body';
  return (value: unknown) => {
    const converted = part === 'body' ? value : convertText(schema, value);
    if (check.Check(converted)) return { value: converted };
    const first = firstProblem(schema, converted);
    const message = first ? describeSchemaError(first, part) : `${part} is invalid`;
    const error = Object.assign(new Error(message), { validation: first ? [first] : [], validationContext: part });
    return { error };
  };
};

/** Where a value sits in a request, built into a path only when a problem must be named. */
interface Place {
  value: unknown;
  /** The schemas that may describe the value; none for parts the route does not declare. */
  schemas: Json[];
  parent: Place | null;
  key: string | number | null;
}

function pathOf(place: Place): string {
  const keys: (string | number)[] = [];
  // '*' is Fastify's name for the rest of a wildcard route's path (the gateway's /api/*).
  for (let p: Place | null = place; p && p.key !== null; p = p.parent) keys.push(p.key === '*' ? 'path' : p.key);
  return keys
    .reverse()
    .reduce<string>((path, key) => (typeof key === 'number' ? `${path}[${key}]` : path ? `${path}.${key}` : key), '');
}

const NO_SCHEMAS: Json[] = [];

/** What the text check needs of a schema, its unions opened up; worked out once per schema object. */
interface SchemaView {
  isMultiline: boolean;
  /** The most elements an array here may have; undefined when the schema sets no maximum. */
  maxItems: number | undefined;
  items: Json[];
  properties: Map<string, Json[]>;
}
const views = new WeakMap<Json, SchemaView>();

function viewOf(schema: Json): SchemaView {
  const known = views.get(schema);
  if (known) return known;
  const alts = alternatives([schema]);
  const properties = new Map<string, Json[]>();
  for (const alt of alts) {
    for (const [key, prop] of Object.entries(asSchema(alt.properties) ?? {})) {
      properties.set(key, [...(properties.get(key) ?? []), ...schemaList(prop)]);
    }
  }
  const lists = alts.filter((a) => a.type === 'array');
  const maxima = lists.map((a) => (typeof a.maxItems === 'number' ? a.maxItems : Number.POSITIVE_INFINITY));
  const maxItems = lists.length > 0 ? Math.max(...maxima) : Number.POSITIVE_INFINITY;
  const view = {
    isMultiline: alts.some((a) => a[MULTILINE_KEYWORD] === true),
    maxItems: Number.isFinite(maxItems) ? maxItems : undefined,
    items: alts.flatMap((a) => schemaList(a.items)),
    properties,
  };
  views.set(schema, view);
  return view;
}

// A value is described by one schema almost always; only then is nothing allocated.
const itemsOf = (schemas: Json[]): Json[] =>
  schemas.length === 1 ? viewOf(schemas[0] as Json).items : schemas.flatMap((s) => viewOf(s).items);
const propertyOf = (schemas: Json[], key: string): Json[] =>
  schemas.length === 1
    ? (viewOf(schemas[0] as Json).properties.get(key) ?? NO_SCHEMAS)
    : schemas.flatMap((s) => viewOf(s).properties.get(key) ?? NO_SCHEMAS);

/**
 * The first string in `value`, in the order it was sent, holding text the system does not
 * accept (see TextProblem in proto), as the message naming it; null when all is well. An array
 * longer than its schema allows is named instead, before its elements are walked. Object
 * keys are checked as well. Iterative: a deeply nested body cannot exhaust the stack.
 * `schema` marks the fields that may hold tabs and line breaks (`multiline: true`).
 */
export function findTextProblem(value: unknown, schema: unknown, part: string): string | null {
  const root = asSchema(schema);
  const stack: Place[] = [{ value, schemas: root ? [root] : NO_SCHEMAS, parent: null, key: null }];
  for (let place = stack.pop(); place; place = stack.pop()) {
    const v = place.value;
    if (typeof v === 'string') {
      // A whole body or parameter that is text (a CSV upload, say) is a document, not a field: lines are fine.
      const isDocument = place.parent === null;
      const problem = textProblem(v, isDocument || place.schemas.some((s) => viewOf(s).isMultiline));
      if (problem) return textProblemMessage(pathOf(place) || part, problem);
    } else if (Array.isArray(v)) {
      // Refused by its length before any of its elements is looked at.
      const limit = place.schemas.length === 1 ? viewOf(place.schemas[0] as Json).maxItems : undefined;
      if (limit !== undefined && v.length > limit) return tooManyItems(pathOf(place) || part, limit);
      const items = itemsOf(place.schemas);
      for (let i = v.length - 1; i >= 0; i--) stack.push({ value: v[i], schemas: items, parent: place, key: i });
    } else if (isPlainObject(v)) {
      const keys = Object.keys(v);
      for (const key of keys) {
        if (textProblem(key) !== null) {
          return `${pathOf(place) || part} has a field name with a character that is not allowed`;
        }
      }
      for (let i = keys.length - 1; i >= 0; i--) {
        const key = keys[i] as string;
        stack.push({ value: v[key], schemas: propertyOf(place.schemas, key), parent: place, key });
      }
    }
  }
  return null;
}
