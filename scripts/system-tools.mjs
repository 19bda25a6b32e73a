// Only for scripts/screenshots.mjs and scripts/lighthouse.mjs, which are still .mjs: they import this name. Once they
// import './system-tools.ts' themselves, this file goes (docs/decisions/001-stack-and-layout.md).
export * from './system-tools.ts'
