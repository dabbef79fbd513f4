// Typings for the 'batch' API module.
export interface BatchApi {}
