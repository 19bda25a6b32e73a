// Reads an invoice back as its receivers do: the PDF's text with poppler's pdftotext, the E-Rechnung's XML taken
// out of the PDF/A-3 with poppler's pdfdetach, checked against the CII schema (XSD, D16B) with libxml2's xmllint and
// against the EN 16931 business rules with the Schematron of the European Commission (CEN/TC 434's validation
// artefacts, ConnectingEurope/eInvoicing-EN16931, compiled XSLT run by Saxon-JS through xslt3). The artefacts are
// in tests/fixtures/en16931 (EUPL 1.2, its LICENSE.txt beside them).
import { execFileSync } from 'node:child_process'
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import { createRequire } from 'node:module'
import os from 'node:os'
import path from 'node:path'

/** Debian's, or the paths scripts/system-tools.ts found or installed for npm test. */
const PDFTOTEXT = process.env.PDFTOTEXT_PATH ?? '/usr/bin/pdftotext'
const PDFDETACH = path.join(path.dirname(PDFTOTEXT), 'pdfdetach')
const PDFINFO = path.join(path.dirname(PDFTOTEXT), 'pdfinfo')
const PDFFONTS = path.join(path.dirname(PDFTOTEXT), 'pdffonts')
const XMLLINT = process.env.XMLLINT_PATH ?? '/usr/bin/xmllint'

/** A seller as invoices need one (decision 038): name, address and tax number; a test adds what it needs besides. */
export const SELLER_ENV = {
  SELLER_NAME: 'Jürgen Müller Domains',
  SELLER_STREET: 'Hauptstraße 5',
  SELLER_POSTCODE: '10115',
  SELLER_CITY: 'Berlin',
  SELLER_TAX_NUMBER: '27/123/45678',
}

const root = path.resolve(import.meta.dirname, '../..')
const FIXTURES = path.join(root, 'tests/fixtures/en16931')
const XSD = path.join(FIXTURES, 'schema/uncefact/data/standard/CrossIndustryInvoice_100pD16B.xsd')
const XSLT = path.join(FIXTURES, 'xslt/EN16931-CII-validation.xslt')
const XSLT3 = createRequire(import.meta.url).resolve('xslt3/xslt3.js')

function inTempDir<T>(work: (dir: string) => T): T {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'invoice-check-'))
  try {
    return work(dir)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
}

