// node-version.mjs stays JavaScript so that an older Node can load it and say what is needed: its type for the .ts
// scripts that import it.
export function requireNode24(command: string): void
