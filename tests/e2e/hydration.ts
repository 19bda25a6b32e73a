// Preact hydrates the server's markup without a word when it does not match (React 19 reported error #418): it
// rewrites the text, adds the elements it misses and removes the ones it does not render. So the browser tests check
// it themselves: once the script has run, #app must still be the DOM the server sent.
import type { Page, Response } from 'playwright-core'

/**
 * The differences between #app as served (`response`'s body) and #app after hydration, as readable lines; none
 * when hydration matched. The form's `novalidate` is left out: the script sets it on purpose. Adjacent text nodes
 * are merged first, since Preact may split a text the server wrote as one ("… in der <a>" from two strings).
 */
export async function hydrationMismatches(page: Page, response: Response | null): Promise<string[]> {
  if (!response) return ['hydration check: the page had no response']
  return page.evaluate((html) => {
    const served = new DOMParser().parseFromString(html, 'text/html').getElementById('app')
    const hydrated = document.getElementById('app')?.cloneNode(true) as HTMLElement | undefined
    if (!served || !hydrated) return ['hydration check: no #app element']
    hydrated.querySelector('form')?.removeAttribute('novalidate')
    served.normalize()
    hydrated.normalize()
    const differences: string[] = []
    const report = (where: string, what: string, before: unknown, after: unknown) =>
      differences.push(`${where}: ${what} ${JSON.stringify(before)} became ${JSON.stringify(after)}`)
    const name = (node: Node) =>
      node instanceof Element ? `${node.localName}${node.className ? `.${node.className.split(' ')[0]}` : ''}` : node.nodeName
    const attributes = (element: Element) => Object.fromEntries([...element.attributes].map((a) => [a.name, a.value]))
    function compare(a: Node, b: Node, where: string) {
      if (a.nodeName !== b.nodeName) {
        report(where, 'node', name(a), name(b))
        return
      }
      if (!(a instanceof Element) || !(b instanceof Element)) {
        if (a.nodeValue !== b.nodeValue) report(where, 'text', a.nodeValue, b.nodeValue)
        return
      }
      const [before, after] = [attributes(a), attributes(b)]
      for (const key of new Set([...Object.keys(before), ...Object.keys(after)])) {
        if (before[key] !== after[key]) report(where, `attribute ${key}`, before[key], after[key])
      }
      // Preact moves a text area's text (the input kept after an error) from its child node into its value:
      // compare what the visitor sees.
      if (a instanceof HTMLTextAreaElement && b instanceof HTMLTextAreaElement) {
        if (a.value !== b.value) report(where, 'value', a.value, b.value)
        return
      }
      const [from, to] = [[...a.childNodes], [...b.childNodes]]
      if (from.length !== to.length) {
        report(where, 'children', from.map(name).join(' '), to.map(name).join(' '))
        return
      }
      from.forEach((child, i) => compare(child, to[i]!, `${where} > ${name(child)}`))
    }
    compare(served, hydrated, '#app')
    return differences.map((difference) => `hydration mismatch: ${difference}`)
  }, await response.text())
}
