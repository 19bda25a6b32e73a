import { describe, expect, it } from 'vitest'
import { lazy } from './lazy.ts'

describe('lazy', () => {
  it('makes nothing until the value is first asked for, then makes it once', () => {
    let made = 0
    const value = lazy(() => ({ n: ++made }))
    expect(made).toBe(0)
    const first = value()
    expect(value()).toBe(first)
    expect(made).toBe(1)
  })

  it('keeps a value that is undefined instead of making it again', () => {
    let made = 0
    const value = lazy(() => {
      made++
      return undefined
    })
    value()
    value()
    expect(made).toBe(1)
  })
})
