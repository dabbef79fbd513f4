// A crowd (docs/batch/batches.md, "A crowd in the demo"): 2,000 to 10,000
// stick characters walk rings over uneven ground and look at one target.
// demo/lib/crowd.js solves them with three batches per frame (TwoBoneBatch for
// 4 limbs each, AimBatch + QuatPDBatch for a 5-joint look-at each) and writes
// the instance matrices of one InstancedMesh per bone-segment kind directly:
// no Object3D per character. The solver control (and ?solver=rigBatch) swaps
// in demo/lib/crowdRigBatch.js: one RigBatch.update per frame for the same
// walk and look. The panel reads the solver and its time per frame; the
// threads toggle reloads the page with ?threads=2 or ?threads=1, because
// init() runs once per page.
import * as THREE from 'three/webgpu';
import { mergeGeometries } from 'three/addons/utils/BufferGeometryUtils.js';
import { boneGeometry, colors, handle, setupStage, standard } from '../lib/stage.js';
import { createCrowd, hash, PER_CHARACTER, SKELETON } from '../lib/crowd.js';
import { createRigBatchCrowd } from '../lib/crowdRigBatch.js';
import { terrainHeight } from '../lib/terrain.js';
import { readUrlOptions } from '../output.js';

const DEFAULT_COUNT = 2000;
const MAX_COUNT = 10000;
const SAMPLE = 64; // characters state() reports in full (feet, heads)
const SMOOTHING = 0.5; // s: time constant of the readout's smoothing
/** The solvers (control label → solver) and how each is made and named. */
const SOLVERS = /* @__PURE__ */ Object.freeze({ 'three batches': 'batches', RigBatch: 'rigBatch' });
const CREATE = /* @__PURE__ */ Object.freeze({ batches: createCrowd, rigBatch: createRigBatchCrowd });
const SOLVER_TEXT = /* @__PURE__ */ Object.freeze({
  batches: 'solver: three batches (TwoBoneBatch, AimBatch + QuatPDBatch)',
  rigBatch: 'solver: RigBatch — one update per frame for every character (?solver=rigBatch)',
});

/** One geometry per bone-segment kind, in the joint's frame (limbs hang along −Y, +Z ahead). */
function kindGeometries() {
  const S = SKELETON;
  const box = (w, h, d, y, z = 0) => new THREE.BoxGeometry(w, h, d).translate(0, y, z);
  const headGeometry = mergeGeometries([
    new THREE.IcosahedronGeometry(0.11, 1).translate(0, 0.11, 0.01),
    box(0.15, 0.04, 0.05, 0.13, 0.095).toNonIndexed(), // a visor: where the head looks
  ], true);
  return {
    thigh: boneGeometry(S.thigh, '-y', 0.17),
    shin: boneGeometry(S.shin, '-y', 0.14),
    foot: box(0.09, 0.06, 0.22, -S.ankle + 0.03, 0.06),
    upperArm: boneGeometry(S.upperArm, '-y', 0.2),
    forearm: boneGeometry(S.forearm, '-y', 0.18),
    pelvis: box(0.28, S.spine[0] + S.hipDrop, 0.16, (S.spine[0] - S.hipDrop) / 2),
    belly: box(0.25, S.spine[1], 0.15, S.spine[1] / 2),
    chest: box(2 * S.shoulderX + 0.04, S.spine[2], 0.18, S.spine[2] / 2),
    neck: new THREE.CylinderGeometry(0.04, 0.045, S.spine[3], 8).translate(0, S.spine[3] / 2, 0),
    head: headGeometry,
  };
}

/** The ground: the sum of sines on a grid of about 0.5 m, shaded by height. */
function groundMesh(radius) {
  const size = 2 * (radius + 10);
  const segments = Math.ceil(size / 0.5);
  const geometry = new THREE.PlaneGeometry(size, size, segments, segments).rotateX(-Math.PI / 2);
  const position = geometry.attributes.position;
  const color = new Float32Array(position.count * 3);
  const low = new THREE.Color(0x252830), high = new THREE.Color(0x3d4250), c = new THREE.Color();
  for (let i = 0; i < position.count; i++) {
    const h = terrainHeight(position.getX(i), position.getZ(i));
    position.setY(i, h);
    c.lerpColors(low, high, THREE.MathUtils.clamp(0.5 + h, 0, 1)).toArray(color, 3 * i);
  }
  geometry.setAttribute('color', new THREE.BufferAttribute(color, 3));
  geometry.computeVertexNormals();
  return new THREE.Mesh(geometry, new THREE.MeshStandardMaterial({ vertexColors: true, roughness: 0.95 }));
}

