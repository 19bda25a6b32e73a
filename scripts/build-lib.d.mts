export const root: string
export function buildIsFresh(): boolean
export function build(options?: { force?: boolean }): Promise<boolean>
