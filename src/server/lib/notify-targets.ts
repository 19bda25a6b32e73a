// Where notifications about new inquiries go (NOTIFY_URLS, `notify:` in the domains file): a plain https URL gets
// the signed JSON payload; "<preset>+<URL>" speaks a service's own API at its own address (docs/notifications.md).
// An entry can hold a secret (Telegram's bot token is in the path, Matrix's access token in the query), so nothing
// here ever repeats more of it than its scheme and host.
import net from 'node:net'

const PRESETS = ['ntfy', 'telegram', 'matrix', 'slack', 'mattermost'] as const
type Preset = (typeof PRESETS)[number]

export interface NotifyTarget {
  /** Null: the signed JSON payload. */
  preset: Preset | null
  /** The service's address, without the preset's prefix. */
  url: URL
}

const LOOPBACK_NAMES = new Set(['localhost', '[::1]'])

function isLoopback(hostname: string): boolean {
  if (LOOPBACK_NAMES.has(hostname.toLowerCase()) || hostname.toLowerCase().endsWith('.localhost')) return true
  return net.isIPv4(hostname) && hostname.startsWith('127.')
}

/**
 * The host a notification goes to ("api.telegram.org", "127.0.0.1:8080"): the one way an address is shown anywhere
 * (logs, the Postausgang, the CLI, the GDPR access report, configuration errors), never its path or query, where
 * tokens live. "?" when it is no URL.
 */
export function notifyHost(entry: string): string {
  try {
    return new URL(entry.trim().replace(/^[a-z]+\+/i, '')).host || '?'
  } catch {
    return '?'
  }
}

/** "https://api.telegram.org/…": enough to tell entries apart in an error, never a token. */
export function redactedEntry(entry: string): string {
  const trimmed = entry.trim()
  const scheme = /^[a-z][a-z0-9+.-]*:\/\//i.exec(trimmed)?.[0]
  // Not even a scheme: the first letters only, which cannot be a token's digits or punctuation.
  if (!scheme) return `"${/^[a-z+]{0,12}/i.exec(trimmed)![0]}…"`
  return `"${scheme}${notifyHost(trimmed)}/…"`
}

export type ParsedTarget = { ok: true; target: NotifyTarget } | { ok: false; error: string }

/** Checks one entry: which preset, an https address (http only to this machine), and what the preset needs. */
export function parseTarget(entry: string): ParsedTarget {
  const fail = (why: string): ParsedTarget => ({ ok: false, error: `${redactedEntry(entry)} ${why}` })
  const prefixed = /^([a-z]+)\+(.*)$/i.exec(entry)
  const presetName = prefixed?.[1]?.toLowerCase()
  if (presetName !== undefined && !(PRESETS as readonly string[]).includes(presetName)) {
    return fail(`has an unknown preset "${presetName}+" (known: ${PRESETS.map((p) => `${p}+`).join(', ')})`)
  }
  const preset = (presetName ?? null) as Preset | null
  let url: URL
  try {
    url = new URL(prefixed ? prefixed[2]! : entry)
  } catch {
    return fail('is not a URL')
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    return fail('must be an https:// URL (http:// only to this machine: localhost, 127.0.0.1, [::1])')
  }
  if (url.username || url.password) return fail('must not hold a user name or password (see docs/notifications.md for where each token goes)')
  if (url.hash) return fail('must not have a #fragment')
  const segments = url.pathname.split('/').filter(Boolean)
  switch (preset) {
    case 'ntfy':
      if (segments.length === 0) return fail('needs the topic as its path, e.g. ntfy+https://ntfy.sh/mein-thema')
      break
    case 'telegram':
      if (!/\/bot[^/]+(\/sendMessage)?\/?$/.test(url.pathname)) {
        return fail('needs the path /bot<TOKEN>, e.g. telegram+https://api.telegram.org/bot<TOKEN>?chat_id=<CHAT>')
      }
      if (!url.searchParams.get('chat_id')) return fail('needs ?chat_id=<CHAT>')
      break
    case 'matrix': {
      const room = decodeURIComponent(segments.at(-1) ?? '')
      if (!/^![^:]+:.+$/.test(room))
        return fail('needs a room id (!…:server) as its path, e.g. matrix+https://matrix.example.org/!abc:example.org?access_token=<TOKEN>')
      if (!url.searchParams.get('access_token')) return fail('needs ?access_token=<TOKEN>')
      break
    }
    default:
  }
  return { ok: true, target: { preset, url } }
}

/**
 * A list of entries, separated by commas or white space, checked one by one; duplicates count once (each address
 * gets one notification per inquiry). Errors name the entry by its place and its scheme and host.
 */
export function parseTargetList(entries: string | readonly string[]): { urls: string[]; errors: string[] } {
  const list = typeof entries === 'string' ? entries.split(/[\s,]+/) : entries.map((entry) => entry.trim())
  const urls: string[] = []
  const errors: string[] = []
  list
    .filter((entry) => entry !== '')
    .forEach((entry, i) => {
      const parsed = parseTarget(entry)
      if (!parsed.ok) errors.push(`entry ${i + 1}, ${parsed.error}`)
      else if (!urls.includes(entry)) urls.push(entry)
    })
  return { urls, errors }
}
