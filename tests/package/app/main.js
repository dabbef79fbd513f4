// The page every package test loads (Vite dev and build, a static page):
// a two-bone solve, then 100 PD controllers dropped without dispose() for
// the leak-warning check (the FinalizationRegistry frees them after a GC).
import { init } from 'ikpd';

const ikpd = await init();
const r = ikpd.solveTwoBone({
  root: { position: [0, 0, 0] }, mid: { position: [1, 0.1, 0] }, end: { position: [2, 0, 0] },
  target: [1, 1, 0],
});
new ikpd.PD({ settleTime: 1 }).dispose(); // the first controller allocates storage that stays
const before = ikpd.memoryStats().usedBytes;
for (let i = 0; i < 100; i++) new ikpd.PD({ settleTime: 1 });
window.ikpdUsedBytes = () => ikpd.memoryStats().usedBytes;
window.ikpdResult = { version: ikpd.version, reached: r.reached, end: Array.from(r.end.position), before };
