// ESLint (flat config): JavaScript's and typescript-eslint's recommended rules, React's hooks rules for the client.
// Run by `npm run lint`, which `npm test` calls.
import js from '@eslint/js'
import reactHooks from 'eslint-plugin-react-hooks'
import globals from 'globals'
import tseslint from 'typescript-eslint'

export default tseslint.config(
  { ignores: ['dist/', 'coverage/', 'node_modules/', 'data/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      // `_name` marks a parameter a signature needs but the body does not.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
  {
    // Tests look for control characters on purpose (what the owner's terminal must never get).
    files: ['tests/**', '**/*.test.{ts,tsx}'],
    rules: { 'no-control-regex': 'off' },
  },
  {
    files: ['src/client/**/*.{ts,tsx}', 'src/console/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    plugins: { 'react-hooks': reactHooks },
    rules: reactHooks.configs.recommended.rules,
  },
)
