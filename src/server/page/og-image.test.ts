import { describe, expect, test } from 'vitest'
import { pngSize } from '../../../tests/helpers/png.ts'
import { ogImageSvg, renderOgImage } from './og-image.ts'

const texts = (svg: string) =>
  [...svg.matchAll(/<text [^>]*font-size="(\d+)"[^>]*>([^<]*)<\/text>/g)].map(([, size, text]) => ({ size: Number(size), text: text ?? '' }))

describe('the link-preview image', () => {
  test('shows name, price and text, and is a PNG of 1200x630 within 60 KB', async () => {
    const svg = await ogImageSvg({ name: 'münchen.de', price: '12.000 €', text: 'Diese Domain steht zum Verkauf' })
    expect(texts(svg).map((t) => t.text)).toEqual(['münchen.de', '12.000 €', 'Diese Domain steht zum Verkauf'])
    const png = await renderOgImage(svg)
    expect(pngSize(png)).toEqual({ width: 1200, height: 630 })
    expect(png.length).toBeLessThanOrEqual(60 * 1024)
  })

  test('a long name is drawn smaller so that it fits one line; a short one large', async () => {
    const [long] = texts(await ogImageSvg({ name: 'sehr-lange-domain-mit-vielen-woertern-und-noch-mehr.de', text: 'x' }))
    const [short] = texts(await ogImageSvg({ name: 'a.de', text: 'x' }))
    expect(long!.size).toBeLessThan(70)
    expect(short!.size).toBe(150)
  })

  test('a long description is cut to two lines ending in an ellipsis', async () => {
    const lines = texts(await ogImageSvg({ name: 'a.de', text: 'Kurz, einprägsam, seit 2004 registriert. '.repeat(12) })).slice(1)
    expect(lines).toHaveLength(2)
    expect(lines[1]!.text.endsWith('…')).toBe(true)
  })

  test('markup and characters XML forbids in the file’s text are drawn as text, and the image still renders', async () => {
    const svg = await ogImageSvg({ name: 'a.de', text: '</text><image href="http://evil.example/x.png"/> & \u0000\u0007\ud800 "q"' })
    expect(svg).not.toContain('<image')
    expect(svg).toContain('&lt;/text&gt;&lt;image href=&quot;http://evil.example/x.png&quot;/&gt; &amp;')
    expect(svg).not.toMatch(/[\u0000-\u0008\ud800]/)
    expect(pngSize(await renderOgImage(svg))).toEqual({ width: 1200, height: 630 })
  })
})
