// `domain-lander set-password`: the owner's console password, typed twice without echo, or one line from stdin.
import readline from 'node:readline/promises'
import { Writable } from 'node:stream'
import { hashPassword, passwordProblem } from '../server/admin/password.ts'
import type { Store } from '../server/store/types.ts'

/** A refused password or input: one line, exit code 1. */
export class PasswordError extends Error {
  override name = 'PasswordError'
}

/** The first line of stdin, without its line end. */
async function firstLine(input: NodeJS.ReadableStream): Promise<string> {
  const lines = readline.createInterface({ input, crlfDelay: Infinity })
  try {
    for await (const line of lines) return line
    throw new PasswordError('--stdin: no password on standard input')
  } finally {
    lines.close()
  }
}

/** Asks on the terminal; what is typed is not shown. Only the CLI's own process has one: it answers on stdout. */
async function askHidden(question: string, input: NodeJS.ReadableStream): Promise<string> {
  let muted = false
  const output = new Writable({
    write(chunk, encoding, done) {
      if (!muted) process.stdout.write(chunk, encoding)
      done()
    },
  })
  const prompt = readline.createInterface({ input, output, terminal: true })
  try {
    process.stdout.write(question)
    muted = true
    return await prompt.question('')
  } finally {
    muted = false
    process.stdout.write('\n')
    prompt.close()
  }
}

/** Reads the new password (checked before the store is opened), then `save` stores its hash. */
export async function readNewPassword(fromStdin: boolean, stdin: NodeJS.ReadableStream & { isTTY?: boolean }): Promise<string> {
  let password: string
  if (fromStdin) password = await firstLine(stdin)
  else if (!stdin.isTTY) throw new PasswordError('set-password asks on a terminal; in a script, pipe the password in with --stdin')
  else {
    password = await askHidden('New password for the console: ', stdin)
    const problem = passwordProblem(password)
    if (problem) throw new PasswordError(problem)
    if ((await askHidden('The same password again: ', stdin)) !== password) throw new PasswordError('the two passwords differ; nothing was changed')
  }
  const problem = passwordProblem(password)
  if (problem) throw new PasswordError(problem)
  return password
}

export async function savePassword(store: Pick<Store, 'setOwnerPassword'>, password: string): Promise<void> {
  await store.setOwnerPassword(await hashPassword(password), Date.now())
}
