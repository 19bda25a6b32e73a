// Passkeys, the second factor and the sessions page (decision 041): what the console's pages and the server
// exchange. Nothing here may import server code.

export const SIGN_IN_PATHS = { security: '/anmeldung', sessions: '/sitzungen' } as const

export const PASSKEY_NAME_MAX = 60

interface PasskeyView {
  id: number
  /** As the owner typed it: shown as text. */
  name: string
  createdAt: number
  lastUsedAt: number | null
}

/** GET /anmeldung */
export interface SecurityPageData {
  passkeys: PasskeyView[]
  /** Why passkeys cannot work at this address (plain http on a name that is not localhost), or null. */
  passkeyProblem: string | null
  secondFactor: { on: boolean; recoveryCodesLeft: number }
}

/** POST /api/second-factor/setup: the secret (for typing it in), and its QR code as an SVG path. */
export interface SecondFactorSetup {
  secret: string
  uri: string
  qr: { size: number; path: string }
}

/** POST /api/second-factor/confirm: the recovery codes, shown this once. */
export interface SecondFactorConfirmed {
  recoveryCodes: string[]
}

interface SessionView {
  /** Opaque: DELETE /api/sessions/:ref ends it. */
  ref: string
  current: boolean
  createdAt: number
  lastSeenAt: number
  browser: string
  address: string | null
  method: string | null
}

/** GET /sitzungen */
export interface SessionsPageData {
  sessions: SessionView[]
}

/** POST /api/session answers this (200) when the password was right and a code is still needed. */
export interface SecondFactorNeeded {
  secondFactor: true
}
