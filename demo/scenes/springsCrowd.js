// A crowd with spring bones (docs/rig/springs.md, "A crowd"): 500 stick
// avatars (50 to 2,000 by the count control), each with hair (5 chains of 6
// joints, a sphere on the head, center the neck) and a tail (8 joints, no
// center), are one ikpd.RigBatch: one RigBatch.update(dt) per frame steps
// every spring joint of every avatar, on the threaded module's workers when
// the page is cross-origin isolated (the demo's init({ threads })). Each
// avatar's head turns and nods and its body sways and hops on its own phase;
// forward kinematics here turns the solved locals into one LineSegments for
// all the chains and one InstancedMesh of heads: no Object3D per avatar. The
// panel reads the count, the threads and the update's time per frame.
import * as THREE from 'three/webgpu';
import { colors, setupStage, standard } from '../lib/stage.js';

const COUNTS = [50, 200, 500, 1000, 2000];
const DEFAULT_COUNT = 500;
const HAIR = 5, HAIR_JOINTS = 6, TAIL_JOINTS = 8;
const BODY = 0, NECK = 1, HEAD = 2;
const F = 10; // floats per rest local
const ROW = 40; // avatars per row of the grid, 1.2 m apart
const SMOOTHING = 0.5; // s: time constant of the readout's smoothing

/** body 0 (1 m up) → neck 1 → head 2; hair chains round the back of the head, a tail from the back of the body. */
function skeleton() {
  const parents = [-1, 0, 1];
  const rest = [[0, 1, 0], [0, 0.45, 0], [0, 0.1, 0]];
  const chain = (parent, at, dir, n, segment) => {
    const len = Math.hypot(...dir), out = [];
    for (let k = 0; k <= n; k++) {
      parents.push(k === 0 ? parent : parents.length - 1);
      rest.push(k === 0 ? at : dir.map((v) => (v / len) * segment));
      out.push(parents.length - 1);
    }
    return out;
  };
  const hair = [];
  for (let c = 0; c < HAIR; c++) {
    const a = Math.PI * (1.2 + (0.6 * c) / (HAIR - 1)); // round the back (−Z)
    const x = Math.cos(a), z = Math.sin(a);
    hair.push(chain(HEAD, [0.09 * x, 0.1, 0.09 * z], [0.3 * x, -0.95, 0.3 * z], HAIR_JOINTS, 0.045));
  }
  const tail = chain(BODY, [0, -0.05, -0.1], [0, -0.4, -1], TAIL_JOINTS, 0.06);
  const locals = new Float32Array(F * parents.length);
  rest.forEach((t, j) => locals.set([...t, 0, 0, 0, 1, 1, 1, 1], F * j));
  return { parents, rest: locals, offsets: rest, chains: [...hair, tail], hair, tail };
}

const SKELETON = /* @__PURE__ */ skeleton();
const J = SKELETON.parents.length;
// Every drawn segment once: [parent joint, joint] pairs (the spine, each chain from its parent).
const SEGMENTS = /* @__PURE__ */ [[BODY, NECK], [NECK, HEAD], ...SKELETON.chains.flatMap((ch) => ch.map((j) => [SKELETON.parents[j], j]))];
const TIPS = /* @__PURE__ */ SKELETON.chains.map((ch) => ch[ch.length - 1]);

/** The avatar's Rig: hair springs (center the neck, a sphere on the head), then the tail's (no center). */
function createAvatar(ikpd) {
  const rig = new ikpd.Rig({ parents: SKELETON.parents, rest: SKELETON.rest });
  rig.add('springs', {
    chains: SKELETON.hair, center: NECK, stiffness: 1, dragForce: 0.4, gravityPower: 0.3, hitRadius: 0.01,
    colliders: [{ joint: HEAD, offset: [0, 0.1, 0], radius: 0.09 }],
  });
  rig.add('springs', { chains: [SKELETON.tail], center: null, stiffness: 0.6, dragForce: 0.25, gravityPower: 0.2, hitRadius: 0.02 });
  return rig;
}

