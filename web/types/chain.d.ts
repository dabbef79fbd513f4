// Typings for the 'chain' API module.
export interface ChainApi {}
