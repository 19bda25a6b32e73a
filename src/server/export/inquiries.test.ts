import { parse } from 'csv-parse/sync'
import { expect, test } from 'vitest'
import type { InquiryListing } from '../store/types.ts'
import { exportText, inquiryJson } from './inquiries.ts'

const listing = (fields: Partial<InquiryListing>): InquiryListing => ({
  id: 1,
  token: 'abcdefghijklmno',
  contentHash: 'h',
  domain: 'example.com',
  name: 'John',
  email: 'john@example.org',
  message: 'How much?',
  language: 'en',
  spamReason: null,
  offer: null,
  belowMinimum: false,
  createdAt: Date.UTC(2026, 6, 1),
  mailStatus: 'sent',
  ...fields,
})

test('the export says which language each inquiry was written in, in the last column', () => {
  const rows = [listing({ id: 2 }), listing({ id: 1, language: 'de' })]
  expect(inquiryJson(rows[0]!).language).toBe('en')
  const records = parse(exportText(rows, 'csv'), { bom: true }) as string[][]
  expect(records[0]!.at(-1)).toBe('language')
  expect(records.slice(1).map((record) => record.at(-1))).toEqual(['en', 'de'])
  expect(JSON.parse(exportText(rows, 'json')).map((row: { language: string }) => row.language)).toEqual(['en', 'de'])
})
