// The 2D tentacle (docs/ik/tentacle.md): incremental CCD where each joint turns at
// most `step` per update within ±`limit`, so the tip crawls toward the
// pointer like a tentacle instead of snapping. Updates run at a fixed rate.
// The plain rule can curl into a knot it never leaves; the demo turns on
// Tentacle2D's opt-in `escapeAfter`, which unwinds a stuck tentacle.
import * as THREE from 'three/webgpu';
import { colors, handle, setupStage, standard } from '../lib/stage.js';

const deg = THREE.MathUtils.degToRad;

export async function create(ctx) {
  const { scene, camera, controls, ikpd } = ctx;
  setupStage(ctx, { shadowExtent: 5 });
  ctx.bounds.set(new THREE.Vector3(-4, 0.05, 0), new THREE.Vector3(4, 4.5, 0));
  camera.position.set(0, 2.0, 6.4);
  controls.target.set(0, 1.9, 0);

  const wall = new THREE.Mesh(new THREE.PlaneGeometry(12, 6), standard(0x23262d, { flatShading: false, roughness: 1 }));
  wall.position.set(0, 3, -0.35);
  wall.receiveShadow = true;
  scene.add(wall);
  const base = new THREE.Mesh(new THREE.CylinderGeometry(0.3, 0.4, 0.2, 32), standard(0x3d424c, { flatShading: false }));
  base.position.set(0, 0.1, 0);
  base.castShadow = true;
  scene.add(base);

  const params = {
    bones: 14,
    length: 2.8,
    step: 3,
    limit: 40,
    rate: 60,
    escape: true,
    escapeAfter: 30,
    followPointer: true,
  };

  const target = ctx.draggable('target', handle(colors.target, 0.07), { showZ: false });
  target.position.set(1.4, 2.6, 0);
  scene.add(target);

  const group = new THREE.Group();
  scene.add(group);
  const skin = standard(0xc86a8a, { flatShading: false, roughness: 0.45 });
  const suckers = standard(0xf0c9a0, { flatShading: false });
  let tentacle = null;
  let segments = [];
  let jointMeshes = [];

  function build() {
    tentacle?.dispose();
    for (const child of group.children) child.geometry.dispose();
    group.clear();
    const n = params.bones;
    const length = params.length / n;
    tentacle = new ikpd.Tentacle2D({
      lengths: new Array(n).fill(length),
      step: deg(params.step),
      limit: deg(params.limit),
      root: [0, 0.2],
      baseAngle: Math.PI / 2,
      escapeAfter: params.escape ? params.escapeAfter : 0,
    });
    segments = [];
    jointMeshes = [];
    for (let i = 0; i < n; i++) {
      const r0 = 0.16 * (1 - i / n) + 0.025;
      const r1 = 0.16 * (1 - (i + 1) / n) + 0.025;
      const segment = new THREE.Mesh(new THREE.CylinderGeometry(r1, r0, length, 20).translate(0, length / 2, 0), skin);
      segment.castShadow = true;
      group.add(segment);
      segments.push(segment);
      const joint = new THREE.Mesh(new THREE.SphereGeometry(r0 * 1.02, 20, 12), i % 2 ? skin : suckers);
      joint.castShadow = true;
      group.add(joint);
      jointMeshes.push(joint);
    }
    place();
  }

  const up = new THREE.Vector3(0, 1, 0);
  const dir = new THREE.Vector3();
  function place() {
    const p = tentacle.positions;
    for (let i = 0; i < segments.length; i++) {
      const [x0, y0] = p[i];
      const [x1, y1] = p[i + 1];
      segments[i].position.set(x0, y0, 0);
      segments[i].quaternion.setFromUnitVectors(up, dir.set(x1 - x0, y1 - y0, 0).normalize());
      jointMeshes[i].position.set(x0, y0, 0);
    }
  }
  build();

  const gui = ctx.gui;
  gui.add(params, 'bones', 2, 40, 1).onFinishChange(build);
  gui.add(params, 'length', 0.5, 4, 0.1).name('total length').onFinishChange(build);
  gui.add(params, 'step', 0.1, 15, 0.1).name('step (° per update)').onFinishChange(build);
  gui.add(params, 'limit', 0, 180, 1).name('limit (°)').onFinishChange(build);
  gui.add(params, 'rate', 5, 240, 1).name('updates per second');
  gui.add(params, 'escape').name('escape knots').onFinishChange(build);
  ctx.enableWhen(gui.add(params, 'escapeAfter', 1, 240, 1).name('…after N stuck updates').onFinishChange(build), () => params.escape);
  gui.add(params, 'followPointer').name('follow pointer');
  gui.add({ reset: build }, 'reset').name('straighten');

  // Pointer → the wall plane z = 0.
  const plane = new THREE.Plane(new THREE.Vector3(0, 0, 1), 0);
  const hit = new THREE.Vector3();
  const onMove = (event) => {
    if (!params.followPointer || ctx.transform.dragging || event.buttons) return;
    ctx.raycaster.setFromCamera(ctx.setPointer(event), camera);
    if (ctx.raycaster.ray.intersectPlane(plane, hit)) ctx.moveDraggable('target', [hit.x, hit.y, 0]);
  };
  ctx.canvas.addEventListener('pointermove', onMove);

  const info = ctx.panel('Tentacle', 'bottom-right');
  const infoBody = document.createElement('div');
  info.appendChild(infoBody);

  let accumulator = 0;
  let updates = 0;
  let lastGap = 0;
  return {
    update(dt) {
      accumulator = Math.min(accumulator + dt, 0.5);
      const interval = 1 / params.rate;
      let moved = false;
      while (accumulator >= interval) {
        accumulator -= interval;
        tentacle.update([target.position.x, target.position.y]);
        updates++;
        moved = true;
      }
      if (moved) place();
      const [tx, ty] = tentacle.tip;
      const gap = Math.hypot(tx - target.position.x, ty - target.position.y);
      const escape = params.escape
        ? `escape knots on: unwinds after ${params.escapeAfter} updates without progress${tentacle.unwinding ? ' · <b>unwinding</b>' : ''}`
        : 'escape knots off: the plain rule, which can stay knotted';
      infoBody.innerHTML = `${updates} updates · tip gap ${gap.toFixed(3)} · max |angle| ${THREE.MathUtils.radToDeg(Math.max(...tentacle.angles.map(Math.abs))).toFixed(1)}°<br>${escape}`;
      lastGap = gap;
    },
    state() {
      return { target: target.position.toArray(), tip: tentacle.tip, gap: lastGap, angles: tentacle.angles, updates, escapeAfter: params.escape ? params.escapeAfter : 0, unwinding: tentacle.unwinding };
    },
    reset: build,
    dispose() {
      ctx.canvas.removeEventListener('pointermove', onMove);
      tentacle?.dispose();
      tentacle = null;
    },
  };
}
