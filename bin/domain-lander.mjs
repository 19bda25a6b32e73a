#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node 24 (the project's own, first on PATH under npm/npx) strips the types.
import { requireNode24 } from '../scripts/node-version.mjs'

// An older Node cannot even load the .ts file; it says so in one line instead.
requireNode24('npx domain-lander')
const { main } = await import('../src/cli/main.ts')

// What the CLI makes SQLite create (the database's -wal and -shm while the server is stopped) is the owner's
// alone, as the server's own files are.
process.umask(0o077)

process.exitCode = await main(process.argv.slice(2))
