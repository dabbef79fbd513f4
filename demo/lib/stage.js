// Shared look: lights, ground, bone/joint meshes, axes gizmos and target handles.
import * as THREE from 'three/webgpu';

export const colors = {
  background: 0x1b1d22,
  ground: 0x2a2d34,
  grid: 0x3a3e47,
  bone: 0xd9d4c7,
  boneAlt: 0x9fb7d6,
  joint: 0x5c6470,
  target: 0xff5a3c,
  pole: 0x3cb4ff,
  up: 0x7bd88f,
  accent: 0xffb347,
  reached: 0x3cff7a,
};

/** Caption text naming a handle colour, with a swatch of that colour (for scene descriptions). */
export function swatch(color, text) {
  const hex = `#${color.toString(16).padStart(6, '0')}`;
  return `<span class="swatch" style="--swatch:${hex}">${text}</span>`;
}

/** Background, fog, hemisphere + shadowed key light, and (optionally) a ground with a grid. */
export function setupStage(ctx, { ground = true, size = 14, fog = true, shadowExtent = 4 } = {}) {
  const { scene } = ctx;
  scene.background = new THREE.Color(colors.background);
  if (fog) scene.fog = new THREE.Fog(colors.background, size * 0.8, size * 2.2);
  scene.add(new THREE.HemisphereLight(0xdfe8ff, 0x2a2420, 1.6));
  const key = new THREE.DirectionalLight(0xfff1dc, 2.4);
  key.position.set(4, 7, 3);
  key.castShadow = true;
  key.shadow.mapSize.set(1024, 1024);
  const c = key.shadow.camera;
  c.left = c.bottom = -shadowExtent;
  c.right = c.top = shadowExtent;
  c.near = 0.5;
  c.far = 20;
  key.shadow.bias = -0.0005;
  scene.add(key);
  const rim = new THREE.DirectionalLight(0x9fc4ff, 0.8);
  rim.position.set(-5, 3, -4);
  scene.add(rim);
  if (ground) {
    const floor = new THREE.Mesh(
      new THREE.CircleGeometry(size, 64).rotateX(-Math.PI / 2),
      new THREE.MeshStandardMaterial({ color: colors.ground, roughness: 0.95 }),
    );
    floor.receiveShadow = true;
    scene.add(floor);
    const grid = new THREE.GridHelper(size * 2, size * 4, colors.grid, colors.grid);
    grid.material.transparent = true;
    grid.material.opacity = 0.35;
    grid.position.y = 0.001;
    scene.add(grid);
  }
  return { key };
}

const axisRotations = {
  x: new THREE.Euler(0, 0, -Math.PI / 2),
  y: new THREE.Euler(0, 0, 0),
  z: new THREE.Euler(Math.PI / 2, 0, 0),
  '-x': new THREE.Euler(0, 0, Math.PI / 2),
  '-y': new THREE.Euler(Math.PI, 0, 0),
  '-z': new THREE.Euler(-Math.PI / 2, 0, 0),
};

/** Octahedral (Blender-style) bone of `length` along `axis` ('x', 'y', 'z' or negated). */
export function boneGeometry(length, axis = 'x', width = 0.12) {
  const r = Math.min(width * length, 0.09);
  const geometry = new THREE.LatheGeometry(
    [new THREE.Vector2(0, 0), new THREE.Vector2(r, length * 0.15), new THREE.Vector2(0, length)],
    4,
  );
  geometry.rotateY(Math.PI / 4);
  const e = axisRotations[axis];
  geometry.applyMatrix4(new THREE.Matrix4().makeRotationFromEuler(e));
  geometry.computeVertexNormals();
  return geometry;
}

export function standard(color, options = {}) {
  return new THREE.MeshStandardMaterial({ color, roughness: 0.55, metalness: 0.05, flatShading: true, ...options });
}

/** The translucent blue-grey of a ghost beside the character (IK off, a cross-fade, three-vrm). */
export function ghostMaterial(opacity) {
  return new THREE.MeshStandardMaterial({ color: colors.boneAlt, roughness: 0.8, transparent: true, opacity, depthWrite: false });
}

/** A bone mesh plus a joint sphere at its origin, as one group. */
export function boneMesh(length, { axis = 'x', color = colors.bone, jointRadius = 0.045 } = {}) {
  const group = new THREE.Group();
  const bone = new THREE.Mesh(boneGeometry(length, axis), standard(color));
  bone.castShadow = true;
  group.add(bone);
  const joint = new THREE.Mesh(new THREE.SphereGeometry(jointRadius, 16, 12), standard(colors.joint, { flatShading: false }));
  joint.castShadow = true;
  group.add(joint);
  group.userData.bone = bone;
  return group;
}

/** Thick RGB axes (X red, Y green, Z blue) of `size`. */
export function createAxes(size = 0.4, thickness = 0.012) {
  const group = new THREE.Group();
  const shaft = new THREE.CylinderGeometry(thickness, thickness, size * 0.8, 8).translate(0, size * 0.4, 0);
  const tip = new THREE.ConeGeometry(thickness * 2.6, size * 0.2, 12).translate(0, size * 0.9, 0);
  const make = (color, rotate) => {
    const material = new THREE.MeshBasicMaterial({ color });
    const a = new THREE.Mesh(shaft, material);
    const b = new THREE.Mesh(tip, material);
    const g = new THREE.Group();
    g.add(a, b);
    rotate(g);
    group.add(g);
  };
  make(0xff4b4b, (g) => { g.rotation.z = -Math.PI / 2; });
  make(0x55d66b, () => {});
  make(0x4b8bff, (g) => { g.rotation.x = Math.PI / 2; });
  return group;
}

/** A glowing sphere used as a draggable target/pole handle (glow low enough that its colour shows). */
export function handle(color = colors.target, radius = 0.06, glow = 0.6) {
  const mesh = new THREE.Mesh(
    new THREE.SphereGeometry(radius, 24, 16),
    new THREE.MeshStandardMaterial({ color, emissive: color, emissiveIntensity: glow, roughness: 0.3 }),
  );
  mesh.castShadow = true;
  return mesh;
}

/** A thin line between two points that can be updated (for pole guides etc.). */
export function guideLine(color = 0xffffff, opacity = 0.35) {
  const geometry = new THREE.BufferGeometry().setFromPoints([new THREE.Vector3(), new THREE.Vector3()]);
  const line = new THREE.Line(geometry, new THREE.LineBasicMaterial({ color, transparent: true, opacity }));
  line.frustumCulled = false;
  line.set = (a, b) => {
    const p = geometry.attributes.position;
    p.setXYZ(0, a.x ?? a[0], a.y ?? a[1], a.z ?? a[2]);
    p.setXYZ(1, b.x ?? b[0], b.y ?? b[1], b.z ?? b[2]);
    p.needsUpdate = true;
  };
  return line;
}

/** Sets an Object3D's world-space position and rotation from ikpd arrays (the object's parent is the scene). */
export function setWorld(object, { position, rotation }) {
  object.position.fromArray(position);
  object.quaternion.fromArray(rotation);
}
