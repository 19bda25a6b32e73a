import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { afterEach, beforeEach, expect, test } from 'vitest'
import { replaceFile } from './replace-file.ts'

let dir: string
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'replace-file-'))
})
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }))

test('the new text replaces the file, keeping its mode, and no temporary file is left', async () => {
  const file = path.join(dir, 'domains.yaml')
  fs.writeFileSync(file, 'domains: {}\n')
  fs.chmodSync(file, 0o640)
  const inode = fs.statSync(file).ino
  await replaceFile(file, 'domains:\n  neu.de: {}\n')
  expect(fs.readFileSync(file, 'utf8')).toBe('domains:\n  neu.de: {}\n')
  expect(fs.statSync(file).mode & 0o777).toBe(0o640)
  // A new file renamed over the old one: a reader that opened the old one still reads all of it.
  expect(fs.statSync(file).ino).not.toBe(inode)
  expect(fs.readdirSync(dir)).toEqual(['domains.yaml'])
})

test('through a symbolic link the file it names is replaced, and the link stays a link', async () => {
  fs.mkdirSync(path.join(dir, 'real'))
  const real = path.join(dir, 'real', 'domains.yaml')
  fs.writeFileSync(real, 'domains: {}\n')
  const link = path.join(dir, 'domains.yaml')
  fs.symlinkSync(real, link)
  await replaceFile(link, 'domains:\n  neu.de: {}\n')
  expect(fs.lstatSync(link).isSymbolicLink()).toBe(true)
  expect(fs.readFileSync(real, 'utf8')).toBe('domains:\n  neu.de: {}\n')
})

test('a file that does not exist yet is made', async () => {
  const file = path.join(dir, 'domains.json')
  await replaceFile(file, '{}\n')
  expect(fs.readFileSync(file, 'utf8')).toBe('{}\n')
})

test('when the rename fails the old file stays as it was and the temporary file is removed', async () => {
  const file = path.join(dir, 'domains.yaml')
  // A directory where the file should be: the rename over it fails.
  fs.mkdirSync(file)
  await expect(replaceFile(file, 'domains: {}\n')).rejects.toThrow()
  expect(fs.statSync(file).isDirectory()).toBe(true)
  expect(fs.readdirSync(dir)).toEqual(['domains.yaml'])
})

test('when the check of the written file throws, the old file stays as it was and the temporary file is removed', async () => {
  const file = path.join(dir, 'domains.json')
  fs.writeFileSync(file, '{}\n')
  let checked = ''
  const refuse = async (written: string) => {
    checked = fs.readFileSync(written, 'utf8')
    // The loader tells the format by the name's end.
    expect(written.endsWith('.json')).toBe(true)
    throw new Error('too large')
  }
  await expect(replaceFile(file, '{"domains":{}}\n', refuse)).rejects.toThrow('too large')
  expect(checked).toBe('{"domains":{}}\n')
  expect(fs.readFileSync(file, 'utf8')).toBe('{}\n')
  expect(fs.readdirSync(dir)).toEqual(['domains.json'])
})
