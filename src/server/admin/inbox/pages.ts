// The inbox's server-rendered pages (the inbox, the outbox, the overview, an inquiry): the state a page is rendered
// with, from the same data as the JSON API (data.ts). The admin app asks it for every page it renders.
import type { FastifyRequest } from 'fastify'
import type { ConsoleState } from '../../../shared/console-api.ts'
import { inboxDataOf } from './data.ts'

const INQUIRY_PAGE = /^\/anfragen\/(\d{1,15})$/

/**
 * The state of the console page at the request's path (GET, signed in), or null when there is no such page.
 * Paths: CONSOLE_PATHS in src/shared/console-api.ts.
 */

export async function loadPage(request: FastifyRequest): Promise<ConsoleState | null> {
  const { store } = request.server
  const data = inboxDataOf(request.server)
  const path = request.url.split('?')[0] ?? '/'
  if (path === '/') return { page: 'inbox', ...(await data.inbox(request.query)) }
  if (path === '/postausgang') return { page: 'outbox', data: await data.outbox(request.query) }
  if (path === '/uebersicht') return { page: 'overview', data: await data.overview(request.query) }
  const inquiry = INQUIRY_PAGE.exec(path)
  if (inquiry) {
    const thread = await store.inquiryThread(Number(inquiry[1]))
    return thread ? { page: 'inquiry', data: data.detailOf(thread, await store.openDealOf(thread.inquiry.id)) } : null
  }
  return null
}
