// Fills the console's built index.html (dist/console) with the server-rendered page for one request.
import fs from 'node:fs'
import type { FastifyReply } from 'fastify'
import path from 'node:path'
import type { ConsoleState } from '../../shared/console-api.ts'
import { escapeHtml } from '../../shared/html.ts'
import { consoleTitle, renderConsole, RENDERED_AT_ATTRIBUTE, STATE_ELEMENT_ID } from '../../console/entry-server.tsx'

export interface ConsoleRenderer {
  /** The whole HTML document for this state; scripts carry `nonce`. */
  page(state: ConsoleState, nonce: string): string
}

const SLOTS = ['<!--app-title-->', '<!--app-html-->', '<!--app-state-->'] as const
type Slot = (typeof SLOTS)[number]

/**
 * The state as JSON inside a script element the browser never executes. "<" becomes \u003c, so no string in it
 * (a visitor's "</script>" or "<!--") can end the element or change how the HTML parser reads it.
 */
function stateScript(state: ConsoleState, nonce: string, now: number): string {
  const json = JSON.stringify(state).replace(/</g, '\\u003c')
  return `<script type="application/json" id="${STATE_ELEMENT_ID}" ${RENDERED_AT_ATTRIBUTE}="${now}" nonce="${escapeHtml(nonce)}">${json}</script>`
}

export function createConsoleRenderer(consoleDir: string): ConsoleRenderer {
  const file = path.join(consoleDir, 'index.html')
  if (!fs.existsSync(file)) {
    throw new Error(`${file} is missing: run "npm run build" first (npm start does it for you).`)
  }
  const html = fs.readFileSync(file, 'utf8')
  for (const slot of SLOTS) {
    if (html.split(slot).length !== 2) throw new Error(`${file} must hold ${slot} exactly once`)
  }
  // Cut once into fixed text and slots. The nonce goes into the fixed text only: the page's own text (a visitor's
  // message) is never searched for a placeholder.
  const parts = html.split(/(<!--app-title-->|<!--app-html-->|<!--app-state-->)/)
  const isSlot = (part: string): part is Slot => (SLOTS as readonly string[]).includes(part)

  return {
    page(state, nonce) {
      const now = Date.now()
      const attribute = `nonce="${escapeHtml(nonce)}"`
      const fill: Record<Slot, () => string> = {
        '<!--app-title-->': () => escapeHtml(consoleTitle(state)),
        '<!--app-html-->': () => renderConsole(state, now),
        '<!--app-state-->': () => stateScript(state, nonce, now),
      }
      return parts.map((part) => (isSlot(part) ? fill[part]() : part.replace(/<script(?=[\s>])/g, `<script ${attribute}`))).join('')
    },
  }
}

/** A console page as the answer: what every route of the console sends a browser that navigates to it. */
export function sendPage(reply: FastifyReply, renderer: ConsoleRenderer, state: ConsoleState, status = 200): FastifyReply {
  return reply.code(status).type('text/html; charset=utf-8').send(renderer.page(state, reply.cspNonce))
}
