import Handlebars from 'handlebars';
import type { Channel, RenderedContent } from '../channels/channel.js';
import { contentFields, type TemplateContent } from './template.content.js';

/** An isolated Handlebars: built-in helpers only, no partials, no prototype access. */
const hb = Handlebars.create();
// `log` would let a tenant write to the server's output
hb.unregisterHelper('log');
const REMOVED_HELPERS = new Set(['log']);

/** What one render (every field of a channel) may do: loop iterations, and characters produced. */
export const MAX_RENDER_ITERATIONS = 10_000;
export const MAX_RENDERED_CHARS = 1_000_000;

/** A render that went over its budget: the sender's data and template, said as such. */
export class RenderLimitError extends Error {}

// renders are synchronous: the budget of the render in progress
let budget = { iterations: Infinity, chars: Infinity };

// `each` counts its iterations and what they produce against the render's budget, so nested
// loops over large arrays stop at once instead of running for minutes
const builtInEach = hb.helpers.each;
hb.registerHelper('each', function (this: unknown, context: unknown, options: Handlebars.HelperOptions) {
  const fn = options.fn;
  const counted = (...args: Parameters<typeof fn>) => {
    if (--budget.iterations < 0) {
      throw new RenderLimitError(`the template repeats more than ${MAX_RENDER_ITERATIONS} times; send less data or simplify the template`);
    }
    const out = fn(...args);
    budget.chars -= out.length;
    if (budget.chars < 0) throw new RenderLimitError(`the rendered message is over ${MAX_RENDERED_CHARS} characters`);
    return out;
  };
  return builtInEach.call(this, context, Object.assign({}, options, { fn: Object.assign(counted, fn) }));
});

type AstNode = { type: string; [key: string]: any };

/** Statements a template may not use: partials would read other templates, decorators run code. */
const FORBIDDEN = new Set(['PartialStatement', 'PartialBlockStatement', 'Decorator', 'DecoratorBlock']);

/** Parses one field; throws an Error naming the problem (syntax error, partial). */
export function parseField(source: string): AstNode {
  const ast = hb.parse(source) as unknown as AstNode;
  const walk = (node: unknown): void => {
    if (!node || typeof node !== 'object') return;
    if (FORBIDDEN.has((node as AstNode).type)) throw new Error('partials and decorators are not supported');
    const helper = (node as AstNode).path?.original;
    // a call (`{{log x}}`, `{{#log}}`); a bare `{{log}}` is just a data field of that name
    const isCall = (node as AstNode).params?.length > 0 || (node as AstNode).type === 'BlockStatement';
    if (typeof helper === 'string' && REMOVED_HELPERS.has(helper) && isCall) {
      throw new Error(`the ${helper} helper is not available`);
    }
    for (const value of Object.values(node)) {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object' && 'type' in value) walk(value);
    }
  };
  walk(ast);
  return ast;
}

/**
 * The data fields a field needs: every `{{field}}` / `{{{field}}}` / `{{a.b}}` outside blocks.
 * Fields used only inside `{{#if x}}…{{/if}}` and other blocks are optional by design.
 */
export function placeholdersOf(ast: AstNode): string[] {
  const found = new Set<string>();
  for (const node of ast.body as AstNode[]) {
    if (node.type !== 'MustacheStatement' || node.params.length || node.hash) continue;
    const path = node.path as AstNode;
    if (path.type !== 'PathExpression' || path.data || path.this || !path.parts.length) continue;
    found.add(path.parts.join('.'));
  }
  return [...found];
}

/** Placeholders of every field of `channels`, as `{field, where}` (where = `email.subject`). */
export function placeholdersOfContent(content: TemplateContent, channels: readonly Channel[]): Array<{ field: string; where: string }> {
  const out: Array<{ field: string; where: string }> = [];
  for (const channel of channels) {
    for (const { path, text } of contentFields(content, channel)) {
      for (const name of placeholdersOf(parseField(text))) out.push({ field: name, where: `${channel}.${path}` });
    }
  }
  return out;
}

/** The value at a dotted path of `data`, or undefined. */
export function lookup(data: Record<string, unknown>, path: string): unknown {
  let value: unknown = data;
  for (const part of path.split('.')) {
    if (value === null || typeof value !== 'object' || !Object.hasOwn(value, part)) return undefined;
    value = (value as Record<string, unknown>)[part];
  }
  return value;
}

type Compiled = (data: Record<string, unknown>) => string;

/**
 * Renders template versions (immutable, so compiled once and cached by id). Strict mode: a
 * placeholder without a value throws instead of rendering a silent blank.
 */
export class TemplateRenderer {
  private readonly cache = new Map<string, Compiled>();

  constructor(private readonly maxEntries = 2000) {}

  render(templateId: string, content: TemplateContent, channel: Channel, data: Record<string, unknown>): RenderedContent {
    const out: Record<string, string | string[]> = {};
    budget = { iterations: MAX_RENDER_ITERATIONS, chars: MAX_RENDERED_CHARS };
    try {
      for (const { path, spec, text } of contentFields(content, channel)) {
        const rendered = this.compiled(`${templateId}:${channel}.${path}`, text, spec.escape)(data);
        if (spec.list) out[spec.field] = [...((out[spec.field] as string[] | undefined) ?? []), rendered];
        else out[spec.field] = rendered;
        budget.chars -= rendered.length;
        if (budget.chars < 0) throw new RenderLimitError(`the rendered message is over ${MAX_RENDERED_CHARS} characters`);
      }
    } finally {
      budget = { iterations: Infinity, chars: Infinity };
    }
    return out as RenderedContent;
  }

  private compiled(key: string, source: string, escape: boolean): Compiled {
    let fn = this.cache.get(key);
    if (!fn) {
      if (this.cache.size >= this.maxEntries) this.cache.delete(this.cache.keys().next().value!);
      fn = hb.compile(source, { strict: true, noEscape: !escape, knownHelpersOnly: false });
      this.cache.set(key, fn);
    }
    return fn;
  }
}

/** A Handlebars strict-mode error as a sentence: `"first_name" not defined in … - 1:6` → the field. */
export function describeRenderError(err: unknown): string {
  const message = (err as Error).message ?? String(err);
  const field = /^"([^"]+)" not defined/.exec(message)?.[1];
  return field ? `data field "${field}" is missing` : message;
}
