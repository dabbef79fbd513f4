// Every JS class that owns WASM memory, for the leak and robustness tests:
// `create(ikpd)` makes a valid instance, `use(object)` calls a few methods,
// `cycles` create/dispose cycles in its own leak test (default 100,000), and
// `controller: true` puts it in the 1,000,000-object round-robin leak test.
// Add an entry when a module adds a class.
export const WASM_CLASSES = [
  {
    name: 'Tentacle2D',
    create: (ikpd) => new ikpd.Tentacle2D({ lengths: [1, 0.5, 0.25], step: 0.1, limit: [1, 1, 2] }),
    use: (t) => t.update([1, 1]).positions,
    cycles: 100_000,
  },
  {
    name: 'LookAt',
    create: (ikpd) => new ikpd.LookAt({ weights: [0.25, 0.5, 1], limits: [0.3, 0.5, 1], settleTime: [0.4, 0.3, 0.2], damping: 'responsive' }),
    use: (l) => l.update(1 / 60, { joints: [0, 1, 2].map((y) => ({ position: [0, y, 0] })), target: [1, 2, 1] }),
    cycles: 20_000, // each creation configures one QuatPD per joint
  },
  {
    name: 'BodyLookAt',
    create: (ikpd) => new ikpd.BodyLookAt({ spineJoints: 3, spine: { settleTime: [0.5, 0.3, 0.2] }, weightShift: { amount: 0.1 } }),
    use: (b) => b.update(1 / 60, {
      spine: [1, 1.3, 1.6].map((y) => ({ position: [0, y, 0] })),
      legs: [[0.1, 0.95, 0], [0.1, 0.5, 0.05], [0.1, 0.1, 0]].map((position) => ({ position })),
      target: [1, 2, 1],
    }),
    cycles: 20_000, // each creation configures one QuatPD per spine joint and arm
  },
  {
    name: 'Rig',
    create: (ikpd) => {
      const rig = new ikpd.Rig({ parents: [-1, 0, 1, 2] });
      rig.add('twoBone', { joints: [1, 2, 3], settleTime: 0.2 });
      return rig;
    },
    use: (r) => r.update(1 / 60).output,
    cycles: 20_000, // each creation allocates the skeleton, the buffers and one constraint
  },
  {
    name: 'RigBatch',
    create: (ikpd) => {
      const rig = new ikpd.Rig({ parents: [-1, 0, 1, 2] });
      rig.add('twoBone', { joints: [1, 2, 3], settleTime: 0.2 });
      const batch = new ikpd.RigBatch({ rig, count: 16 });
      rig.dispose();
      return batch;
    },
    use: (b) => b.update(1 / 60).output,
    cycles: 10_000, // each creation makes and frees a Rig too
  },
  {
    name: 'PD',
    controller: true,
    create: (ikpd) => new ikpd.PD({ settleTime: 0.5 }),
    use: (pd) => [pd.update(1 / 60, 1), pd.stateAt(0.1), pd.timeToSettle(0.01)],
    cycles: 10_000,
  },
  {
    name: 'AnglePD',
    controller: true,
    create: (ikpd) => new ikpd.AnglePD({ settleTime: 0.5 }),
    use: (pd) => [pd.update(1 / 60, 3), pd.blendOut(1 / 60)],
    cycles: 10_000,
  },
  {
    name: 'Vec3PD',
    controller: true,
    create: (ikpd) => new ikpd.Vec3PD({ method: 'componentwise' }),
    use: (pd) => [pd.update(1 / 60, [0, 1, 0]), pd.stateAt(-0.01)],
    cycles: 10_000,
  },
  {
    name: 'QuatPD',
    controller: true,
    create: (ikpd) => new ikpd.QuatPD({ maxAngle: 1 }),
    use: (pd) => [pd.update(1 / 60, [0, 0.5, 0, 0.9]), pd.trackOffset(1 / 60, [0, 0, 0, 1], null)],
    cycles: 10_000,
  },
  // batch (web/src/batch/batch.js); 100,000 cycles: each creation also fills its fields.
  { name: 'TwoBoneBatch', create: (ikpd) => new ikpd.TwoBoneBatch(16, { poleMode: 'point' }), use: (b) => b.input.target.fill(1), cycles: 100_000 },
  { name: 'AimBatch', create: (ikpd) => new ikpd.AimBatch(16), use: (b) => b.input.target.fill(1), cycles: 100_000 },
  { name: 'PseudoThreeBoneBatch', create: (ikpd) => new ikpd.PseudoThreeBoneBatch(16, { variant: 'followMid' }), use: (b) => b.input.tipPosition.fill(1), cycles: 100_000 },
  { name: 'PDBatch', create: (ikpd) => new ikpd.PDBatch(16, { settleTime: 0.5 }), use: (b) => b.update(1 / 60), cycles: 100_000 },
  { name: 'Inertializer', create: (ikpd) => new ikpd.Inertializer(24, { halfLife: 0.1 }), use: (x) => [x.transition(), x.update(1 / 60)], cycles: 20_000 },
  { name: 'QuatPDBatch', create: (ikpd) => new ikpd.QuatPDBatch(16, { maxAngle: 1 }), use: (b) => b.update(1 / 60), cycles: 100_000 },
  // prepared solvers (web/src/ik/solvers.js)
  {
    name: 'TwoBoneSolver',
    create: (ikpd) => new ikpd.TwoBoneSolver({ soften: 0.05, pole: [0, 1, 0] }),
    use: (s) => s.solve({ root: { position: [0, 0, 0] }, mid: { position: [1, 0, 0] }, end: { position: [2, 0, 0] }, target: [1, 1, 0] }),
    cycles: 100_000,
  },
  {
    name: 'AimSolver',
    create: (ikpd) => new ikpd.AimSolver({ method: 'crossProduct' }),
    use: (s) => s.solve({ position: [0, 0, 0], target: [1, 2, 3] }),
    cycles: 100_000,
  },
  {
    name: 'PseudoThreeBoneSolver',
    create: (ikpd) => new ikpd.PseudoThreeBoneSolver({ variant: 'followMid', pole: [0, 1, 0] }),
    use: (s) => s.solve({
      root: { position: [0, 0, 0] }, mid: { position: [1, 0, 0] }, end: { position: [2, 0, 0] },
      tip: { position: [2, -0.5, 0] }, target: [1, 1, 0],
    }),
    cycles: 100_000,
  },
  {
    name: 'ChainSolver',
    create: (ikpd) => new ikpd.ChainSolver(4, { limits: [{ type: 'cone', angle: 1 }, null, null] }),
    use: (s) => s.solve({ joints: [0, 1, 2, 3].map((x) => ({ position: [x, 0, 0] })), target: [1, 2, 0] }),
    cycles: 100_000,
  },
  {
    name: 'HdrBuffer',
    create: (ikpd) => ikpd.hdr.createBuffer(64, 4),
    use: (b) => b.data.fill(0.5),
    cycles: 100_000,
  },
];
