// Emscripten --pre-js (runs inside the module factory). The .wasm is embedded
// as a base64 data: URI (SINGLE_FILE). Outside browsers Emscripten decodes it
// with atob() and a charCodeAt loop, about 7 ms for our 260 KB; where the
// runtime has a native decoder (Uint8Array.fromBase64, Node's Buffer) we
// decode and instantiate here instead (Module.instantiateWasm hook).
// `wasmBinaryFile` and `dataURIPrefix` are Emscripten's own variables.
(function () {
  var B = globalThis.Buffer;
  var decode = typeof Uint8Array.fromBase64 == "function" ? function (s) { return Uint8Array.fromBase64(s); }
    : typeof B == "function" && typeof B.from == "function" ? function (s) { return B.from(s, "base64"); }
    : null;
  if (!decode || Module["instantiateWasm"]) return;
  Module["instantiateWasm"] = function (imports, receiveInstance) {
    var bytes = decode(wasmBinaryFile.slice(dataURIPrefix.length));
    WebAssembly.instantiate(bytes, imports).then(function (result) {
      receiveInstance(result["instance"], result["module"]);
    }, function (reason) {
      err("failed to asynchronously prepare wasm: " + reason);
      abort(reason);
    });
    return {};
  };
})();
