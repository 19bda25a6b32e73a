/** A command used wrongly: main.ts prints its message with the usage and exits 2. */
export class UsageError extends Error {
  override name = 'UsageError'
}
