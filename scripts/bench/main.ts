// `npm run bench`: which bench runs is chosen by its option; each shares scripts/bench/harness.ts (the server started
// as `npm start` starts it, the load generators, medians, the report). docs/benchmarks.md says what each measures.
//   (none)              the public page: GET /, POST /api/contact, cold start, memory, page weight, Chromium (public-page.ts)
//   --speed, --compare REF   the public page by wrk against nginx, and against the build of REF (compare.ts)
//   --console           the owner's console on a seeded store (console.ts)
//   --import            the portfolio import at scale (import.ts)
//   --domains N         a domains file of N names against one of 10 (domains.ts)
//   --og-spray          link-preview images asked for over distinct hosts (og.ts)
//   --statement         GET / while the console reads 5 MB bank statements (statement.ts)
// Run on their own: console-sql.ts (the console's queries as SQL) and console-flood.ts (the sign-in flood).
import { argv } from 'node:process'

const args = argv.slice(2)

if (args.includes('--speed') || args.includes('--compare')) await (await import('./compare.ts')).benchSpeed(args)
else if (args.includes('--console')) await (await import('./console.ts')).benchConsole(args)
else if (args.includes('--import')) await (await import('./import.ts')).benchImport(args)
else if (args.includes('--domains')) await (await import('./domains.ts')).benchDomains(args)
else if (args.includes('--statement')) await (await import('./statement.ts')).benchStatement(args)
else if (args.includes('--og-spray')) await (await import('./og.ts')).benchOgSpray(args)
else await (await import('./public-page.ts')).benchPublicPage(args)
