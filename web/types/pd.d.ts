// Typings for the 'pd' API module.
export interface PdApi {}
