// Removes Emscripten's per-export JS wrappers (Module["_ikpd_x"] = function(){...}) from the
// generated module: web/src uses Module.rawExports() (post.js) and never these wrappers.
import { readFileSync, writeFileSync } from 'node:fs';
const file = process.argv[2];
const text = readFileSync(file, 'latin1');
const patterns = [
  // -O2/-O3 minified glue
  /var (_ikpd_\w+)=Module\["\1"\]=function\(\)\{return\(\1=Module\["\1"\]=Module\["asm"\]\["[\w$]+"\]\)\.apply\(null,arguments\)\};/g,
  // --closure 1 glue (Module renamed to one identifier)
  /([\w$]+)\.(_ikpd_\w+)=function\(\)\{return\(\1\.\2=\1\.asm\.[\w$]+\)\.apply\(null,arguments\)\};/g,
];
let out = text, removed = 0;
for (const re of patterns) out = out.replace(re, () => { removed++; return ''; });
if (removed === 0) { console.error('strip-wrappers: no export wrapper found'); process.exit(1); }
writeFileSync(file, out, 'latin1');
console.log(`strip-wrappers: removed ${removed} wrappers`);
