// Typings for the 'hdr' API module.
export interface HdrApi {}
