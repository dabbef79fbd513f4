// API module 'ik' (see web/types/ik.d.ts). Returns the members it adds to the ikpd object.
// eslint-disable-next-line no-unused-vars
export function createIkApi(core) {
  return {};
}
