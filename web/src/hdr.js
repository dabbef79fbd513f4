// API module 'hdr' (see web/types/hdr.d.ts). Returns the members it adds to the ikpd object.
// eslint-disable-next-line no-unused-vars
export function createHdrApi(core) {
  return {};
}
