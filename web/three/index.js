// ikpd/three — helpers that apply ikpd solvers to three.js objects (three is a peer dependency).
export {};
