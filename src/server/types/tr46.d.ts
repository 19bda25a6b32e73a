// tr46 (the UTS #46 implementation behind whatwg-url) ships no types.
declare module 'tr46' {
  interface Options {
    checkHyphens?: boolean
    checkBidi?: boolean
    checkJoiners?: boolean
    useSTD3ASCIIRules?: boolean
    verifyDNSLength?: boolean
    transitionalProcessing?: boolean
    ignoreInvalidPunycode?: boolean
  }
  export function toASCII(domain: string, options?: Options): string | null
  export function toUnicode(domain: string, options?: Options): { domain: string; error: boolean }
  const tr46: { toASCII: typeof toASCII; toUnicode: typeof toUnicode }
  export default tr46
}
