import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, test } from 'vitest'
import { FIT_STEPS, nameLayout } from './domain-name.ts'

const LABEL_63 = `${'abcdefghij'.repeat(6)}xyz`

describe('the layout of the domain name', () => {
  test('a short name stays whole, at one of the largest steps', () => {
    expect(nameLayout('a.de')).toEqual({ fit: 5, parts: ['a.de'] })
    expect(nameLayout('beispiel.de')).toEqual({ fit: 7, parts: ['beispiel.de'] })
    expect(nameLayout('münchen.de').parts).toEqual(['münchen.de'])
  })

  test('a name up to about 12 em stays whole, so it is on one line however narrow the screen', () => {
    expect(nameLayout('kaffee-shop.de')).toEqual({ fit: 9, parts: ['kaffee-shop.de'] })
    expect(nameLayout('xn--pple-43d.com').parts).toEqual(['xn--pple-43d.com'])
  })

  test('a longer name may wrap after each dot and hyphen, at the one-line size', () => {
    expect(nameLayout('muenchen-immobilien-kaufen.de')).toEqual({ fit: 12, parts: ['muenchen-', 'immobilien-', 'kaufen.', 'de'] })
  })

  test('a 63-character label sets the size by itself, so that it never has to break', () => {
    const { fit, parts } = nameLayout(`${LABEL_63}.de`)
    expect(parts).toEqual([`${LABEL_63}.`, 'de'])
    // 63 characters of about 0.6 em each, with the margin.
    expect(fit).toBeGreaterThanOrEqual(37)
    expect(nameLayout(`${'m'.repeat(63)}.de`).fit).toBe(70)
  })

  test('wider letters make a wider name: m and w, CJK characters, other scripts', () => {
    expect(nameLayout('mmmmmmmm.de').fit).toBeGreaterThan(nameLayout('iiiiiiii.de').fit)
    expect(nameLayout('日本語のドメイン.jp').fit).toBeGreaterThan(nameLayout('nihongo.jp').fit)
    expect(nameLayout('пример.рф').fit).toBeGreaterThanOrEqual(nameLayout('primer.rf').fit)
    // A letter with a diacritic is as wide as its base letter.
    expect(nameLayout('bücher.de').fit).toBe(nameLayout('bucher.de').fit)
  })

  test('every step has its class in the style sheet, and the style sheet no other', () => {
    const css = fs.readFileSync(path.join(import.meta.dirname, '../client/styles/intro.css'), 'utf8')
    const classes = [...css.matchAll(/\.fit-(\d+)\s*\{\s*--fit:\s*(\d+)\s*\}/g)].map(([, name, value]) => [Number(name), Number(value)])
    expect(classes).toEqual(FIT_STEPS.map((step) => [step, step]))
  })
})
