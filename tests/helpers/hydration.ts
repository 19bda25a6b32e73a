// React reports a text or structure the server rendered differently (error #418, through onRecoverableError in
// entry-client.tsx, as a console error that fails the test). In a production build it does not compare
// attributes: this check does, once the page is hydrated.
import type { Page, Response } from 'playwright-core'

/** Turns to the form as a visitor would (which loads React, loader.ts) and waits until it is hydrated. */
export async function hydrate(page: Page): Promise<void> {
  await page.locator('form.contact').dispatchEvent('focusin')
  await page.waitForSelector('html[data-hydrated]', { state: 'attached' })
}

/**
 * The attributes of #app's elements that differ between the page as served (`response`'s body) and the page after
 * hydration, as readable lines; none when they match. The form's `novalidate` is left out: the scripts set it on
 * purpose. Where the elements themselves differ React has reported it already, and the walk stops there.
 */
export async function attributeMismatches(page: Page, response: Response | null): Promise<string[]> {
  if (!response) return ['hydration check: the page had no response']
  return page.evaluate(
    (html) => {
      const served = new DOMParser().parseFromString(html, 'text/html').getElementById('app')
      const hydrated = document.getElementById('app')
      if (!served || !hydrated) return ['hydration check: no #app element']
      const differences: string[] = []
      const name = (element: Element) => `${element.localName}${element.id ? `#${element.id}` : element.className ? `.${element.className.split(' ')[0]}` : ''}`
      const attributes = (element: Element) => Object.fromEntries([...element.attributes].map((a) => [a.name, a.value]))
      function compare(a: Element, b: Element, where: string) {
        if (a.localName !== b.localName) return
        const [before, after] = [attributes(a), attributes(b)]
        if (a.localName === 'form') {
          delete before.novalidate
          delete after.novalidate
        }
        for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
          if (before[key] !== after[key]) differences.push(`${where}: attribute ${key} ${JSON.stringify(before[key])} became ${JSON.stringify(after[key])}`)
        }
        const [from, to] = [[...a.children], [...b.children]]
        from.forEach((child, i) => to[i] && compare(child, to[i], `${where} > ${name(child)}`))
      }
      compare(served, hydrated, '#app')
      return differences.map((difference) => `hydration mismatch: ${difference}`)
    },
    await response.text(),
  )
}
