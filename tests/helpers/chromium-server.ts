// The one headless Chromium (Debian's, or CHROMIUM_PATH) of a test run, started by the global setup and reached by
// every browser test file over Playwright's protocol (tests/helpers/chromium.ts).
import { chromium } from 'playwright-core'

declare module 'vitest' {
  export interface ProvidedContext {
    /**
     * Where the run's Chromium listens (a ws:// URL), or why it could not be started ("error: …"): the machine may
     * have no Chromium, which only the browser tests need.
     */
    chromium: string
  }
}

export async function launchChromiumServer(): Promise<{ endpoint: string; close(): Promise<void> }> {
  try {
    const server = await chromium.launchServer({
      executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
      headless: true,
      // Only this machine's test files connect.
      host: '127.0.0.1',
      args: [
        '--no-sandbox',
        '--disable-gpu',
        '--disable-quic',
        '--no-first-run',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        // Any host name resolves to loopback: pages for real-looking domains, and nothing can leave the machine.
        '--host-resolver-rules=MAP * 127.0.0.1',
      ],
    })
    return { endpoint: server.wsEndpoint(), close: () => server.close() }
  } catch (error) {
    return { endpoint: `error: ${(error as Error).message.split('\n')[0]}`, close: async () => {} }
  }
}