/** q = yaw about Y then pitch about X, into out[o..o + 3]. */
function yawPitch(out, o, yaw, pitch) {
  const sy = Math.sin(yaw / 2), cy = Math.cos(yaw / 2), sp = Math.sin(pitch / 2), cp = Math.cos(pitch / 2);
  out[o] = cy * sp; out[o + 1] = sy * cp; out[o + 2] = -sy * sp; out[o + 3] = cy * cp;
}

export async function create(ctx) {
  const { scene, camera, controls, gui, ikpd } = ctx;
  setupStage(ctx, { size: 40, shadowExtent: 12 });
  camera.far = 300;
  camera.position.set(4, 2.6, 7);
  controls.target.set(0, 1.1, -3);

  const params = { count: DEFAULT_COUNT, playing: true };
  let batch = null, count = 0, time = 0, solveMs = 0, swing = 0, finite = true;
  const world = { p: new Float32Array(0), q: new Float32Array(0) }; // per avatar and joint: position, rotation
  const lines = new THREE.LineSegments(new THREE.BufferGeometry(), new THREE.LineBasicMaterial({ color: colors.up }));
  lines.frustumCulled = false;
  scene.add(lines);
  const headGeometry = new THREE.IcosahedronGeometry(0.1, 1);
  const headMaterial = standard(0xd8b59a);
  let heads = null;
  const _m = new THREE.Matrix4(), _q = new THREE.Quaternion(), _p = new THREE.Vector3(), _one = new THREE.Vector3(1, 1, 1);
  const _pq = new THREE.Quaternion(), _pp = new THREE.Vector3();

  /** A new batch of `n` avatars (spring state at rest), and the drawing sized for it. */
  function rebuild(n) {
    batch?.dispose();
    batch = null;
    const template = createAvatar(ikpd);
    try {
      batch = new ikpd.RigBatch({ rig: template, count: n });
    } finally {
      template.dispose();
    }
    count = n;
    world.p = new Float32Array(3 * J * n);
    world.q = new Float32Array(4 * J * n);
    lines.geometry.dispose();
    lines.geometry = new THREE.BufferGeometry();
    lines.geometry.setAttribute('position', new THREE.BufferAttribute(new Float32Array(6 * SEGMENTS.length * n), 3));
    if (heads) { scene.remove(heads); heads.dispose(); }
    heads = new THREE.InstancedMesh(headGeometry, headMaterial, n);
    heads.frustumCulled = false;
    scene.add(heads);
    time = 0;
    swing = 0;
    solveMs = 0;
  }

  /** Avatar c's inputs at time t: its place on the grid (root), the body's sway and hop, the head's turn and nod. */
  function fillInputs(t) {
    const { rotations, translations, rootPositions } = batch;
    for (let c = 0; c < count; c++) {
      const phase = 0.37 * c;
      rootPositions[3 * c] = 1.2 * ((c % ROW) - (ROW - 1) / 2);
      rootPositions[3 * c + 2] = -1.2 * Math.floor(c / ROW);
      yawPitch(rotations, 4 * (BODY * count + c), 0.8 * Math.sin(1.3 * t + phase), 0);
      translations[3 * (BODY * count + c) + 1] = 1 + 0.12 * Math.max(0, Math.sin(2.2 * t + phase)) ** 4;
      yawPitch(rotations, 4 * (HEAD * count + c), 0.7 * Math.sin(Math.PI * t + phase), 0.3 * Math.sin(5 * t + 2 * phase));
    }
  }

  /** World transforms of every joint from the solved locals (roots unrotated, scales 1), then the drawing. */
  function draw() {
    const { output, translations, rootPositions } = batch;
    const P = world.p, Q = world.q;
    const position = lines.geometry.attributes.position.array;
    finite = true;
    for (let c = 0; c < count; c++) {
      for (let j = 0; j < J; j++) {
        const parent = SKELETON.parents[j], w = J * c + j, l = j * count + c;
        _q.fromArray(output, 4 * l).normalize();
        _p.fromArray(translations, 3 * l);
        if (parent < 0) {
          _p.x += rootPositions[3 * c]; _p.y += rootPositions[3 * c + 1]; _p.z += rootPositions[3 * c + 2];
        } else {
          const pw = J * c + parent;
          _pq.fromArray(Q, 4 * pw);
          _p.applyQuaternion(_pq).add(_pp.fromArray(P, 3 * pw));
          _q.premultiply(_pq);
        }
        _p.toArray(P, 3 * w);
        _q.toArray(Q, 4 * w);
      }
      for (let s = 0; s < SEGMENTS.length; s++) {
        const o = 6 * (SEGMENTS.length * c + s);
        for (let k = 0; k < 2; k++) {
          const w = 3 * (J * c + SEGMENTS[s][k]);
          position[o + 3 * k] = P[w]; position[o + 3 * k + 1] = P[w + 1]; position[o + 3 * k + 2] = P[w + 2];
        }
      }
      const h = 3 * (J * c + HEAD);
      heads.setMatrixAt(c, _m.compose(_p.set(P[h], P[h + 1] + 0.1, P[h + 2]), _q.fromArray(Q, 4 * (J * c + HEAD)), _one));
    }
    for (let i = 0; i < position.length; i++) if (!Number.isFinite(position[i])) { finite = false; break; }
    lines.geometry.attributes.position.needsUpdate = true;
    heads.instanceMatrix.needsUpdate = true;
    // How far the springs turn the chains' first joints from rest (a sample of avatars): the tails move.
    for (let c = 0; c < Math.min(count, 64); c++) {
      for (let k = 0; k < SKELETON.chains.length; k++) {
        const chain = SKELETON.chains[k];
        const w = output[4 * (chain[0] * count + c) + 3];
        swing = Math.max(swing, 2 * Math.acos(Math.min(1, Math.abs(w))));
      }
    }
  }

  rebuild(params.count);
  fillInputs(0);
  batch.update(0);
  draw();

  gui.add(params, 'count', COUNTS).name('avatars').onChange((n) => { rebuild(n); fillInputs(0); batch.update(0); draw(); });
  gui.add(params, 'playing').name('playing');
  const panel = ctx.panel('Spring bones in a crowd', 'bottom-right');
  const readout = document.createElement('div');
  panel.appendChild(readout);
  const joints = SKELETON.hair.length * HAIR_JOINTS + TAIL_JOINTS;

  return {
    update(dt) {
      if (!params.playing) return;
      time += dt;
      fillInputs(time);
      const t0 = performance.now();
      batch.update(dt);
      const ms = performance.now() - t0;
      solveMs = solveMs === 0 ? ms : solveMs + (ms - solveMs) * Math.min(1, dt / SMOOTHING);
      draw();
      readout.textContent = `${count.toLocaleString('en')} avatars × ${joints} spring joints, one RigBatch.update: ${solveMs.toFixed(2)} ms per frame ` +
        `(${ikpd.threads > 1 ? `${ikpd.threads} threads` : 'one thread'})`;
    },
    state() {
      const tips = [];
      for (let c = 0; c < Math.min(count, 4); c++) for (const j of TIPS) tips.push(Array.from(world.p.subarray(3 * (J * c + j), 3 * (J * c + j) + 3)));
      return { count, threads: ikpd.threads, joints, solveMs, swing, finite, time, tips, readout: readout.textContent };
    },
    dispose() {
      batch?.dispose();
      batch = null;
      scene.remove(lines);
      lines.geometry.dispose();
      lines.material.dispose();
      if (heads) { scene.remove(heads); heads.dispose(); }
      headGeometry.dispose();
      headMaterial.dispose();
    },
  };
}
