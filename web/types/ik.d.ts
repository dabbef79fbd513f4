// Typings for the 'ik' API module.
export interface IkApi {}
