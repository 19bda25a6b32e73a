// What the CLI takes from its process, passed in so that it can also run inside another one (the tests run it in
// theirs, where the environment, standard input and output are the test's, not the CLI's).

export interface CliIo {
  /** The settings (loadConfig): the process's environment. */
  env?: Record<string, string | undefined>
  /** Standard input: set-password --stdin and deal transfer --code-stdin read their line from it. */
  stdin?: NodeJS.ReadableStream & { isTTY?: boolean }
  /** Standard output; a line break is added unless the text ends with one. */
  print?: (text: string) => void
  /** Standard error, one line each. */
  printError?: (text: string) => void
  /** Whether standard error is a terminal: import then shows what it is doing. */
  stderrIsTTY?: boolean
}

// A CSV export ends with its own CRLF; a line break after it would end the last row differently from the others.
const printLine = (text: string) => void process.stdout.write(text.endsWith('\n') ? text : `${text}\n`)

/** `io` with the process's own for what it leaves out. */
export function withProcessDefaults(io: CliIo): Required<CliIo> {
  return {
    env: io.env ?? process.env,
    stdin: io.stdin ?? process.stdin,
    print: io.print ?? printLine,
    printError: io.printError ?? ((text: string) => console.error(text)),
    stderrIsTTY: io.stderrIsTTY ?? process.stderr.isTTY === true,
  }
}