export async function create(ctx) {
  const { scene, camera, controls, ikpd } = ctx;
  const { key } = setupStage(ctx, { ground: false, size: 40 });
  key.castShadow = false; // tens of thousands of instances: no shadow pass
  camera.far = 400;
  camera.position.set(9, 6, 36);
  controls.target.set(0, 1, 17);

  const skin = standard(0xd8b59a, { flatShading: false });
  const materials = {
    limb: standard(colors.bone),
    foot: standard(0x4a4f5a),
    cloth: standard(0xffffff), // tinted per character (instanceColor)
    skin,
    visor: standard(colors.accent, { emissive: colors.accent, emissiveIntensity: 0.6 }),
  };
  const materialOf = {
    thigh: materials.cloth, shin: materials.limb, foot: materials.foot, upperArm: materials.limb, forearm: materials.limb,
    pelvis: materials.cloth, belly: materials.cloth, chest: materials.cloth, neck: skin, head: [skin, materials.visor],
  };
  const geometries = kindGeometries();

  const { threads: requested, solver } = readUrlOptions();
  const params = {
    solver: ikpd.RigBatch ? solver : 'batches',
    characters: DEFAULT_COUNT,
    speed: 0.7,
    lookAt: true,
    settleTime: 0.3,
    orbit: true,
    threads: ikpd.threads > 1,
  };
  const target = ctx.draggable('target', handle(colors.target, 0.25, 0.8), {
    onChange: () => { params.orbit = false; orbitControl.updateDisplay(); },
  });
  scene.add(target);

  // ---------------------------------------------------------------- the crowd and its meshes
  let crowd = null;
  let ground = null;
  const meshes = {};
  const matrices = {};
  const shirt = new THREE.Color();
  function build(count) {
    crowd?.dispose();
    for (const mesh of Object.values(meshes)) { scene.remove(mesh); mesh.dispose(); }
    if (ground) { scene.remove(ground); ground.geometry.dispose(); ground.material.dispose(); }
    crowd = CREATE[params.solver](ikpd, count, { settleTime: params.settleTime });
    crowd.speed = params.speed;
    crowd.setLook(params.lookAt);
    ground = groundMesh(crowd.radius);
    scene.add(ground);
    for (const [kind, per] of Object.entries(PER_CHARACTER)) {
      const mesh = new THREE.InstancedMesh(geometries[kind], materialOf[kind], per * count);
      mesh.instanceMatrix.setUsage(THREE.DynamicDrawUsage);
      mesh.frustumCulled = false; // the instances move every frame; no bounds to keep
      meshes[kind] = mesh;
      matrices[kind] = mesh.instanceMatrix.array;
      scene.add(mesh);
    }
    // Shirts and trousers: one colour per character, on its torso and thighs.
    for (let i = 0; i < count; i++) {
      shirt.setHSL(hash(i, 7), 0.45, 0.45 + 0.15 * hash(i, 8));
      meshes.belly.setColorAt(i, shirt);
      meshes.chest.setColorAt(i, shirt);
      shirt.setHSL(0.55 + 0.2 * hash(i, 9), 0.25, 0.18 + 0.12 * hash(i, 10));
      meshes.pelvis.setColorAt(i, shirt);
      meshes.thigh.setColorAt(2 * i, shirt);
      meshes.thigh.setColorAt(2 * i + 1, shirt);
    }
    ctx.bounds.set(new THREE.Vector3(-crowd.radius, 0.5, -crowd.radius), new THREE.Vector3(crowd.radius, 8, crowd.radius));
    orbitRadius = Math.min(12, 0.45 * crowd.radius);
    stats.frames = 0;
    lines[4].textContent = SOLVER_TEXT[crowd.solver];
  }

  // ---------------------------------------------------------------- controls
  const gui = ctx.gui;
  gui.add(params, 'characters', 100, MAX_COUNT, 100).onFinishChange((n) => build(n));
  // Switching keeps the page (and ?solver= in its address, for a reload by the threads toggle).
  ctx.enableWhen(gui.add(params, 'solver', SOLVERS).onChange((value) => {
    build(params.characters);
    const search = new URLSearchParams(location.search);
    search.set('solver', value);
    history.replaceState(history.state, '', `${location.pathname}?${search}${location.hash}`);
  }), () => Boolean(ikpd.RigBatch));
  gui.add(params, 'speed', 0, 1.5, 0.05).name('walk speed (m/s)').onChange((v) => { crowd.speed = v; });
  gui.add(params, 'lookAt').name('look at the target').onChange((on) => crowd.setLook(on));
  gui.add(params, 'settleTime', 0.05, 1, 0.01).name('look settle time (s)').onChange((v) => crowd.setSettleTime(v));
  const orbitControl = gui.add(params, 'orbit').name('target orbits');
  // init() runs once per page: switching reloads it with ?threads=2 or ?threads=1.
  ctx.enableWhen(gui.add(params, 'threads').name('threads (reloads the page)').onChange((on) => {
    const search = new URLSearchParams(location.search);
    search.set('threads', on ? '2' : '1');
    location.assign(`${location.pathname}?${search}${location.hash}`);
  }), () => globalThis.crossOriginIsolated === true);

  const panel = ctx.panel('Crowd', 'bottom-right');
  const lines = [0, 1, 2, 3, 4].map(() => panel.appendChild(document.createElement('div')));
  const threadsText = ikpd.threads > 1
    ? `threads: ${ikpd.threads} — each batch is split over ${ikpd.threads} threads`
    : `threads: off — ${globalThis.crossOriginIsolated ? `one thread (?threads=${requested})` : 'the page is not cross-origin isolated'}`;
  lines[3].textContent = threadsText;

  // ---------------------------------------------------------------- the frame
  const stats = { frames: 0, solve: 0, limbs: 0, look: 0, script: 0, shown: 0 };
  let orbitRadius = 10;
  let orbitAngle = 0;
  const lookTarget = [0, 0, 0];
  const ms = (x) => x.toFixed(2);
  const smooth = (old, value, a) => (stats.frames === 0 ? value : old + a * (value - old));

  function step(dt) {
    if (params.orbit) {
      orbitAngle += 0.25 * dt;
      target.position.set(orbitRadius * Math.cos(orbitAngle), 2.4, orbitRadius * Math.sin(orbitAngle));
    }
    target.position.toArray(lookTarget);
    crowd.step(dt, lookTarget, matrices);
    for (const mesh of Object.values(meshes)) mesh.instanceMatrix.needsUpdate = true;
    // The readout: smoothed over about SMOOTHING seconds, whatever the frame rate.
    // RigBatch solves limbs and look-at in one call: only its total is known.
    const { limbs = NaN, look = NaN, solve = limbs + look, script } = crowd.times;
    const a = 1 - Math.exp(-dt / SMOOTHING);
    stats.limbs = smooth(stats.limbs, limbs, a);
    stats.look = smooth(stats.look, look, a);
    stats.script = smooth(stats.script, script, a);
    stats.solve = smooth(stats.solve, solve, a);
    stats.frames++;
  }

  function showStats(time) {
    if (time - stats.shown < 0.25 && stats.frames > 1) return;
    stats.shown = time;
    const instances = Object.values(meshes).reduce((n, m) => n + m.count, 0);
    lines[0].textContent = `${crowd.count.toLocaleString('en')} characters · ${instances.toLocaleString('en')} instances in ${Object.keys(meshes).length} InstancedMeshes`;
    lines[1].textContent = crowd.solver === 'rigBatch'
      ? `solve ${ms(stats.solve)} ms per frame: RigBatch.update (look-at and limbs in one call)`
      : `solve ${ms(stats.solve)} ms per frame: limbs ${ms(stats.limbs)} · look-at ${ms(stats.look)}`;
    lines[2].textContent = `script (gait, inputs, ${crowd.solver === 'rigBatch' ? 'forward kinematics, ' : ''}matrices) ${ms(stats.script)} ms`;
  }

  /** Up to SAMPLE characters spread over the crowd, with their feet and heads (for the tests). */
  function sample() {
    const n = Math.min(SAMPLE, crowd.count);
    return Array.from({ length: n }, (_, k) => crowd.character(Math.floor((k * crowd.count) / n)));
  }

  build(params.characters);
  return {
    update(dt, time) {
      step(dt);
      showStats(time);
    },
    reset() {
      params.orbit = true;
      orbitAngle = 0;
      orbitControl.updateDisplay();
      crowd.reset();
      stats.frames = 0;
    },
    state() {
      return {
        characters: crowd.count,
        solver: crowd.solver,
        solverRequested: solver,
        perCharacter: { ...PER_CHARACTER },
        instances: Object.fromEntries(Object.entries(meshes).map(([kind, m]) => [kind, m.count])),
        instancedMeshes: scene.children.filter((o) => o.isInstancedMesh).length,
        frames: stats.frames,
        times: crowd.solver === 'rigBatch'
          ? { solve: stats.solve, script: stats.script }
          : { solve: stats.solve, limbs: stats.limbs, look: stats.look, script: stats.script },
        panel: lines.map((l) => l.textContent),
        threads: ikpd.threads,
        threadsRequested: requested,
        threadsControl: params.threads,
        crossOriginIsolated: globalThis.crossOriginIsolated === true,
        target: target.position.toArray(),
        orbit: params.orbit,
        ankleHeight: SKELETON.ankle,
        sample: sample(),
      };
    },
    dispose() {
      crowd.dispose();
      for (const mesh of Object.values(meshes)) mesh.dispose();
    },
  };
}
