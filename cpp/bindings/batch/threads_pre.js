// --pre-js of the threaded module (CMakeLists.txt, ikpd_wasm_threads): in
// Node, Emscripten 3.1.6's ES-module glue calls require() and reads __dirname,
// which an ES module lacks. The main thread gets them from
// web/src/threads.js (Module.nodeRequire); the pthread workers' script sets a
// global require before it imports the glue.
var require = Module['nodeRequire'] || globalThis.require;
var __dirname = Module['nodeDirname'] || '';
var Worker = Module['nodeWorker'] || globalThis.Worker;
