// The server and the CLI need Node 24 (type stripping, node:sqlite, module.enableCompileCache). An older Node
// would fail deep inside with an error that names none of this; checked before anything else is loaded.
const REQUIRED_MAJOR = 24

/** Ends the process with one line naming the Node needed and how to get it, unless this Node is new enough. */
export function requireNode24(command) {
  const major = Number(process.versions.node.split('.')[0])
  if (major >= REQUIRED_MAJOR) return
  console.error(
    `domain-lander needs Node ${REQUIRED_MAJOR} or newer, this is Node ${process.versions.node}: run \`${command}\`, which uses the project's own Node 24 from node_modules/.bin (after \`npm install\`), or install Node ${REQUIRED_MAJOR} from https://nodejs.org/`,
  )
  process.exit(1)
}
