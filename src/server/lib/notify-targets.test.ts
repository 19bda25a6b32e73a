import { describe, expect, test } from 'vitest'
import { notifyHost, parseTarget, parseTargetList, redactedEntry } from './notify-targets.ts'

describe('notification addresses', () => {
  test.each([
    'https://hooks.example.org/inquiry',
    'http://127.0.0.1:8080/hook',
    'http://localhost/hook',
    'http://[::1]:9000/hook',
    'ntfy+https://ntfy.sh/verkauf',
    'telegram+https://api.telegram.org/bot123:ABC?chat_id=-100',
    'telegram+https://api.telegram.org/bot123:ABC/sendMessage?chat_id=42',
    'matrix+https://matrix.example.org/!abc:example.org?access_token=syt_x',
    'slack+https://hooks.slack.com/services/T/B/X',
    'mattermost+https://chat.example.org/hooks/abc',
  ])('%s is accepted', (entry) => {
    expect(parseTarget(entry).ok).toBe(true)
  })

  test.each([
    ['http://hooks.example.org/x', 'must be an https:// URL'],
    ['http://10.0.0.1/x', 'must be an https:// URL'],
    ['ftp://example.org/x', 'must be an https:// URL'],
    ['discord+https://example.org/x', 'unknown preset "discord+"'],
    ['nicht eine adresse', 'is not a URL'],
    ['https://user:pass@example.org/x', 'must not hold a user name or password'],
    ['ntfy+https://ntfy.sh/', 'needs the topic'],
    ['telegram+https://api.telegram.org/bot123:ABC', 'needs ?chat_id='],
    ['telegram+https://api.telegram.org/sendMessage?chat_id=1', 'needs the path /bot<TOKEN>'],
    ['matrix+https://matrix.example.org/raum?access_token=x', 'needs a room id'],
    ['matrix+https://matrix.example.org/!abc:example.org', 'needs ?access_token='],
  ])('%s is refused: %s', (entry, why) => {
    const parsed = parseTarget(entry)
    expect(parsed.ok).toBe(false)
    expect(!parsed.ok && parsed.error).toContain(why)
  })

  test('an error names the entry by scheme and host only, never its token', () => {
    const { errors } = parseTargetList('https://ok.example.org/a, telegram+http://api.telegram.org/bot123:GEHEIM?chat_id=1')
    expect(errors).toEqual([expect.stringMatching(/^entry 2, "telegram\+http:\/\/api\.telegram\.org\/…" must be an https:\/\/ URL/)])
    expect(errors.join()).not.toContain('GEHEIM')
    expect(redactedEntry('matrix+https://u:GEHEIM@m.example.org/!a:b?access_token=GEHEIM')).toBe('"matrix+https://m.example.org/…"')
  })

  test('a list is split at commas and white space; a repeated entry counts once', () => {
    expect(parseTargetList(' https://a.example.org/x,\nhttps://b.example.org/y  https://a.example.org/x ,')).toEqual({
      urls: ['https://a.example.org/x', 'https://b.example.org/y'],
      errors: [],
    })
  })

  test('the host of an entry, with or without a preset', () => {
    expect(notifyHost('telegram+https://api.telegram.org/bot1:X?chat_id=1')).toBe('api.telegram.org')
    expect(notifyHost('http://127.0.0.1:8080/hook')).toBe('127.0.0.1:8080')
    expect(notifyHost('matrix+https://u:GEHEIM@m.example.org/!a:b?access_token=GEHEIM')).toBe('m.example.org')
    expect(notifyHost('kein URL bot123:GEHEIM')).toBe('?')
  })

  test('an entry that is no URL, or hides its path behind a backslash, shows no token in an error', () => {
    expect(redactedEntry('bot123456:GEHEIM?chat_id=1')).toBe('"bot…"')
    expect(redactedEntry('telegram+https://api.telegram.org\\bot123:GEHEIM')).toBe('"telegram+https://api.telegram.org/…"')
    expect(redactedEntry('https://exa mple.org/GEHEIM')).toBe('"https://?/…"')
  })
})
