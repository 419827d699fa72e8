import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['jest.config.cjs', 'dist/', 'node_modules/', '.data/', 'coverage/', 'scratch/', 'schema/'] },
  ...tseslint.configs.recommended,
  {
    rules: {
      // resolvers and tests handle loosely typed GraphQL results on purpose
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-function-type': 'off',
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', destructuredArrayIgnorePattern: '^_' },
      ],
    },
  },
);
