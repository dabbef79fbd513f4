// API module 'chain' (see web/types/chain.d.ts). Returns the members it adds to the ikpd object.
// eslint-disable-next-line no-unused-vars
export function createChainApi(core) {
  return {};
}
