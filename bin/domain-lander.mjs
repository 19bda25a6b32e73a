#!/usr/bin/env node
// Runs the TypeScript CLI directly: Node 24 (the project's own, first on PATH under npm/npx) strips the types.
import { main } from '../src/cli/main.ts'

process.exitCode = await main(process.argv.slice(2))
