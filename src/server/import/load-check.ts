// The domains file an import would write, loaded the way the server loads it: the server's own loader process
// (sites/domains-loader.ts, started through registry.ts) with DOMAINS_FILE_MEMORY_MIB as its heap, so that the import
// refuses exactly what the server would refuse on its next load or start (the size, the memory a load needs, the
// syntax, the schema, a name twice after normalisation), before the file is replaced (issue 12/19, decision 029).
// The limits live in the loader alone; nothing here repeats them.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { DomainsFileError } from '../sites/domains-document.ts'
import { checkFileSize } from '../sites/domains-file.ts'
import { startDomainsLoad } from '../sites/registry.ts'

/** The server would not load the result; the message is the loader's, naming the domains file. */
export class Refused extends Error {
  override name = 'Refused'
}

const refusedAs = (error: unknown, written: string, shownAs: string) => {
  if (error instanceof DomainsFileError) return new Refused(error.message.replaceAll(written, shownAs))
  return error
}

/** The loader's size limit, before anything is written: a 47 MiB text need not reach the disk to be refused. */
export function checkSize(shownAs: string, text: string): void {
  try {
    checkFileSize(shownAs, Buffer.byteLength(text))
  } catch (error) {
    throw refusedAs(error, shownAs, shownAs)
  }
}

/** Loads the file `written` as the server would (it is shown as `shownAs`); throws Refused with the loader's reason. */
export async function checkLoads(written: string, shownAs: string, memoryMiB: number): Promise<void> {
  try {
    await startDomainsLoad(written, memoryMiB).table
  } catch (error) {
    throw refusedAs(error, written, shownAs)
  }
}

/** The same for a dry run: the text in a private directory of its own, under the domains file's name (its format). */
export async function checkLoadsAsText(text: string, shownAs: string, memoryMiB: number): Promise<void> {
  checkSize(shownAs, text)
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'domain-lander-import-'))
  try {
    const written = path.join(dir, path.basename(shownAs))
    fs.writeFileSync(written, text, { flag: 'wx', mode: 0o600 })
    await checkLoads(written, shownAs, memoryMiB)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}
