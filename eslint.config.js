import js from '@eslint/js';
import tseslint from 'typescript-eslint';

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
