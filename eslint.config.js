import tseslint from 'typescript-eslint';
import graphql from '@graphql-eslint/eslint-plugin';
import conventions from './eslint/graphql-conventions.js';

export default tseslint.config(
  {
    ignores: [
      'jest.config.cjs',
      'dist/',
      'flow/embed/dist/',
      'node_modules/',
      '.data/',
      'coverage/',
      'scratch/',
      'schema/*',
      '!schema/api.graphql',
    ],
  },
  {
    files: ['**/*.ts', '**/*.tsx', '**/*.js', '**/*.mjs', '**/*.cjs'],
    extends: [...tseslint.configs.recommended],
    rules: {
      // resolvers and tests handle loosely typed GraphQL results on purpose
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
      'no-restricted-imports': [
        'error',
        {
          paths: [
            {
              name: 'type-graphql',
              importNames: ['Root'],
              message: "Root from platform/graphql/root.ts: type-graphql's copies the parent for every field of every record.",
            },
          ],
        },
      ],
    },
  },
  // the public API schema follows docs/graphql-conventions.md (naming, descriptions, connections, payloads)
  {
    files: ['schema/api.graphql'],
    languageOptions: { parser: graphql.parser, parserOptions: { graphQLConfig: { schema: 'schema/api.graphql' } } },
    plugins: { '@graphql-eslint': graphql, conventions },
    rules: {
      '@graphql-eslint/naming-convention': [
        'error',
        {
          types: 'PascalCase',
          FieldDefinition: 'camelCase',
          InputValueDefinition: 'camelCase',
          Argument: 'camelCase',
          EnumValueDefinition: 'UPPER_CASE',
          'FieldDefinition[parent.name.value=/^(Query|Mutation|Subscription)$/]': { forbiddenPrefixes: ['get', 'put', 'post'] },
        },
      ],
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
          ScalarTypeDefinition: false,
        },
      ],
      '@graphql-eslint/input-name': ['error', { checkInputType: true, caseSensitiveInputType: false }],
      '@graphql-eslint/relay-connection-types': 'error',
      '@graphql-eslint/relay-edge-types': [
        'error',
        { withEdgeSuffix: true, shouldImplementNode: false, listTypeCanWrapOnlyEdgeType: false },
      ],
      '@graphql-eslint/relay-page-info': 'error',
      '@graphql-eslint/no-typename-prefix': 'error',
      '@graphql-eslint/unique-enum-value-names': 'error',
      '@graphql-eslint/no-hashtag-description': 'error',
      'conventions/mutation-payloads': 'error',
    },
  },
);
