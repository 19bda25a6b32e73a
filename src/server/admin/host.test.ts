import { describe, expect, test } from 'vitest'
import { consoleHostNames, isConsoleHost } from './host.ts'

describe('the hosts the console answers', () => {
  const defaults = consoleHostNames({ adminHost: '127.0.0.1', adminUrl: undefined })

  test('the loopback names on any port, in any case: a tunnel may arrive on another local port', () => {
    for (const host of ['127.0.0.1:3001', '127.0.0.1', 'localhost:8080', 'LOCALHOST:3001', '[::1]:3001', '[::1]']) {
      expect(isConsoleHost(defaults, host), host).toBe(true)
    }
  })

  test('no other name, however it is written: a name that DNS resolves to 127.0.0.1 is exactly what rebinding uses', () => {
    for (const host of [
      'evil.example:3001',
      'evil.example',
      'localhost.:3001',
      'sub.localhost:3001',
      '127.0.0.2:3001',
      '0.0.0.0:3001',
      '127.0.0.1.evil.example',
      'localhost:3001:3001',
      'user@localhost:3001',
      '[::1',
      '',
      undefined,
    ]) {
      expect(isConsoleHost(defaults, host), String(host)).toBe(false)
    }
  })

  test("ADMIN_URL's host (the proxy's name) and an ADMIN_HOST that is one address are added", () => {
    const names = consoleHostNames({ adminHost: '10.8.0.1', adminUrl: 'https://Konsole.Example.de' })
    expect(isConsoleHost(names, 'konsole.example.de')).toBe(true)
    expect(isConsoleHost(names, 'konsole.example.de:443')).toBe(true)
    expect(isConsoleHost(names, '10.8.0.1:3001')).toBe(true)
    expect(isConsoleHost(names, 'example.de')).toBe(false)
    const v6 = consoleHostNames({ adminHost: 'fd00::1', adminUrl: 'http://[fd00::1]:3001' })
    expect(isConsoleHost(v6, '[fd00::1]:3001')).toBe(true)
  })

  test('listening on every address adds no name: 0.0.0.0 is not a name a browser sends', () => {
    expect(consoleHostNames({ adminHost: '0.0.0.0', adminUrl: undefined })).toEqual(defaults)
    expect(consoleHostNames({ adminHost: '::', adminUrl: undefined })).toEqual(defaults)
  })
})
