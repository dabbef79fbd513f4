// ikpd/three — typings.
export {};
