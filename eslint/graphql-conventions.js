/**
 * Schema rules of docs/graphql-conventions.md that graphql-eslint has no rule for, over the
 * public API schema (schema/api.graphql): every mutation takes `input: <Mutation>Input!` and
 * returns `<Mutation>Payload!` with `userErrors: [UserError!]!`; no HTTP verbs in mutation names.
 */
const HTTP_VERBS = /^(get|put|post|patch)[A-Z]/;

// graphql-eslint keeps a node's GraphQL type under `gqlType` (`type` is the ESTree node type)
const typeName = (type) => (type.kind === 'NamedType' ? type.name.value : typeName(type.gqlType));

/** @type {import('eslint').Rule.RuleModule} */
const mutationPayloads = {
  meta: { type: 'problem', docs: { description: 'Mutations take an input and return a payload with userErrors' }, schema: [] },
  create(context) {
    const types = new Map();
    const mutations = [];
    return {
      ObjectTypeDefinition(node) {
        types.set(node.name.value, node);
        if (node.name.value === 'Mutation') mutations.push(...node.fields);
      },
      'Document:exit'() {
        for (const field of mutations) {
          const name = field.name.value;
          const expected = `${name[0].toUpperCase()}${name.slice(1)}`;
          if (HTTP_VERBS.test(name)) context.report({ node: field.name, message: `Mutation ${name} is named after an HTTP verb` });
          const args = field.arguments ?? [];
          const input = args.find((arg) => arg.name.value === 'input');
          if (args.length !== 1 || !input || input.gqlType.kind !== 'NonNullType' || typeName(input.gqlType) !== `${expected}Input`) {
            context.report({ node: field.name, message: `Mutation ${name} must take exactly \`input: ${expected}Input!\`` });
          }
          const returned = typeName(field.gqlType);
          if (field.gqlType.kind !== 'NonNullType' || returned !== `${expected}Payload`) {
            context.report({ node: field.name, message: `Mutation ${name} must return \`${expected}Payload!\`` });
            continue;
          }
          const userErrors = types.get(returned)?.fields?.find((f) => f.name.value === 'userErrors');
          const printed = userErrors && context.sourceCode.getText(userErrors.gqlType);
          if (printed !== '[UserError!]!')
            context.report({ node: field.name, message: `${returned} must have \`userErrors: [UserError!]!\`` });
        }
      },
    };
  },
};

export default { rules: { 'mutation-payloads': mutationPayloads } };