/** The PDF's text in reading order (with -layout: the columns as printed). */
export const pdfText = (pdf: Buffer, layout = false) =>
  inTempDir((dir) => {
    const file = path.join(dir, 'invoice.pdf')
    fs.writeFileSync(file, pdf)
    return execFileSync(PDFTOTEXT, [...(layout ? ['-layout'] : []), '-enc', 'UTF-8', file, '-'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8')
  })

/** Each word of the PDF's text with its box in points (poppler's -bbox), and the width of its first page. */
export const pdfWords = (pdf: Buffer): { pageWidth: number; words: { text: string; xMin: number; xMax: number }[] } =>
  inTempDir((dir) => {
    const file = path.join(dir, 'invoice.pdf')
    fs.writeFileSync(file, pdf)
    const html = execFileSync(PDFTOTEXT, ['-bbox', '-enc', 'UTF-8', file, '-'], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8')
    const unescaped = (text: string) =>
      text
        .replace(/&lt;/g, '<')
        .replace(/&gt;/g, '>')
        .replace(/&quot;/g, '"')
        .replace(/&amp;/g, '&')
    return {
      pageWidth: Number(/<page width="([\d.]+)"/.exec(html)![1]),
      words: [...html.matchAll(/<word xMin="([-\d.]+)" yMin="[-\d.]+" xMax="([-\d.]+)" yMax="[-\d.]+">([^<]*)<\/word>/g)].map((match) => ({
        text: unescaped(match[3]!),
        xMin: Number(match[1]),
        xMax: Number(match[2]),
      })),
    }
  })

/** The names of the files embedded in the PDF, and factur-x.xml's text (null without one). */
export const embeddedXml = (pdf: Buffer): { names: string[]; xml: string | null } =>
  inTempDir((dir) => {
    const file = path.join(dir, 'invoice.pdf')
    fs.writeFileSync(file, pdf)
    const list = execFileSync(PDFDETACH, ['-list', file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8')
    const names = [...list.matchAll(/^\d+: (.+)$/gm)].map((match) => match[1]!)
    const index = names.indexOf('factur-x.xml')
    if (index === -1) return { names, xml: null }
    const out = path.join(dir, 'factur-x.xml')
    execFileSync(PDFDETACH, ['-save', String(index + 1), '-o', out, file], { stdio: 'ignore' })
    return { names, xml: fs.readFileSync(out, 'utf8') }
  })

/**
 * What a PDF/A-3 with a Factur-X must declare, read with poppler: no conformance check (veraPDF cannot be installed
 * here, decision 039), only the markers a receiver looks for first. The XMP's PDF/A identification and Factur-X
 * fields, an output intent with an ICC profile, the XML's file relationship, and whether every font is embedded.
 */
export const pdfaMarkers = (pdf: Buffer) =>
  inTempDir((dir) => {
    const file = path.join(dir, 'invoice.pdf')
    fs.writeFileSync(file, pdf)
    const xmp = execFileSync(PDFINFO, ['-meta', file], { stdio: ['ignore', 'pipe', 'pipe'] }).toString('utf8')
    const fonts = execFileSync(PDFFONTS, [file], { stdio: ['ignore', 'pipe', 'pipe'] })
      .toString('utf8')
      .split('\n')
      .slice(2)
      .filter((line) => line.trim() !== '')
    const field = (name: string) => new RegExp(`<${name}>([^<]*)</${name}>`).exec(xmp)?.[1] ?? null
    const raw = pdf.toString('latin1')
    return {
      part: field('pdfaid:part'),
      conformance: field('pdfaid:conformance'),
      facturX: { documentType: field('fx:DocumentType'), fileName: field('fx:DocumentFileName'), conformanceLevel: field('fx:ConformanceLevel') },
      outputIntent: raw.includes('/OutputIntents') && raw.includes('/GTS_PDFA1') && raw.includes('/DestOutputProfile'),
      afRelationship: /\/AFRelationship\s*\/(\w+)/.exec(raw)?.[1] ?? null,
      // pdffonts' "emb" column: every font embedded, as PDF/A requires.
      allFontsEmbedded: fonts.length > 0 && fonts.every((line) => / yes +(?:yes|no) +(?:yes|no) +\d+ +\d+$/.test(line)),
    }
  })

/** xmllint's complaints about the XML against the CII D16B schema; empty when it is valid. */
export const schemaErrors = (xml: string): string[] =>
  inTempDir((dir) => {
    const file = path.join(dir, 'invoice.xml')
    fs.writeFileSync(file, xml)
    try {
      execFileSync(XMLLINT, ['--noout', '--nonet', '--schema', XSD, file], { stdio: ['ignore', 'pipe', 'pipe'] })
      return []
    } catch (error) {
      return String((error as { stderr?: Buffer }).stderr ?? error)
        .split('\n')
        .filter((line) => line.trim() !== '' && !line.endsWith('fails to validate'))
    }
  })

/** The Schematron compiled once per version of its XSLT (about a minute), kept in node_modules/.cache. */
function compiledSchematron(): string {
  const hash = createHash('sha256').update(fs.readFileSync(XSLT)).digest('hex').slice(0, 16)
  const cache = path.join(root, 'node_modules/.cache/en16931')
  const sef = path.join(cache, `EN16931-CII-validation-${hash}.sef.json`)
  if (fs.existsSync(sef)) return sef
  fs.mkdirSync(cache, { recursive: true })
  const partial = `${sef}.${process.pid}.tmp`
  execFileSync(process.execPath, [XSLT3, `-xsl:${XSLT}`, `-export:${partial}`, '-nogo'], { stdio: 'ignore' })
  fs.renameSync(partial, sef)
  return sef
}

/** Compiles the Schematron now (call it in a beforeAll with a long timeout). */
export const prepareSchematron = () => void compiledSchematron()

/** The EN 16931 rules the XML breaks (their ids and texts, fatal ones and warnings apart); none when it conforms. */
export const schematronReport = (xml: string): { fatal: string[]; warnings: string[]; rulesFired: number } =>
  inTempDir((dir) => {
    const file = path.join(dir, 'invoice.xml')
    const out = path.join(dir, 'report.svrl')
    fs.writeFileSync(file, xml)
    execFileSync(process.execPath, [XSLT3, `-xsl:${compiledSchematron()}`, `-s:${file}`, `-o:${out}`], { stdio: 'ignore' })
    const svrl = fs.readFileSync(out, 'utf8')
    const failed = [...svrl.matchAll(/<svrl:failed-assert\b[^>]*\bid="([^"]+)"[^>]*\bflag="([^"]+)"[^>]*>[\s\S]*?<svrl:text>([\s\S]*?)<\/svrl:text>/g)].map(
      (match) => ({ id: match[1]!, flag: match[2]!, text: match[3]!.trim() }),
    )
    return {
      fatal: failed.filter((entry) => entry.flag === 'fatal').map((entry) => `${entry.id}: ${entry.text}`),
      warnings: failed.filter((entry) => entry.flag !== 'fatal').map((entry) => `${entry.id}: ${entry.text}`),
      rulesFired: (svrl.match(/<svrl:fired-rule\b/g) ?? []).length,
    }
  })
