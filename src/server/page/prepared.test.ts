import { expect, test } from 'vitest'
import { createPreparedPages } from './prepared.ts'

/** A renderer that says how often it ran and what for. */
function counting(size = 100) {
  const calls: string[] = []
  let made = 0
  return {
    calls,
    render: (gzip: boolean) => {
      calls.push(gzip ? 'gzip' : 'plain')
      return Buffer.alloc(gzip ? size / 4 : size, String(made++ % 10))
    },
  }
}

test('a page is rendered once per key and second, its gzip bytes once at their first request', () => {
  const pages = createPreparedPages()
  const { calls, render } = counting()
  const first = pages.get('a.de de', 100, false, render)
  expect(pages.get('a.de de', 100, false, render)).toBe(first)
  expect(pages.get('a.de de', 100, true, render).gzip).toHaveLength(25)
  pages.get('a.de de', 100, true, render)
  expect(calls).toEqual(['plain', 'gzip'])
  expect(pages.bytes()).toBe(125)
})

test('the next second makes the page anew, with another ETag when its bytes differ', () => {
  const pages = createPreparedPages()
  const { calls, render } = counting()
  const first = pages.get('a.de de', 100, true, render)
  const next = pages.get('a.de de', 101, false, render)
  expect(next.window).toBe(101)
  expect(next.gzip).toBeUndefined()
  expect(next.etag).not.toBe(first.etag)
  expect(next.etag).toMatch(/^W\/"[A-Za-z0-9_-]{22}"$/)
  expect(calls).toEqual(['plain', 'gzip', 'plain'])
  // The old second's bytes are gone with it.
  expect(pages.bytes()).toBe(100)
})

test('a spray of hosts keeps the bytes held within the bound, the least recently asked going first', () => {
  const pages = createPreparedPages(1000)
  const { render } = counting()
  const kept = pages.get('kept.de de', 100, false, render)
  for (let i = 0; i < 50; i++) {
    pages.get(`n${i}.de de`, 100, false, render)
    // Asked again and again: stays.
    expect(pages.get('kept.de de', 100, false, render)).toBe(kept)
  }
  expect(pages.bytes()).toBeLessThanOrEqual(1000)
  const { calls, render: again } = counting()
  pages.get('n0.de de', 100, false, again)
  expect(calls).toEqual(['plain'])
})
