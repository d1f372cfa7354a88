import js from '@eslint/js';
import tseslint from 'typescript-eslint';

const EXPORT_ALL = {
  selector: 'ExportAllDeclaration',
  message: 'No export *: name what the module offers.',
};

export default tseslint.config(
  { ignores: ['**/dist/**', '**/node_modules/**', 'data/**', 'coverage/**'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_' },
      ],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      // A package lists what it offers (docs/design.md#public-api).
      'no-restricted-syntax': ['error', EXPORT_ALL],
    },
  },
  {
    // Functions stay short (docs/design.md#layers-and-the-cycle-rule); tests are exempt: a test's
    // steps read best in one body.
    files: ['**/*.ts'],
    ignores: ['**/*.test.ts', 'test/**'],
    rules: {
      'max-lines-per-function': [
        'error',
        { max: 80, skipBlankLines: true, skipComments: true, IIFEs: true },
      ],
    },
  },
  {
    // The core is pure: no I/O and no ambient clock in domain code (docs/design.md#layers-and-the-cycle-rule).
    files: ['core/src/**/*.ts'],
    ignores: ['core/src/**/*.test.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex:
                '^(node:)?(fs|fs/promises|net|http|https|http2|child_process|dgram|dns|tls|cluster|worker_threads|os|process)$',
              message: 'core does no I/O: take a port instead.',
            },
          ],
        },
      ],
      'no-restricted-syntax': [
        'error',
        EXPORT_ALL,
        {
          selector: "MemberExpression[object.name='Date'][property.name='now']",
          message: 'core takes time from the Clock port.',
        },
        {
          selector: "NewExpression[callee.name='Date'][arguments.length=0]",
          message: 'core takes time from the Clock port.',
        },
        {
          selector: "MemberExpression[object.name='Math'][property.name='random']",
          message: 'core takes randomness from the Random port.',
        },
        {
          selector: 'CallExpression[callee.name=/^set(Timeout|Interval|Immediate)$/]',
          message: 'core has no timers.',
        },
      ],
    },
  },
);
