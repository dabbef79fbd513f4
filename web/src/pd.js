// API module 'pd' (see web/types/pd.d.ts). Returns the members it adds to the ikpd object.
// eslint-disable-next-line no-unused-vars
export function createPdApi(core) {
  return {};
}
