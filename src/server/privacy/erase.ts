// Erasing inquiries everywhere they are kept: the store (inquiry, replies, outbox rows; SQLite's FTS rows go with
// them by trigger) and the .eml files the file transport wrote for their mails into DATA_DIR/mail.
import fs from 'node:fs/promises'
import path from 'node:path'
import { mailDirOf } from '../mail/transport.ts'
import { eraseMailbox } from '../store/privacy.ts'
import type { Erased, Store } from '../store/types.ts'

/** The files the transport writes for these mails (mail/outbox.ts names them), and their unfinished temporaries. */
function mailFilesOf(erased: Pick<Erased, 'inquiries' | 'replyIds'>): string[] {
  const names = [...erased.inquiries.map(({ id }) => `inquiry-${id}.eml`), ...erased.replyIds.map((id) => `reply-${id}.eml`)]
  return names.flatMap((name) => [name, `${name}.tmp`])
}

/** Removes the mail files of what was erased; returns how many there were. */
export async function eraseMailFiles(dataDir: string, erased: Pick<Erased, 'inquiries' | 'replyIds'>): Promise<number> {
  const mailDir = mailDirOf({ dataDir })
  let removed = 0
  for (const name of mailFilesOf(erased)) {
    try {
      await fs.unlink(path.join(mailDir, name))
      removed++
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    }
  }
  return removed
}

export interface ErasedPerson extends Erased {
  files: number
}

/** Art. 17 for one address: every inquiry with it (ignoring case), its replies, its mail and its mail files. */
export async function erasePerson(store: Pick<Store, 'transact' | 'purgeErased'>, dataDir: string, email: string): Promise<ErasedPerson> {
  // The use case holds the erasure's transaction (decision 060); the search index is rewritten once it has committed.
  const erased = await store.transact((work) => eraseMailbox(work.trx, work.dialect, email))
  if (erased.inquiries.length > 0) await store.purgeErased()
  return { ...erased, files: await eraseMailFiles(dataDir, erased) }
}
