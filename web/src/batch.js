// API module 'batch' (see web/types/batch.d.ts). Returns the members it adds to the ikpd object.
// eslint-disable-next-line no-unused-vars
export function createBatchApi(core) {
  return {};
}
