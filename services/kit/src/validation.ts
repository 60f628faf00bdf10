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

const fieldName = (path: string) => path.replace(/^\//, '').replace(/\//g, '.') || 'body';

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
    case 'additionalProperties':
      return `${where} has unknown field ${((e.params.additionalProperties as string[]) ?? []).join(', ')}`;
    case 'anyOf':
    case 'oneOf':
    case 'const':
    case 'enum':
      return `${where} has an invalid value`;
    default:
      return `${where} ${e.message}`;
  }
}

/**
 * Validator compiler for TypeBox route schemas. Query strings, params and
 * headers are converted (strings → numbers) before checking; bodies never
 * are, so a string sent where a number belongs is refused rather than guessed.
 */
export const typeboxValidatorCompiler: FastifySchemaCompiler<TSchema> = ({ schema, httpPart }) => {
  const check = Compile(schema);
  const part = httpPart ?? 'body';
  return (value: unknown) => {
    const converted = part === 'body' ? value : Value.Convert(schema, value);
    if (check.Check(converted)) return { value: converted };
    const errors = [...check.Errors(converted)] as unknown as SchemaError[];
    const first = errors[0];
    const message = first ? describeSchemaError(first, part) : `${part} is invalid`;
    const error = Object.assign(new Error(message), { validation: errors, validationContext: part });
    return { error };
  };
};
