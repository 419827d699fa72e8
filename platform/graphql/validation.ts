import { validate, type ValidationError } from 'class-validator';
import { invalid } from '../errors.js';

function flatten(errors: ValidationError[], prefix = ''): string[] {
  return errors.flatMap((e) => {
    const path = prefix ? `${prefix}.${e.property}` : e.property;
    const own = Object.values(e.constraints ?? {}).map((m) => (prefix ? m.replace(e.property, path) : m));
    return [...own, ...flatten(e.children ?? [], path)];
  });
}

/** type-graphql `validateFn`: class-validator failures become one VALIDATION_FAILED (422) error. */
export async function validateArgument(value: unknown): Promise<void> {
  if (value === null || typeof value !== 'object') return;
  const items = Array.isArray(value) ? value : [value];
  const messages: string[] = [];
  for (const item of items) {
    if (item && typeof item === 'object') messages.push(...flatten(await validate(item, { forbidUnknownValues: false })));
  }
  if (messages.length) throw invalid(messages);
}
