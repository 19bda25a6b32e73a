// Secrets of a deal at rest (decision 033): the transfer code (AuthInfo) and the id of the deal page's link are kept
// sealed with AES-256-GCM under a key that is never in the database, so a copy of the database (a backup, a dump,
// `access`) gives neither away. The key comes from DEAL_KEY, or from DATA_DIR/deal-key (0600), made on first use.
// The additional data binds each sealed value to its place: a transfer code copied onto another deal does not open.
import { open, seal, sealKeyOf } from '../lib/seal.ts'

export const TRANSFER_CODE_MAX = 200

/** The key: DEAL_KEY's bytes, else the file in DATA_DIR, made (0600) when missing. */
export const dealKeyOf = sealKeyOf

const codePlace = (dealId: number) => `deal-transfer-code\n${dealId}`
const linkPlace = (linkHash: string) => `deal-link\n${linkHash}`

export const sealTransferCode = (key: Buffer, dealId: number, code: string) => seal(key, codePlace(dealId), code)
/** The code, or null when it does not open with this key for this deal (another key, another deal, tampered). */
export const openTransferCode = (key: Buffer, dealId: number, sealed: string) => open(key, codePlace(dealId), sealed)

/** The page link's token, kept so that later mails can link the page again. */
export const sealLinkToken = (key: Buffer, linkHash: string, token: string) => seal(key, linkPlace(linkHash), token)
export const openLinkToken = (key: Buffer, linkHash: string, sealed: string) => open(key, linkPlace(linkHash), sealed)
