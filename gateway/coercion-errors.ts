import { isEnumType, type GraphQLSchema } from 'graphql';

/** A variable-coercion failure restated in the platform's error model (ARCHITECTURE.md, principle 6). */
export interface CoercionRewrite {
  code: 'BAD_USER_INPUT' | 'VALIDATION_FAILED';
  message: string;
}

// graphql-js 16 words these as `Variable "$input" got invalid value <value>[ at "input.a.b"]; <reason>`.
// The value is printed verbatim and may contain anything, so the reason is matched from the end.
const INVALID_VALUE = /^Variable "\$([A-Za-z_]\w*)" got invalid value /;
const REQUIRED_VARIABLE = /^Variable "\$([A-Za-z_]\w*)" of (?:required|non-null) type "[^"]+" (?:was not provided|must not be null)\.$/;
const AT_PATH = / at "[A-Za-z_]\w*((?:\.[A-Za-z_]\w*|\[\d+\])*)"$/;

const SCALAR_WORDS: Record<string, string> = {
  String: 'a string',
  ID: 'a string',
  Int: 'an integer',
  Float: 'a number',
  Boolean: 'a boolean',
};

type Reason = (match: RegExpExecArray, field: FieldPath, schema?: GraphQLSchema) => CoercionRewrite;

interface FieldPath {
  /** `a.b` for a value at `input.a.b`; the variable's own name when the value is the variable itself. */
  at: string;
  /** `a.b.<name>` for a field of the object at `input.a.b`. */
  child(name: string): string;
}

const badInput = (message: string): CoercionRewrite => ({ code: 'BAD_USER_INPUT', message });

const REASONS: Array<[RegExp, Reason]> = [
  [/; Field "(\w+)" of required type "[^"]+" was not provided\.$/, (m, f) => badInput(`${f.child(m[1])} is required`)],
  [/; Expected non-nullable type "[^"]+" not to be null\.$/, (_m, f) => badInput(`${f.at} is required`)],
  [/; Field "(\w+)" is not defined by type "[^"]+"\.(?: Did you mean [^;]*)?$/, (m, f) => badInput(`${f.child(m[1])} is not allowed`)],
  [/; Value "[\s\S]*?" does not exist in "(\w+)" enum\.(?: Did you mean [^;]*)?$/, (m, f, s) => oneOf(m[1], f, s)],
  [/; Enum "(\w+)" cannot represent non-string value: [\s\S]*$/, (m, f, s) => oneOf(m[1], f, s)],
  [/; (String|ID|Int|Float|Boolean) cannot represent [\s\S]*$/, (m, f) => badInput(`${f.at} must be ${SCALAR_WORDS[m[1]]}`)],
  [/; Expected type "[^"]+" to be an object\.$/, (_m, f) => badInput(`${f.at} must be an object`)],
  [/; Expected type "(\w+)"\.[\s\S]*$/, (m, f) => badInput(`${f.at} must be a ${m[1]}`)],
];

function oneOf(enumName: string, field: FieldPath, schema?: GraphQLSchema): CoercionRewrite {
  const type = schema?.getType(enumName);
  const allowed = isEnumType(type)
    ? type
        .getValues()
        .map((v) => v.name)
        .join(', ')
    : undefined;
  return {
    code: 'VALIDATION_FAILED',
    message: allowed ? `${field.at} must be one of: ${allowed}` : `${field.at} must be a valid ${enumName}`,
  };
}

function fieldPath(variable: string, prefix: string): FieldPath {
  const path = AT_PATH.exec(prefix)?.[1].replace(/^\./, '') ?? '';
  return { at: path || variable, child: (name) => (path ? `${path}.${name}` : name) };
}

/**
 * Rewrites a graphql-js variable-coercion message (`Variable "$input" got invalid value …`) into
 * the platform's wording (`userId is required`, `tier must be one of: …`); the field path drops the
 * variable name. Enum values come from `schema`. Returns null for any other message.
 */
export function rewriteCoercionError(message: string, schema?: GraphQLSchema): CoercionRewrite | null {
  const required = REQUIRED_VARIABLE.exec(message);
  if (required) return badInput(`${required[1]} is required`);

  const head = INVALID_VALUE.exec(message);
  if (!head) return null;
  for (const [pattern, reason] of REASONS) {
    const match = pattern.exec(message);
    if (match) return reason(match, fieldPath(head[1], message.slice(0, match.index)), schema);
  }
  // A custom scalar's own explanation (e.g. a malformed date) is about the value: keep it.
  const at = new RegExp(` at "${head[1]}(?:\\.\\w+|\\[\\d+\\])*"; `).exec(message);
  const end = at ? at.index + at[0].length : message.indexOf('; ') + 2;
  const field = fieldPath(head[1], at ? at[0].slice(0, -2) : '');
  return badInput(end < 2 ? `${field.at} is invalid` : `${field.at}: ${message.slice(end)}`);
}
