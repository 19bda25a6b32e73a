// Starting the production server: what the owner sees in the log, and what a wrong setting does.
import { expect, test } from 'vitest'
import { startServerProcess } from '../helpers/server.ts'

test('the start-up log names the URL to open and, without SMTP_URL, where the mails are written', async () => {
  const server = await startServerProcess({})
  try {
    const log = server.output.join('\n')
    expect(log).toContain(`domain-lander is ready: open ${server.url}/`)
    expect(log).toContain(`every inquiry is written as an .eml file to ${server.dataDir}/mail`)
  } finally {
    expect(await server.stop()).toBe(0)
    server.cleanup()
  }
})

test.each([
  ['PORT', { PORT: 'dreitausend' }],
  ['SMTP_URL', { SMTP_URL: 'http://mail.example.de' }],
  ['MAIL_TO', { SMTP_URL: 'smtp://mail.example.de:587', MAIL_TO: '' }],
  ['CONTACT_RATE_LIMIT', { CONTACT_RATE_LIMIT: 'viele' }],
])('a wrong %s stops the server with a message naming it', async (variable, env) => {
  await expect(startServerProcess(env)).rejects.toThrow(new RegExp(`exited \\(1\\)[\\s\\S]*Invalid configuration:\\n  ${variable}: `))
})
